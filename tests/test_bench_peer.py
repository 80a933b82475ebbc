"""The peer benchmark's list conversion for ydeck and its agreement logic, on a handful of decks (no timings)."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from bench.corpus import Corpus, CorpusDeck
from bench.peer import DAY, agreement, deckcheck_findings, install, run_ydeck, ydeck_cards, ydeck_findings
from deckcheck import Context, Data, validate
from deckcheck.data import Banlist
from deckcheck.formats import parse_ydke

CYBER_DRAGON, CYBER_DRAGON_ALT = 70095154, 70095155  # Limited on OCG 2008.09; the second passcode an alternate art
DUSTER_ALT = 18144507  # an alternate art of Harpie's Feather Duster, Forbidden
NAMESAKES = (5405694, 10000100)  # two cards of one name (同名カード): copies count together
UTOPIA = 84013237  # an Xyz Monster: a rule ydeck does not check


@pytest.fixture(scope="module")
def banlist(data: Data) -> Banlist:
    """The list the benchmark judges by."""
    found = data.banlists.in_force(DAY)
    assert found is not None
    return found


def test_list_conversion(data: Data, banlist: Banlist) -> None:
    rows = {row[0]: row for row in ydeck_cards(data.cards, banlist)}
    assert len(rows) == len(data.cards.by_passcode)
    assert rows[CYBER_DRAGON][2:] == (0, 1)
    assert rows[CYBER_DRAGON_ALT][2:] == (CYBER_DRAGON, 1)  # ydeck counts it under the card it names
    assert rows[DUSTER_ALT][2:] == (18144506, 0)
    assert rows[NAMESAKES[1]][2:] == (NAMESAKES[0], 3)


def _decks(data: Data) -> list[CorpusDeck]:
    """A legal deck and one broken copy of it per shared rule, and one broken by a rule only deckcheck checks."""
    context = Context(DAY, data.banlists.in_force(DAY), data.cards)
    base = next(
        d
        for d in Corpus(data, seed=12).decks(200)
        if len(d.main) <= 50 and len(d.side) <= 10 and validate(parse_ydke(d.ydke()), context).legal
    )

    def broken(number: int, main: tuple[int, ...] = base.main, side: tuple[int, ...] = ()) -> CorpusDeck:
        return CorpusDeck(f"deck-{number}", main, base.extra, base.side + side, False)

    return [
        base,
        broken(1, side=(CYBER_DRAGON, CYBER_DRAGON_ALT)),
        broken(2, side=(DUSTER_ALT,)),
        broken(3, side=(12345678,)),
        broken(4, main=base.main[:30]),
        broken(5, side=NAMESAKES * 2),
        broken(6, side=(UTOPIA,)),
    ]


def test_agreement(data: Data, banlist: Banlist, tmp_path: Path) -> None:
    if (problem := install()) is not None:
        pytest.skip(problem)
    decks = _decks(data)
    (tmp_path / "links.txt").write_text("".join(deck.ydke() + "\n" for deck in decks))
    (tmp_path / "cards.json").write_bytes(orjson.dumps(ydeck_cards(data.cards, banlist)))
    errors = dict(run_ydeck(tmp_path, "1", "--errors"))
    context = Context(DAY, banlist, data.cards)
    theirs = [ydeck_findings(errors.get(n, ()), data.cards) for n in range(len(decks))]
    ours = [deckcheck_findings(validate(parse_ydke(deck.ydke()), context), data.cards) for deck in decks]
    assert theirs == ours
    assert theirs[1:6] == [
        {("limited_card_exceeded", CYBER_DRAGON)},
        {("forbidden_card", 18144506)},
        {("unknown_card", 12345678)},
        {("main_deck_too_small", None)},
        {("too_many_copies", NAMESAKES[0])},
    ]
    assert not validate(parse_ydke(decks[6].ydke()), context).legal  # the Xyz Monster: a rule of deckcheck's alone
    assert agreement(theirs, ours) == {"both valid": 2, "both invalid, same findings": 5}
    assert agreement([set(), theirs[1]], [theirs[2], theirs[1] | theirs[2]]) == {
        "deckcheck invalid, ydeck valid": 1,
        "deckcheck finds more": 1,
    }
    assert agreement([theirs[1]], [set()]) == {"ydeck finds what deckcheck does not": 1}
