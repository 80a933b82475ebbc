"""Regenerate the project's card and banlist copies from the source data kept in the repository.

Usage: python -m scripts.build_data [SOURCE_DIR]   (default: sources/, whose README.md says where each file comes from)

Writes cards/cards.csv (only the columns the rules need) and banlists/<format>/<effective_from>.json for the OCG
and TCG lists (the fields docs/operators/data.md describes). Card data are facts: names, kinds and printing dates
only, never effect text. Then the imports recorded in imports.ndjson (`deckcheck data add-list` into the bundle)
are carried out again from the files in SOURCE_DIR/incoming, so the bundle's own update path is the one operators
use.
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

from deckcheck.cli.data import replay
from deckcheck.data import CARD_COLUMNS
from deckcheck.data.loader import IMPORTS
from deckcheck.data.updates import sha256

ROOT = Path(__file__).resolve().parent.parent

# Printing dates upstream are complete only up to the day the printing data were read (data README,
# "Known gaps"). An OCG (TCG) card with no known first Japanese (TCG) printing is assumed to be newer than that
# day, so that an older event never takes it for a card that already existed.
PRINTINGS_COMPLETE_UNTIL = "2025-11-15"

BANLIST_FIELDS = ("name", "format", "effective_from", "effective_until", "forbidden", "limited", "semi_limited")


# The source data the copies are built from: kept in the repository, so a clone rebuilds them alone.
SOURCES = ROOT / "sources"


def card_row(src: dict[str, str]) -> dict[str, str]:
    """Map one row of the shared cards.csv to the project's compact row."""
    ja_date, ja_exact = _first_print(src["ocg"], src["ocg_release_date"])
    tcg_date, tcg_exact = _first_print(src["tcg"], src["tcg_release_date"])
    return {
        "passcode": src["passcode"],
        "alias": src["alias"],
        "official": src["passcode_official"],
        "name_ja": src["name_ja"],
        "name_en": src["name_en"],
        "kind": src["kind"],
        "extra_deck_type": src["extra_deck_type"],
        "pendulum": src["is_pendulum"],
        "ocg": src["ocg"],
        "tcg": src["tcg"],
        "ja_first_print": ja_date,
        "ja_first_print_exact": ja_exact,
        "tcg_first_print": tcg_date,
        "tcg_first_print_exact": tcg_exact,
    }


def _first_print(released: str, date: str) -> tuple[str, str]:
    """The first printing date to keep, and "1" if it is known or "0" if it is assumed."""
    if released == "1" and not date:
        return PRINTINGS_COMPLETE_UNTIL, "0"
    return date, "1"


def build_cards(source: Path, root: Path = ROOT) -> int:
    """Write cards/cards.csv under `root`, and cards/printings.json, the day the printings are complete until;
    return the number of rows."""
    with (source / "cards.csv").open(encoding="utf-8", newline="") as f:
        rows = [card_row(r) for r in csv.DictReader(f)]
    out = root / "cards" / "cards.csv"
    out.parent.mkdir(exist_ok=True)
    with out.open("w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=CARD_COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    printings = json.dumps({"complete_until": PRINTINGS_COMPLETE_UNTIL}) + "\n"
    (out.parent / "printings.json").write_text(printings, encoding="utf-8")
    return len(rows)


def build_banlists(source: Path, fmt: str, root: Path = ROOT) -> int:
    """Write banlists/<fmt>/*.json under `root`; return the number of lists."""
    out_dir = root / "banlists" / fmt
    out_dir.mkdir(parents=True, exist_ok=True)
    for old in out_dir.glob("*.json"):
        old.unlink()
    files = sorted((source / "banlists" / fmt).glob("*.json"))
    for path in files:
        data = json.loads(path.read_text(encoding="utf-8"))
        slim = {key: data[key] for key in BANLIST_FIELDS}
        for key in ("forbidden", "limited", "semi_limited"):
            slim[key] = sorted(slim[key])
        (out_dir / path.name).write_text(json.dumps(slim, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return len(files)


def replay_imports(source: Path, root: Path = ROOT, record: Path = ROOT / IMPORTS) -> int:
    """Carry out again, into `root`, every import `record` (the bundle's imports.ndjson) holds, each from its source
    file in `source`/incoming, which must have the SHA-256 recorded; return how many."""
    if not record.is_file():
        return 0
    done = 0
    for line in record.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        path = source / "incoming" / entry["source"]
        if sha256(path.read_bytes()) != entry["sha256"]:
            raise SystemExit(f"{path}: not the file imported ({entry['sha256']})")
        replay(entry["command"][2:], path, root)
        done += 1
    return done


def main(argv: list[str]) -> int:
    """Rebuild both copies, then the imports the bundle records, and say how many entries were written."""
    source = Path(argv[1]) if len(argv) > 1 else SOURCES
    cards = build_cards(source)
    lists = {fmt: build_banlists(source, fmt) for fmt in ("ocg", "tcg")}
    imports = replay_imports(source)
    print(
        f"cards/cards.csv: {cards} rows; banlists/ocg: {lists['ocg']} lists; banlists/tcg: {lists['tcg']} lists; "
        f"{imports} imports replayed"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
