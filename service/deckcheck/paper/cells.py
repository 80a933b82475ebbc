"""A form's rows as lines: the words in a name's cell and in the count's cell beside it (paper/grid.py) are one line,
the count first, however far apart they print; a cell's words are never joined to a word outside it. The words in no
cell are joined into lines as on any other page (ocr.lines)."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from deckcheck.paper.grid import Cell, Grid
from deckcheck.paper.ocr import Prepared, TextLine, Word, box_of, lines, reading_order
from deckcheck.paper.second import Second

EDGE = 0.2  # of a cell's height: a count whose middle stands this near its rule above or below is unclear


@dataclass(frozen=True, slots=True)
class Assembled:
    """A page's lines, and for those that are a ruled table's rows (by index), where their table begins on the page
    (the y of its top rule, in the page's pixels)."""

    lines: list[TextLine]
    tables: dict[int, int]
    stray: list[TextLine]  # words in a table's cells that are no row's name or count: specks, a count misread


def assemble(found: list[Word], grid: Grid, prepared: Prepared, second: Second) -> Assembled:
    """The page's lines in reading order: each table row's name with its count, and the lines of the words in no
    cell. A count's cell that holds no plain count (a `1` OCR dropped, or read as `。克`) is read again as digits."""
    taken: set[int] = set()
    rows: list[TextLine] = []
    tops: list[int] = []
    for name_cell, count_cell in grid.pairs():
        name = _inside(found, name_cell, taken)
        if not name:
            continue
        count = _inside(found, count_cell, taken) if count_cell is not None else []
        if count_cell is not None and not _plain(count):
            count = _digits(count_cell, second) or count
        if count_cell is not None:
            count = [_edged(word, count_cell) for word in count]
        words = tuple(sorted(count, key=lambda w: w.left) + sorted(name, key=lambda w: w.left))
        rows.append(TextLine(words, box_of(words, prepared)))
        tops.append(prepared.to_page(name_cell.box[0], name_cell.top, name_cell.box[0], name_cell.top)[1])
    for cell in grid.cells:
        _inside(found, cell, taken)  # a count with no name beside it, a label's cell: in a table, never a line's part
    free = [word for number, word in enumerate(found) if number not in taken]
    held = [word for number, word in enumerate(found) if number in taken and not any(word in r.words for r in rows)]
    ordered = reading_order(rows + lines(free, prepared), prepared.image.width / prepared.scale)
    top_of = {id(row): top for row, top in zip(rows, tops, strict=True)}
    tables = {at: top_of[id(line)] for at, line in enumerate(ordered) if id(line) in top_of}
    return Assembled(ordered, tables, lines(held, prepared) if held else [])


def _inside(found: list[Word], cell: Cell, taken: set[int]) -> list[Word]:
    """The words whose middle `cell` holds that no other cell took, now taken."""
    inside = [
        number
        for number, word in enumerate(found)
        if number not in taken and cell.holds(word.left, word.top, word.right, word.bottom)
    ]
    taken.update(inside)
    return [found[number] for number in inside]


def _plain(words: list[Word]) -> bool:
    """Whether a count's cell reads as a count: one or two digits, a times sign or 枚 beside them."""
    text = unicodedata.normalize("NFKC", "".join(word.text for word in words)).strip(" x×X枚")
    return text.isdigit() and len(text) <= 2


def _digits(cell: Cell, second: Second) -> list[Word]:
    """The count in `cell` read again as digits alone, from its middle: its box shrunk so that the reading's margin
    stays inside the cell's rules."""
    left, top, right, bottom = cell.box
    high = (bottom - top) * 0.45
    middle = (top + bottom) / 2
    pad = high / 2
    inner = (round(left + pad + 2), round(middle - high / 2), round(right - pad - 2), round(middle + high / 2))
    if inner[2] <= inner[0]:
        return []
    number, confidence = second.digits(Word("", *inner, 0.0))
    if not number.isdigit() or len(number) > 2:
        return []
    return [Word(number, *inner, confidence)]


def _edged(word: Word, cell: Cell) -> Word:
    """The count read in `cell`, its confidence nothing where its middle stands within EDGE of the cell's height of
    the rule above or below: on a photographed form whose rules lean (its keystone), the neighbouring row's count
    lands there, and a count so placed is one to confirm, never one to trust."""
    top, bottom = cell.box[1], cell.box[3]
    middle, margin = (word.top + word.bottom) / 2, EDGE * (bottom - top)
    if top + margin <= middle <= bottom - margin:
        return word
    return Word(word.text, word.left, word.top, word.right, word.bottom, 0.0)
