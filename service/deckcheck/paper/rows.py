"""The runs of text of a page in rows, and the columns some of them make.

A run is on a row where its middle lies on the row's line, across the page's slope (a photographed page's rows slope
with it): within ROW of their heights of the line through the middles of the row's runs. A count in its own cell, a
badge, a pill or a count after a tab stop is so on its name's row, however far from it; two columns of a list make
rows of two cards each.

A column is the runs whose left edges (or, for numbers, right edges) stand within COLUMN of a height of each other
down the page. Two kinds are looked for: a column of numbers that count up row by row (`No.`, a spreadsheet's row
numbers, a list's numbers), which are never counts; and a column of words that name kinds or sections of the deck
(`モンスター`, `融合`, `EX`, `Spell`, `Side`), which are never cards.
"""

from __future__ import annotations

import itertools
import math
import re
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from deckcheck.data.names import loose_key
from deckcheck.paper.detect import Quad
from deckcheck.paper.furniture import label
from deckcheck.paper.parse import count_alone, folded, list_number
from deckcheck.paper.recognise import Read

ROW = 0.45  # of the smaller height: how far a run's middle may stand from the other's line
SLOPE = 0.01  # of the distance between two runs of a row: how far their angles may differ (a keystone's)
COLUMN = 1.2  # heights apart that two edges are one column's
COUNTED = 0.7  # of a column's steps that go up by one, at least, for it to be a column of row numbers
TYPED = 0.6  # of a column's runs that name a kind or a section, at least, for it to be a column of them
# What a spreadsheet's or an app's column of kinds says: kinds of card, frames and sections, as their loose keys.
TYPE_WORDS = frozenset(
    loose_key(word)
    for word in (
        "モンスター", "魔法", "罠", "トラップ", "融合", "シンクロ", "エクシーズ", "リンク", "儀式", "ペンデュラム",
        "効果", "通常", "永続", "速攻", "装備", "フィールド", "カウンター", "チューナー", "EX", "エクストラ", "サイド",
        "メイン", "デッキ", "Monster", "Spell", "Trap", "Fusion", "Synchro", "Xyz", "Link", "Ritual", "Pendulum",
        "Effect", "Normal", "Continuous", "Quick-Play", "Equip", "Field", "Counter", "Tuner", "Extra", "Side", "Main",
        "Deck", "Magic", "Monsters", "Spells", "Traps", "カード", "Card", "Cards",
    )
)  # fmt: skip
_WORD_BREAKS = re.compile(r"[\s/・|,、()（）]+")
_NUMBER_HEADERS = frozenset(loose_key(word) for word in ("No", "No.", "#", "番号", "Nr", "行"))


@dataclass(frozen=True, slots=True)
class Run:
    """A run of text on a page: where it stands and what was read in it."""

    page: int
    quad: Quad
    read: Read
    bar: tuple[int, int] | None = None  # where the bar it is set on begins and ends along its row, if it is on one

    @property
    def text(self) -> str:
        """What was read."""
        return self.read.text


def angle_of(runs: Sequence[Run]) -> float:
    """The angle the page's text runs at: the median of its long runs' (0 where it has none)."""
    long = [run.quad.angle for run in runs if run.quad.width >= 3 * run.quad.height]
    return statistics.median(long) if long else 0.0


