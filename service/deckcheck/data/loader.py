"""Everything the rules read, loaded once at start-up and never changed afterwards."""

from __future__ import annotations

import gc
from dataclasses import dataclass
from pathlib import Path

from deckcheck.data.banlists import Banlists, load_banlists
from deckcheck.data.cards import CardIndex, load_cards

# The repository root: cards/ and banlists/ live beside service/, the folder that holds the package.
DEFAULT_DATA_DIR = Path(__file__).resolve().parents[3]


@dataclass(frozen=True, slots=True)
class Data:
    """The card catalogue and the Forbidden/Limited lists."""

    cards: CardIndex
    banlists: Banlists


def load_data(root: Path = DEFAULT_DATA_DIR) -> Data:
    """Load cards/cards.csv and banlists/*/*.json under `root`; raise DataError on any broken entry.

    The data never change and never form cycles worth collecting, so they are moved out of the garbage
    collector's sight (gc.freeze): otherwise every full collection walks a quarter of a million objects.
    """
    cards = load_cards(root / "cards" / "cards.csv")
    data = Data(cards=cards, banlists=load_banlists(root / "banlists", cards))
    gc.collect()
    gc.freeze()
    return data
