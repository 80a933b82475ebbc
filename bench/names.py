"""Names as players write them: `python -m bench.names [--json]` reads them and says how well.

Two measures, run by hand (the tests hold them to their targets):
- the corpus of real decks in players' notations, tests/fixtures/names_corpus.tsv: of its card lines, those read as
  the card, count and section they name (a line that must stay unknown, an ambiguous name or a short name, counted
  right when it does), those read as another card, and those read as no card; of the lines read as a card whose name
  differs from the printed one in more than width, case and spacing, those listed in `read_loosely` and those not; of
  the short names and readings (`うらら`, `Ash`, `ブルーアイズ・ホワイト・ドラゴン`), those that put the card they mean
  first among the suggestions, and among the three;
- every card name that holds a dash or ー with each of them written as each of the dashes players type, one at a time
  and all at once: read as its own card, as another, as none, and listed or not.

It reads as the API does (formats.text.parse_text, rules.resolve_entry, the name search's suggestions), so the same
file measures an older checkout: `PYTHONPATH=OLD/service:. python -m bench.names`.

Beside it, the names the mixed load mistypes: real card names with one or two typing slips, and garbage names. The
load benchmark sends bodies holding three of these each; the search benchmark times one suggestion for each. The same
seed gives the same names.
"""

from __future__ import annotations

import argparse
import json
import random
import string
import unicodedata
from collections import Counter
from pathlib import Path
from typing import NamedTuple

from deckcheck import Data, Entry, load_data
from deckcheck.formats.text import parse_text
from deckcheck.model import SECTIONS
from deckcheck.rules import resolve_entry

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "names_corpus.tsv"
# The dashes players type for one another, and the long vowel mark: ー, －, -, ‐, ‑, ‒, –, —, ―, −, ｰ.
DASHES = "\u30fc\uff0d\u002d\u2010\u2011\u2012\u2013\u2014\u2015\u2212\uff70\uff5e\u301c~"
_PRINTED_DASHES = frozenset("ー－-")  # those the card names print
_SLIPS = ("drop", "double", "swap", "replace")


class Want(NamedTuple):
    """What a corpus line must read as: its section and count, and its card (None: no card, as an ambiguous name or
    a short name is), and the card a short name or reading must put first among the suggestions."""

    section: str
    copies: int
    passcode: int | None
    suggested: int | None


def corpus(path: Path = CORPUS) -> list[tuple[str, list[tuple[str, str]]]]:
    """The corpus's lists: each a name and its rows (line, what it must read as)."""
    decks: list[tuple[str, list[tuple[str, str]]]] = []
    for row in path.read_text(encoding="utf-8").splitlines():
        line, tab, expected = row.partition("\t")
        if not tab:
            continue  # the corpus's own comments
        if expected == "deck":
            decks.append((line, []))
        else:
            decks[-1][1].append((line, expected))
    return decks


def want(expected: str) -> Want | None:
    """What a row's expectation asks of a card line (`main 3 14558127`, `main 1 ?`, `main 3 ?14558127`); None for a
    heading or a blank line."""
    section, _, rest = expected.partition(" ")
    if section not in SECTIONS:
        return None
    count, _, passcode = rest.partition(" ")
    known = not passcode.startswith("?")
    card = int(passcode.lstrip("?")) if passcode.lstrip("?") else None
    return Want(section, int(count), card if known else None, None if known else card)