def rows(runs: Sequence[Run]) -> list[list[Run]]:
    """The runs in rows, each row left to right along the text, the rows top to bottom. The runs are taken top to
    bottom (across the page's slope); each joins the row every run of which it stands on the line of, within ROW
    of the smaller of their heights and SLOPE of the distance between them (the line through a run's middle at
    the angle of the longer of the two: a photographed page slopes a little otherwise at each side), nearest first,
    else begins a row. Every member must
    agree, so that a row never creeps from one line to the next through a run that stands between them."""
    if not runs:
        return []
    page = angle_of(runs)
    xs = [run.quad.centre[0] for run in runs]
    ys = [run.quad.centre[1] for run in runs]
    long = [run.quad.width >= 3 * run.quad.height for run in runs]

    def off(one: int, other: int) -> float:
        """How far `other`'s middle stands from `one`'s line, less SLOPE of the distance along it."""
        turn = runs[one].quad.angle if long[one] else runs[other].quad.angle if long[other] else page
        dx, dy = xs[other] - xs[one], ys[other] - ys[one]
        along = abs(dx * math.cos(turn) + dy * math.sin(turn))
        return max(0.0, abs(-dx * math.sin(turn) + dy * math.cos(turn)) - SLOPE * along)

    cos, sin = math.cos(page), math.sin(page)
    down = [-x * sin + y * cos for x, y in zip(xs, ys, strict=True)]
    made: list[list[int]] = []
    for at in sorted(range(len(runs)), key=lambda n: down[n]):
        high = runs[at].quad.height
        best: tuple[float, int] | None = None
        for number, members in enumerate(made):
            if down[at] - down[members[-1]] > 2 * high:  # rows long passed: none of them can take it
                continue
            offs = [off(member, at) / min(high, runs[member].quad.height) for member in members]
            if max(offs) <= ROW and (best is None or sum(offs) / len(offs) < best[0]):
                best = (sum(offs) / len(offs), number)
        if best is None:
            made.append([at])
        else:
            made[best[1]].append(at)
    heights = [run.quad.height for run in runs]
    _settle(made, down, heights, lambda one, other: off(one, other) / min(heights[one], heights[other]))
    along = [x * cos + y * sin for x, y in zip(xs, ys, strict=True)]
    made.sort(key=lambda members: statistics.median(down[n] for n in members))
    return [[runs[n] for n in sorted(members, key=lambda n: along[n])] for members in made]


def _settle(made: list[list[int]], down: list[float], high: list[float], apart: Callable[[int, int], float]) -> None:
    """Move each run that joined a row before the row it stands on best was begun (a count between two rows' lines,
    taken by the row read first) to that row, where every member there takes it, and drop the rows left empty.
    `down` is where each run stands down the page, `high` how high it is."""
    for members in made:
        for at in list(members):
            if len(members) < 2:
                break
            here = statistics.mean(apart(other, at) for other in members if other != at)
            better = [
                (statistics.mean(offs), number)
                for number, row in enumerate(made)
                if row is not members and row and abs(down[row[0]] - down[at]) <= 2 * high[at]
                and max(offs := [apart(other, at) for other in row]) <= ROW
            ]  # fmt: skip
            if better and min(better)[0] < here:
                members.remove(at)
                made[min(better)[1]].append(at)
    made[:] = [members for members in made if members]


def column_starts(runs: Sequence[Run], width: float) -> list[tuple[float, tuple[float, ...]]]:
    """Where the page's columns begin, left to right, each with the tops of the runs that begin it: a left edge that
    at least three runs of words begin at (within a fortieth of the page's width), at least a fifth of the page
    right of the column before, and that fewer runs cross than begin there (the gutter of a two-column list, which
    a title or a footer may cross)."""
    near = width / 40
    # A column of counts begins none, nor a table's header (`カード名` stands in the middle of its column).
    runs = [run for run in runs if sum(char.isalpha() for char in run.text) > 1 and not label(run.text)]
    lefts = sorted(run.quad.box[0] for run in runs)
    starts: list[tuple[float, tuple[float, ...]]] = []
    for left in lefts:
        starting = [run for run in runs if abs(run.quad.box[0] - left) <= near]
        crossing = sum(run.quad.box[0] < left - near < left + near < run.quad.box[0] + run.quad.box[2] for run in runs)
        if len(starting) >= 3 and crossing < len(starting) and (not starts or left - starts[-1][0] > width / 5):
            starts.append((left, tuple(float(run.quad.box[1]) for run in starting)))
    return starts


