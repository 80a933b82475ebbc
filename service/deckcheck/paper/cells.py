"""A form's rows as lines: the words in a name's cell and in the count's cell beside it (paper/grid.py) are one line,
the count first, however far apart they print; a cell's words are never joined to a word outside it. The words in no
cell are joined into lines as on any other page (ocr.lines)."""

from __future__ import annotations

from dataclasses import dataclass

from deckcheck.paper.grid import Cell, Grid
from deckcheck.paper.ocr import Prepared, TextLine, Word, lines, reading_order


@dataclass(frozen=True, slots=True)
class Assembled:
    """A page's lines, and which of them are a ruled table's rows (by index)."""

    lines: list[TextLine]
    in_table: frozenset[int]


def assemble(found: list[Word], grid: Grid, prepared: Prepared) -> Assembled:
    """The page's lines in reading order: each table row's name with its count, and the lines of the words in no
    cell."""
    taken: set[int] = set()
    rows: list[TextLine] = []
    for name_cell, count_cell in grid.pairs():
        name = _inside(found, name_cell, taken)
        if not name:
            continue
        count = _inside(found, count_cell, taken) if count_cell is not None else []
        words = tuple(sorted(count, key=lambda w: w.left) + sorted(name, key=lambda w: w.left))
        box = prepared.to_page(
            min(w.left for w in words),
            min(w.top for w in words),
            max(w.right for w in words),
            max(w.bottom for w in words),
        )
        rows.append(TextLine(words, box))
    for cell in grid.cells:
        _inside(found, cell, taken)  # a count with no name beside it, a label's cell: in a table, never a line's part
    free = [word for number, word in enumerate(found) if number not in taken]
    held = [word for number, word in enumerate(found) if number in taken and not any(word in r.words for r in rows)]
    rest = lines(free, prepared) + (lines(held, prepared) if held else [])
    ordered = reading_order(rows + rest, prepared.image.width / prepared.scale)
    return Assembled(ordered, frozenset(at for at, line in enumerate(ordered) if any(line is row for row in rows)))


def _inside(found: list[Word], cell: Cell, taken: set[int]) -> list[Word]:
    """The words whose middle `cell` holds that no other cell took, now taken."""
    inside = [
        number
        for number, word in enumerate(found)
        if number not in taken and cell.holds(word.left, word.top, word.right, word.bottom)
    ]
    taken.update(inside)
    return [found[number] for number in inside]
