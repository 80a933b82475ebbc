"""Everything the rules read, loaded once at start-up and never changed afterwards."""

from __future__ import annotations

import gc
import hashlib
from dataclasses import dataclass
from pathlib import Path

from deckcheck.data.banlists import Banlists, banlist_paths, load_banlists
from deckcheck.data.cards import CardIndex, load_cards

_PACKAGE = Path(__file__).resolve().parents[1]
# An installed wheel carries cards/ and banlists/ inside the package, in bundled/ (pyproject.toml maps them there);
# a checkout, installed editable or not at all, has them at the repository root, beside service/.
_IN_WHEEL = _PACKAGE / "bundled"
_IN_CHECKOUT = _PACKAGE.parents[1]
# A wheel without its data is named as such, not as a folder of site-packages that lacks cards/.
DEFAULT_DATA_DIR = _IN_CHECKOUT if not _IN_WHEEL.is_dir() and (_IN_CHECKOUT / "cards").is_dir() else _IN_WHEEL


@dataclass(frozen=True, slots=True)
class Data:
    """The card catalogue and the Forbidden/Limited lists."""

    cards: CardIndex
    banlists: Banlists
    digest: str  # SHA-256 of the files the data were read from, to tell one data release from another


def load_data(root: Path = DEFAULT_DATA_DIR) -> Data:
    """Load cards/cards.csv and banlists/*/*.json under `root`; raise DataError on any broken entry.

    The data never change and never form cycles worth collecting, so they are moved out of the garbage
    collector's sight (gc.freeze): otherwise every full collection walks a quarter of a million objects.
    """
    cards = load_cards(root / "cards" / "cards.csv")
    data = Data(cards=cards, banlists=load_banlists(root / "banlists", cards), digest=_digest(root))
    gc.collect()
    gc.freeze()
    return data


def _digest(root: Path) -> str:
    """SHA-256 over the name and bytes of every file the data are read from."""
    digest = hashlib.sha256()
    for path in [root / "cards" / "cards.csv", *banlist_paths(root / "banlists")]:
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()