def numbering(rows_: Sequence[Sequence[Run]]) -> set[int]:
    """The runs (by id) of the page's columns of row numbers: numbers down one column, right or left edges in line,
    that go up by one from row to row most of the way and pass 3 (no count does), or that stand under a `No.`
    header."""
    numbers: list[tuple[Run, int]] = []
    headers: list[Run] = []
    for row in rows_:
        for run in row:
            value = count_alone(run.text)
            value = value if value is not None and folded(run.text).isdigit() else list_number(run.text)
            if value is not None:
                numbers.append((run, value))
            elif loose_key(run.text) in _NUMBER_HEADERS:
                headers.append(run)
    found: set[int] = set()
    for column in _columns([run for run, _value in numbers], right=True):
        values = [value for run, value in numbers if id(run) in column]
        under_header = any(_in_line(header, [r for r, _v in numbers if id(r) in column]) for header in headers)
        if under_header or counts_up(values):
            found |= column
    return found


def counts_up(values: Sequence[int]) -> bool:
    """Whether numbers down a page are row numbers: three at least, past 3 (no count is), going up by one from each
    to the next most of the way."""
    steps = list(itertools.pairwise(values))
    counted = sum(after == before + 1 for before, after in steps)
    return len(values) >= 3 and max(values) > 3 and counted >= COUNTED * len(steps)


def typed(rows_: Sequence[Sequence[Run]]) -> set[int]:
    """The runs (by id) of the page's columns of kinds or sections: of the runs of rows that hold more than one
    run of letters, a column most of whose runs name only kinds of card or sections."""
    lettered = [
        run
        for row in rows_
        if sum(any(c.isalpha() for c in run.text) for run in row) > 1
        for run in row
        if any(c.isalpha() for c in run.text)
    ]
    found: set[int] = set()
    for column in _columns(lettered, right=False):
        members = [run for run in lettered if id(run) in column]
        if len(members) >= 2 and sum(names_a_type(run.text) for run in members) >= TYPED * len(members):
            found |= {id(run) for run in members if names_a_type(run.text)}
    return found


def names_a_type(text: str) -> bool:
    """Whether every word of `text` names a kind of card or a section (`効果モンスター`, `Quick-Play Spell`, `EX`)."""
    words = [loose_key(word) for word in _WORD_BREAKS.split(folded(text)) if loose_key(word)]
    return bool(words) and all(word in TYPE_WORDS or _compound(word) for word in words)


def _compound(word: str) -> bool:
    """Whether a word is made of type words run together (`効果モンスター`, `通常魔法`)."""
    if not word:
        return True
    return any(word.startswith(part) and _compound(word[len(part) :]) for part in TYPE_WORDS if part)


def _columns(runs: Sequence[Run], right: bool) -> list[set[int]]:
    """The runs in columns: edges (right or left, along the text) within COLUMN of their heights."""
    if not runs:
        return []
    edges = []
    for run in runs:
        xs = [point[0] for point in run.quad.points]
        edges.append((max(xs) if right else min(xs), run))
    edges.sort(key=lambda edge: edge[0])
    columns: list[list[tuple[float, Run]]] = [[edges[0]]]
    for edge in edges[1:]:
        last = columns[-1][-1]
        if edge[0] - last[0] <= COLUMN * max(edge[1].quad.height, last[1].quad.height):
            columns[-1].append(edge)
        else:
            columns.append([edge])
    return [{id(run) for _edge, run in column} for column in columns if len(column) >= 2]


def _in_line(header: Run, column: Sequence[Run]) -> bool:
    """Whether a header stands over a column: its middle within the column's edges, above its first run."""
    if not column:
        return False
    x, y = header.quad.centre
    lefts = [min(p[0] for p in run.quad.points) for run in column]
    rights = [max(p[0] for p in run.quad.points) for run in column]
    top = min(run.quad.centre[1] for run in column)
    return min(lefts) - header.quad.height <= x <= max(rights) + header.quad.height and y < top