def plain(name: str) -> str:
    """A name but for width, case and spacing: what a name must equal to be its card's name as printed."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def _differs(typed: str, data: Data, passcode: int) -> bool:
    card = data.cards.by_passcode[passcode]
    return plain(typed) not in {plain(name) for name in (card.name_ja, card.name_en) if name}


def read_corpus(data: Data, path: Path = CORPUS) -> Counter[str]:
    """How the corpus's card lines are read (the module's docstring says what each count is)."""
    counts: Counter[str] = Counter()
    for _name, rows in corpus(path):
        deck = parse_text("\n".join(line for line, _expected in rows), data.cards)
        got: dict[int, tuple[str, Entry, int | None, str | None]] = {}
        for section in SECTIONS:
            for entry in deck.section(section):
                card, _reason, read_as = resolve_entry(entry, data.cards)
                for line in entry.lines:
                    got[line] = (section, entry, None if card is None else card.passcode, read_as)
        for number, (_line, expected) in enumerate(rows, start=1):
            wanted = want(expected)
            if wanted is not None:
                counts["lines"] += 1
                _count(counts, data, wanted, got.get(number))
    return counts


def _count(
    counts: Counter[str], data: Data, wanted: Want, got: tuple[str, Entry, int | None, str | None] | None
) -> None:
    """Count one corpus line read as `got` (None: not read as a card line) where `wanted` was written."""
    if got is None:
        counts["unknown"] += 1
        return
    where, entry, passcode, read_as = got
    if passcode is not None and passcode != wanted.passcode:
        counts["another"] += 1
    elif (where, entry.count, passcode) == wanted[:3]:
        counts["right"] += 1
    else:
        counts["unknown" if passcode is None else "miscounted"] += 1
    if passcode is not None and entry.name and _differs(entry.name, data, passcode):
        counts["loose_listed" if read_as is not None else "loose_unlisted"] += 1
    if wanted.suggested is not None and entry.name:
        counts["short"] += 1
        found = [hit.card.passcode for hit in data.cards.search.suggestions(entry.name)]
        counts["short_first"] += found[:1] == [wanted.suggested]
        counts["short_three"] += wanted.suggested in found


def dash_variants(data: Data) -> Counter[str]:
    """How every card name that holds a dash or ー is read with each written as each dash of DASHES, one at a time
    and all at once: as its own card (or the card another printed name names exactly), as another, as none; and of
    those read, listed in `read_loosely` or not when they differ from the printed name."""
    counts: Counter[str] = Counter()
    names = {name for card in data.cards.by_passcode.values() for name in (card.name_ja, card.name_en) if name}
    for name in sorted(name for name in names if _PRINTED_DASHES & set(name)):
        own = data.cards.find_name(name)
        at = [i for i, char in enumerate(name) if char in _PRINTED_DASHES]
        variants = {"".join(dash if i in at else char for i, char in enumerate(name)) for dash in DASHES}
        variants |= {name[:i] + dash + name[i + 1 :] for i in at for dash in DASHES}
        for variant in sorted(variants - {name}):
            counts["tried"] += 1
            read = data.cards.read_name(variant)
            if read is None:
                counts["unknown"] += 1
                continue
            exact = data.cards.find_name(variant)
            counts["right" if read[0] is own or (exact is read[0] and exact is not own) else "another"] += 1
            if _differs(variant, data, read[0].passcode):
                counts["loose_listed" if read[1] is not None else "loose_unlisted"] += 1
    return counts


def _share(part: int, whole: int) -> str:
    return f"{part:,} of {whole:,} ({100 * part / whole:.1f} %)" if whole else "0"


def main() -> None:
    """Read the corpus and the dash variants, and print the figures (or one JSON object with --json)."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", action="store_true", help="print the counts as one JSON object")
    args = parser.parse_args()
    data = load_data()
    lines, variants = read_corpus(data), dash_variants(data)
    if args.json:
        print(json.dumps({"corpus": dict(lines), "dash_variants": dict(variants)}, sort_keys=True))
        return
    loose = lines["loose_listed"] + lines["loose_unlisted"]
    print(f"corpus: {lines['lines']:,} card lines as players write them ({CORPUS.name})")
    print(f"  read right                {_share(lines['right'], lines['lines'])}")
    print(f"  read as another card      {_share(lines['another'], lines['lines'])}")
    print(f"  read as no card           {_share(lines['unknown'], lines['lines'])}")
    print(f"  other count or section    {_share(lines['miscounted'], lines['lines'])}")
    print(f"  loose reads listed        {_share(lines['loose_listed'], loose)}")
    print(f"  short names and readings  {lines['short']:,}: the card meant first among the suggestions ", end="")
    print(f"{_share(lines['short_first'], lines['short'])}, among the three {lines['short_three']:,}")
    listed = variants["loose_listed"] + variants["loose_unlisted"]
    print(f"dash variants of card names: {variants['tried']:,}")
    print(f"  read right                {_share(variants['right'], variants['tried'])}")
    print(f"  read as another card      {_share(variants['another'], variants['tried'])}")
    print(f"  read as no card           {_share(variants['unknown'], variants['tried'])}")
    print(f"  loose reads listed        {_share(variants['loose_listed'], listed)}")


def _slip(name: str, rng: random.Random) -> str:
    """`name` with one typing slip: a letter dropped, doubled, swapped with the next, or replaced."""
    at = rng.randrange(len(name) - 1)
    kind = rng.choice(_SLIPS)
    if kind == "drop":
        return name[:at] + name[at + 1 :]
    if kind == "double":
        return name[: at + 1] + name[at:]
    if kind == "swap":
        return name[:at] + name[at + 1] + name[at] + name[at + 2 :]
    return name[:at] + rng.choice(string.ascii_lowercase) + name[at + 1 :]


def mistyped_names(data: Data, count: int, seed: int = 2008) -> list[str]:
    """`count` names no card has: three in four are English or Japanese card names with one or two slips, one in
    four random letters."""
    rng = random.Random(seed)
    cards = sorted(data.cards.by_passcode.values(), key=lambda c: c.passcode)
    out: list[str] = []
    while len(out) < count:
        if rng.random() < 0.25:
            name = "".join(rng.choice(string.ascii_letters + " ") for _ in range(rng.randint(6, 30))).strip()
        else:
            card = rng.choice(cards)
            name = card.name_ja if card.name_ja and rng.random() < 0.3 else card.name_en
            if name is None or len(name) < 4:
                continue
            for _ in range(rng.randint(1, 2)):
                name = _slip(name, rng)
        if name and data.cards.find_name(name) is None:
            out.append(name)
    return out


if __name__ == "__main__":
    main()
