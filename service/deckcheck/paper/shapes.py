"""The shapes rows take that are no card's line of their own, as screens, apps and forms set them: a card's name an
app wraps onto a second line (`Original Sinful Spoils -` over `Snake-Eye`), the small line an app prints under a
name (`効果モンスター`, `罠カード`, `Normal Spell`), a bar of words (an app's navigation, a site's menu:
`ホーム デッキ 検索 設定`), and a table's header row (`Qty | Card Name`, `No. | カード名 | 枚数 | 種類`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from deckcheck.data.names import loose_key
from deckcheck.paper import parse
from deckcheck.paper.detect import upright
from deckcheck.paper.recognise import Read
from deckcheck.paper.rows import Run

MENU_GAP = 4.0  # heights of a line between the items of a bar of words, at most
MENU, MENU_WORD = 3, 12  # runs of at most so many characters in a bar of words, at least
UNDER = 1.3  # heights of a name within which the line an app prints under it stands
HEADER_WORDS = frozenset(
    loose_key(word)
    for word in ("Qty", "Quantity", "Card Name", "Card", "Name", "カード名", "枚数", "数", "No.", "#", "種類", "Type",
                 "Deck", "区分", "デッキ", "Count", "Cards", "カード", "名前")
)  # fmt: skip


def unwrapped(rows: Sequence[Sequence[Run]], names: Callable[[str], bool]) -> list[list[Run]]:
    """The rows with a card's name that an app wraps onto a second line joined again: a run, and the run that
    begins the row under it (or the one after, where a count centred on both lines stands between them), as high
    and its left edge in line, that name no card apart and together `names` one. The first may name a card of its
    own (`Hot Red Dragon Archfiend` over `King Calamity`); the second may not (two cards' lines)."""
    out = [list(row) for row in rows]
    for number in range(len(out) - 1):
        for at, run in enumerate(out[number]):
            nexts = [n for n in (number + 1, number + 2) if n < len(out) and out[n] and _wraps(run, out[n][0])]
            if not nexts or names(out[nexts[0]][0].text):
                continue
            joined = _join(run, out[nexts[0]][0])
            if names(joined.text):
                out[number][at] = joined
                del out[nexts[0]][0]
                break
    return [row for row in out if row]


def _wraps(run: Run, below: Run) -> bool:
    """Whether `below` stands where a line wrapped from `run` goes on: under it, about as high, left edges in line."""
    high = run.quad.height
    under = 0.6 * high < below.quad.centre[1] - run.quad.centre[1] <= 1.6 * high
    return under and abs(below.quad.box[0] - run.quad.box[0]) <= 0.5 * high and 0.7 <= below.quad.height / high <= 1.5


def _join(run: Run, below: Run) -> Run:
    """Two runs as one: their texts a space apart (none between two Japanese letters), the quad holding both."""
    space = "" if run.text[-1:] > "\u3000" and below.text[:1] > "\u3000" else " "
    left, top, width, _high = run.quad.box
    b_left, b_top, b_width, b_high = below.quad.box
    quad = upright(min(left, b_left), top, max(left + width, b_left + b_width), b_top + b_high)
    others = (*run.read.others, *(("",) * len(space)), *below.read.others)
    read = Read(
        run.text + space + below.text,
        (*run.read.sureness, *((100.0,) * len(space)), *below.read.sureness),
        run.read.engine,
        others if run.read.others and below.read.others else (),
    )
    return Run(run.page, quad, read)


def under_a_name(run: Run, names: Sequence[Run]) -> bool:
    """Whether a run is the line an app prints under a card's name: close under a name, their left edges in line,
    with no digit and no section's heading in it (a heading of a section right under a card opens that section)."""
    heading = parse.heading(run.text)
    if any(char.isdigit() for char in run.text) or (heading is not None and not heading.of_kind):
        return False
    left = run.quad.box[0]
    for name in names:
        below = 0 < run.quad.centre[1] - name.quad.centre[1] <= UNDER * name.quad.height
        if below and abs(left - name.quad.box[0]) <= 0.5 * name.quad.height:
            return True
    return False


def header_row(row: Sequence[Run]) -> bool:
    """Whether a row is a table's header: every run one of a table's column labels (`Qty | Card Name`)."""
    keys = [loose_key(run.text) for run in row]
    return bool(keys) and all(key in HEADER_WORDS for key in keys) and any(len(key) > 1 for key in keys)


def menu(row: Sequence[Run], named: set[int]) -> bool:
    """Whether a row is a bar of words: at least MENU short runs of words, none a card's name (by id in `named`), no
    digit in any, and at most one a heading (a form's headings of three tables side by side are none)."""
    short = all(len(run.text) <= MENU_WORD and not any(c.isdigit() for c in run.text) for run in row)
    headings = sum(parse.heading(run.text) is not None for run in row)
    return len(row) >= MENU and short and headings <= 1 and not any(id(run) in named for run in row)


def among_words(row: Sequence[Run], headings: Sequence[int], words: Sequence[int]) -> bool:
    """Whether a row's heading words (the runs at `headings`) stand among other words (at `words`) close beside them,
    as a bar of words sets its items: more runs of words within MENU_GAP of a line's height of one than headings."""
    near = 0
    for at in words:
        run = row[at]
        if sum(char.isalpha() for char in run.text) < 2:
            continue
        near += min(_gap(run, row[h]) for h in headings) <= MENU_GAP * run.quad.height
    return near >= 2 and near > len(headings)


def _gap(one: Run, other: Run) -> float:
    """How far apart two runs of a row stand, along it."""
    a, b = one.quad.box, other.quad.box
    return max(0, max(a[0], b[0]) - min(a[0] + a[2], b[0] + b[2]))
