"""Deck lists on paper as players hand them in, read by the service's reader: `python -m bench.paper_forms [--decks N]
[--layouts ocg,tcg,site,blog] [--degradations 300dpi,150dpi,photo,fax,image-pdf,text-pdf] [--json FILE]
[--failures N] [--save DIR] [--no-read]`.

The corpus (issue 34, item 6). Its decks are real: eight tournament decks of 2019–2025 written out below by name
(Snake-Eye Fire King, Tenpai Dragon, Yubel, Labrynth, Ryzeal, Maliss, Kashtira, Sky Striker: 40–43 main, 14–15
extra, 0–15 side), turn about with decks of 2008 drawn by bench/corpus.py (40–60 main, 0–15 extra, 0–15 side; only those
made legal whose every card has a Japanese and an English name and which fit every layout's tables). Each deck is
drawn in four layouts (bench/paper_forms_draw.py): Konami's OCG デッキレシピ (Japanese names, the count in its own
column right of the name), the TCG Deck Registration Sheet (English names, the count in its own column left of
it), a deck-builder site's page as a browser prints it (English names, Japanese on every third deck) and a Japanese
blog post with a sidebar. The fonts turn over the decks so that every layout is set in every face of its language
(the first 4 decks show a Mincho or serif in each layout, the first 12 every face in each): IPAexGothic,
IPAMincho, IPAGothic and IPAexMincho for Japanese; Liberation Sans, Liberation Serif and DejaVu Serif for English.
What the player typed is set in that face, a form's own words in the form's.

Each drawing is a vector PDF from fpdf2 (the `text-pdf` degradation, with its text layer), and from it, by
poppler's pdftoppm: a 300 dpi and a 150 dpi grey PNG scan; a phone photo (the 300 dpi page on a desk, turned
uniformly within ±6°, seen a little off square, lit unevenly, a soft shadow across part of it, blurred and grainy,
a colour JPEG of quality 50–70); a 200 dpi 1-bit fax (turned up to 1°, blurred a little, grainy, thresholded, with
specks, now and then a streak, and the sender's header line at the top); and an image PDF (the 300 dpi scan in a
PDF with no text layer). The same deck number gives the same pages.

Every page is read in this one process on one core (Tesseract held to one thread by OMP_THREAD_LIMIT=1), every
line scored against the truth, section included, as bench/paper.py scores: a line is right when its card, count
and section are; right and in the deck when it also needs no review; wrong and not flagged when it is in the deck
but no true line. A failed read (PaperError or any other exception) counts every line missed.
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
import math
import os
import random
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import count as numbers
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
import orjson
from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont

from bench.corpus import Corpus
from bench.paper import Failure, Page, Tally, pair, read, score, warm_up
from bench.paper_corpus import png
from bench.paper_forms_draw import (
    EN_FONTS,
    JA_FONTS,
    DoesNotFit,
    Drawn,
    Entries,
    Font,
    FormDeck,
    Player,
    blog_page,
    ocg_form,
    site_print,
    tcg_form,
)
from deckcheck import Data, load_data
from deckcheck.data import Card, CardIndex
from deckcheck.paper.read import Reading
from deckcheck.versions import data_version

SEED = 2024
LAYOUTS = ("ocg", "tcg", "site", "blog")
DEGRADATIONS = ("300dpi", "150dpi", "photo", "fax", "image-pdf", "text-pdf")
FAX_FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf")
DESK = 100  # the grey of the desk a page is photographed on, under the light's warm tint
WARM = (1.0, 0.95, 0.86)  # the light's colour: red, green and blue as parts of the grey

# Tournament decks of 2019–2025 as their players listed them: copies and English name, a line each.
MODERN = (
    (
        "スネークアイ炎王",
        "Snake-Eye Fire King",
        "2024-05-12",
        """3 Snake-Eye Ash; 1 Snake-Eye Oak; 1 Snake-Eyes Poplar; 1 Snake-Eye Birch; 3 Diabellstar the Black Witch;
        1 Snake-Eyes Diabellstar; 1 Fire King Avatar Arvata; 1 Fire King High Avatar Garunix; 1 Fire King Avatar Kirin;
        3 Ash Blossom & Joyous Spring; 1 Maxx "C"; 3 Original Sinful Spoils - Snake-Eye;
        1 WANTED: Seeker of Sinful Spoils; 1 Sinful Spoils of Subversion - Snake-Eye; 1 Fire King Sanctuary;
        1 Called by the Grave; 1 Crossout Designator; 2 Triple Tactics Talent; 1 Foolish Burial;
        1 Sinful Spoils Struggle; 3 Forbidden Droplet; 3 Infinite Impermanence; 1 Sinful Spoils of Slumber - Morrian;
        1 Sinful Spoils Subdual; 2 Evenly Matched; 1 Solemn Judgment""",
        """1 Snake-Eyes Doomed Dragon; 1 Promethean Princess, Bestower of Flames; 1 S:P Little Knight;
        1 I:P Masquerena; 1 Salamangreat Almiraj; 1 Knightmare Unicorn; 1 Knightmare Phoenix; 1 Accesscode Talker;
        1 Moon of the Closed Heaven; 1 Relinquished Anima; 1 Garura, Wings of Resonant Life;
        1 Underworld Goddess of the Closed World; 1 Apollousa, Bow of the Goddess; 1 Muckraker From the Underworld;
        1 Sprind the Irondash Dragon""",
        """3 Ghost Belle & Haunted Mansion; 2 Nibiru, the Primal Being; 1 Dark Ruler No More; 2 Cosmic Cyclone;
        1 Lightning Storm; 2 Droll & Lock Bird; 1 Harpie's Feather Duster; 2 Dimension Shifter;
        1 Anti-Spell Fragrance""",
    ),
    (
        "天盃龍",
        "Tenpai Dragon",
        "2024-03-03",
        """3 Tenpai Dragon Chundra; 3 Tenpai Dragon Paidra; 2 Tenpai Dragon Fadra; 1 Tenpai Dragon Genroku;
        3 Ash Blossom & Joyous Spring; 3 Maxx "C"; 3 Sangen Summoning; 2 Sangen Kaimen; 2 Pot of Extravagance;
        3 Triple Tactics Talent; 1 Called by the Grave; 1 Crossout Designator; 3 Forbidden Droplet;
        1 Dark Ruler No More; 1 Harpie's Feather Duster; 2 Lightning Storm; 3 Infinite Impermanence; 1 Sangen Kaiho;
        2 Dominus Impulse""",
        """1 Sangenpai Bident Dragion; 2 Sangenpai Transcendent Dragion; 1 Hot Red Dragon Archfiend King Calamity;
        1 Chaos Angel; 1 Geomathmech Final Sigma; 1 Visas Amritara; 1 Baronne de Fleur; 1 Borreload Savage Dragon;
        1 Crystal Wing Synchro Dragon; 1 Underworld Goddess of the Closed World; 1 S:P Little Knight;
        1 Accesscode Talker; 1 Ancient Fairy Dragon; 1 Black Rose Dragon""",
        """3 Ghost Ogre & Snow Rabbit; 2 Droll & Lock Bird; 2 Cosmic Cyclone; 2 Dimensional Barrier;
        1 Retaliating "C\"""",
    ),
    (
        "ユベル",
        "Yubel",
        "2024-06-23",
        """1 Yubel; 1 Yubel - Terror Incarnate; 1 Yubel - The Ultimate Nightmare; 3 Spirit of Yubel;
        3 Samsara D Lotus; 3 Nightmare Apprentice; 1 Nightmare Magician; 3 Ash Blossom & Joyous Spring;
        3 Maxx "C"; 2 Ghost Belle & Haunted Mansion; 1 Fallen of Albaz; 1 Aluber the Jester of Despia;
        3 Opening of the Spirit Gates; 2 Nightmare Pain; 1 Nightmare Throne; 1 Called by the Grave; 1 Branded Fusion;
        3 Triple Tactics Talent; 1 Super Polymerization; 1 Dark Ruler No More; 2 Forbidden Droplet;
        3 Infinite Impermanence; 1 Evenly Matched; 1 Solemn Judgment""",
        """2 Phantom of Yubel; 1 Yubel - The Loving Defender Forever; 1 Mirrorjade the Iceblade Dragon;
        1 Albion the Branded Dragon; 1 Titaniklad the Ash Dragon; 1 Sprind the Irondash Dragon;
        1 Garura, Wings of Resonant Life; 1 Lubellion the Searing Dragon; 1 Guardian Chimera;
        1 Predaplant Dragostapelia; 1 Relinquished Anima; 1 S:P Little Knight;
        1 Underworld Goddess of the Closed World""",
        """2 Nibiru, the Primal Being; 3 Ghost Ogre & Snow Rabbit; 2 Cosmic Cyclone; 2 Lightning Storm;
        1 Harpie's Feather Duster; 2 Gameciel, the Sea Turtle Kaiju""",
    ),
    (
        "ラビュリンス",
        "Labrynth",
        "2023-08-20",
        """3 Arianna the Labrynth Servant; 2 Ariane the Labrynth Servant; 2 Lady Labrynth of the Silver Castle;
        1 Lovely Labrynth of the Silver Castle; 1 Labrynth Chandraglier; 1 Labrynth Stovie Torbie;
        1 Labrynth Cooclock; 3 Ash Blossom & Joyous Spring; 2 Labrynth Labyrinth; 2 Triple Tactics Talent;
        1 Called by the Grave; 1 Dark Ruler No More; 3 Welcome Labrynth; 2 Big Welcome Labrynth;
        2 Transaction Rollback; 3 Infinite Impermanence; 1 Dogmatika Punishment; 1 Solemn Judgment;
        2 Dimensional Barrier; 1 Solemn Strike; 2 Trap Trick; 1 Compulsory Evacuation Device; 2 Torrential Tribute""",
        """1 Muckraker From the Underworld; 1 Sprind the Irondash Dragon; 1 Titaniklad the Ash Dragon;
        1 Mirrorjade the Iceblade Dragon; 1 Knightmare Phoenix; 1 Knightmare Unicorn; 1 I:P Masquerena;
        1 Accesscode Talker; 1 Relinquished Anima; 1 Underworld Goddess of the Closed World; 1 Salamangreat Almiraj;
        1 Apollousa, Bow of the Goddess; 1 S:P Little Knight; 1 Moon of the Closed Heaven;
        1 Garura, Wings of Resonant Life""",
        """3 Droll & Lock Bird; 2 Dimension Shifter; 3 Ghost Belle & Haunted Mansion; 2 Nibiru, the Primal Being;
        2 Anti-Spell Fragrance; 2 Cosmic Cyclone; 1 Harpie's Feather Duster""",
    ),
    (
        "ライゼオル",
        "Ryzeal",
        "2025-02-16",
        """3 Ice Ryzeal; 3 Sword Ryzeal; 2 Node Ryzeal; 1 Star Ryzeal; 1 Ext Ryzeal; 1 Palm Ryzeal;
        3 Ash Blossom & Joyous Spring; 3 Maxx "C"; 2 Mulcharmy Fuwalos; 3 Ryzeal Cross; 2 Ryzeal Plugin;
        3 Triple Tactics Talent; 1 Called by the Grave; 3 Forbidden Droplet; 1 Dark Ruler No More;
        1 Harpie's Feather Duster; 3 Infinite Impermanence; 1 Ryzeal Mass Driver; 1 Ryzeal Plasma Hole;
        2 Dominus Impulse""",
        """2 Ryzeal Duo Drive; 2 Ryzeal Detonator; 1 Number 41: Bagooska the Terribly Tired Tapir;
        1 Gigantic "Champion" Sargas; 1 Dingirsu, the Orcust of the Evening Star;
        1 Number 89: Diablosis the Mind Hacker;
        1 Tornado Dragon; 1 Number 90: Galaxy-Eyes Photon Lord; 1 Evilswarm Exciton Knight; 1 Abyss Dweller;
        1 Underworld Goddess of the Closed World; 1 S:P Little Knight; 1 Knightmare Unicorn""",
        """3 Ghost Ogre & Snow Rabbit; 2 Droll & Lock Bird; 3 Cosmic Cyclone""",
    ),
    (
        "M∀LICE",
        "Maliss",
        "2025-06-08",
        """3 Maliss <P> Dormouse; 3 Maliss <P> White Rabbit; 2 Maliss <P> Chessy Cat; 1 Maliss <P> March Hare;
        1 Backup Secretary; 1 Wizard @Ignister; 3 Ash Blossom & Joyous Spring; 3 Maxx "C"; 3 Maliss in Underground;
        1 Maliss in the Mirror; 1 Called by the Grave; 2 Triple Tactics Talent; 1 Terraforming; 3 Forbidden Droplet;
        1 Harpie's Feather Duster; 3 Maliss <C> GWC-06; 2 Maliss <C> TB-11; 1 Maliss <C> MTP-07;
        3 Infinite Impermanence; 2 Dominus Impulse""",
        """1 Maliss <Q> Red Ransom; 1 Maliss <Q> White Binder; 1 Maliss <Q> Hearts Crypter; 1 Splash Mage;
        1 Transcode Talker; 1 Accesscode Talker; 1 Firewall Dragon; 1 Link Spider; 1 Allied Code Talker @Ignister;
        1 I:P Masquerena; 1 S:P Little Knight; 1 Salamangreat Almiraj; 1 Knightmare Unicorn;
        1 Apollousa, Bow of the Goddess; 1 Underworld Goddess of the Closed World""",
        """3 Droll & Lock Bird; 3 Ghost Belle & Haunted Mansion; 2 Nibiru, the Primal Being; 2 Cosmic Cyclone;
        2 Dimensional Barrier; 2 Lightning Storm; 1 Dark Ruler No More""",
    ),
    (
        "クシャトリラ",
        "Kashtira",
        "2022-11-06",
        """3 Kashtira Fenrir; 3 Kashtira Unicorn; 3 Kashtira Riseheart; 1 Kashtira Ogre; 1 Scareclaw Kashtira;
        1 Planet Pathfinder; 3 Ash Blossom & Joyous Spring; 3 Maxx "C"; 2 Ghost Belle & Haunted Mansion;
        3 Kashtira Birth; 1 Pressured Planet Wraitsoth; 1 Terraforming; 1 Called by the Grave; 1 Crossout Designator;
        2 Triple Tactics Talent; 1 Pot of Prosperity; 1 Kashtiratheosis; 3 Infinite Impermanence; 2 Evenly Matched;
        1 Solemn Judgment; 3 Dimensional Barrier""",
        """2 Kashtira Shangri-Ira; 2 Kashtira Arise-Heart; 1 Number 89: Diablosis the Mind Hacker;
        1 Dingirsu, the Orcust of the Evening Star; 1 Gigantic "Champion" Sargas; 1 Number 90: Galaxy-Eyes Photon Lord;
        1 Abyss Dweller; 1 Tornado Dragon; 1 Evilswarm Exciton Knight; 1 Borrelsword Dragon;
        1 Underworld Goddess of the Closed World; 1 I:P Masquerena; 1 Knightmare Unicorn""",
        "",
    ),
    (
        "閃刀姫",
        "Sky Striker",
        "2019-09-15",
        """3 Sky Striker Ace - Raye; 1 Sky Striker Ace - Roze; 3 Ash Blossom & Joyous Spring;
        2 Ghost Ogre & Snow Rabbit;
        2 Maxx "C"; 3 Sky Striker Mobilize - Engage!; 3 Sky Striker Mecha - Hornet Drones;
        3 Sky Striker Mecha - Widow Anchor; 2 Sky Striker Maneuver - Afterburners!;
        1 Sky Striker Maneuver - Jamming Waves!; 3 Sky Striker Mecha Modules - Multirole;
        1 Sky Striker Airspace - Area Zero; 1 Sky Striker Mecha - Eagle Booster; 2 Sky Striker Mecha - Shark Cannon;
        3 Pot of Desires; 1 Called by the Grave; 1 Terraforming; 1 Lightning Storm; 1 Twin Twisters;
        3 Infinite Impermanence""",
        """2 Sky Striker Ace - Kagari; 2 Sky Striker Ace - Shizuku; 1 Sky Striker Ace - Hayate;
        1 Sky Striker Ace - Kaina;
        1 Sky Striker Ace - Zeke; 1 Crystron Halqifibrax; 1 Knightmare Phoenix; 1 Knightmare Unicorn;
        1 Apollousa, Bow of the Goddess; 1 Accesscode Talker; 1 Salamangreat Almiraj; 1 I:P Masquerena""",
        """3 Droll & Lock Bird; 2 Nibiru, the Primal Being; 2 Cosmic Cyclone; 3 Dimensional Barrier;
        2 Harpie's Feather Duster; 2 Anti-Spell Fragrance; 1 Dark Ruler No More""",
    ),
)
JA_PLAYERS = (
    ("山田 太郎", "ヤマダ タロウ"),
    ("佐藤 花子", "サトウ ハナコ"),
    ("鈴木 一郎", "スズキ イチロウ"),
    ("高橋 美咲", "タカハシ ミサキ"),
)
EN_PLAYERS = (("John", "Smith"), ("Maria", "Garcia"), ("Kevin", "Nguyen"), ("Emily", "Johnson"), ("Lucas", "Martin"))
COUNTRIES = ("United States", "Canada", "United Kingdom", "Australia", "Germany")
EVENTS = (
    ("地区予選 東京会場", "Regional Qualifier - Dallas, TX"),
    ("第12回 ショップ大会", "Store Championship"),
    ("公認大会 秋葉原店", "OTS Championship"),
    ("アジア選手権 予選", "Yu-Gi-Oh! Championship Series"),
    ("第3回 地区予選", "National Qualifier"),
)


def _entries(text: str, cards: CardIndex) -> Entries:
    """`3 Name; 1 Name` as (card, copies); KeyError naming a name no card has, or whose card lacks a Japanese or
    an English name."""
    entries = []
    for line in text.split(";"):
        if not line.strip():
            continue
        count, name = line.strip().split(" ", 1)
        card = cards.find_name(name)
        if card is None or not (card.name_ja and card.name_en):
            raise KeyError(f"no card of both names is named {name!r}")
        entries.append((card, int(count)))
    return tuple(entries)


def _merged(passcodes: Sequence[int], cards: CardIndex) -> Entries:
    """One copy a passcode as (card, copies) in the order first met, alternate artworks one card."""
    held: Counter[Card] = Counter(cards.by_passcode[p] for p in passcodes)
    return tuple(held.items())


def _player(number: int, date: str | None) -> Player:
    """The `number`th deck's player (from 0), the event and its date (one in the spring or summer of 2008 where
    `date` is None)."""
    name_ja, furigana = JA_PLAYERS[number % len(JA_PLAYERS)]
    first, last = EN_PLAYERS[number % len(EN_PLAYERS)]
    event_ja, event_en = EVENTS[number % len(EVENTS)]
    day = dt.date.fromisoformat(date) if date else dt.date(2008, 3 + number % 6, 1 + (number * 7) % 28)
    game_id = f"{(number * 7_919_017 + 302_118_455) % 10**10:010d}"
    return Player(name_ja, furigana, first, last, game_id, COUNTRIES[number % len(COUNTRIES)], event_ja, event_en, day)


def form_decks(data: Data) -> Iterator[FormDeck]:
    """The decks, without end: the modern decks turn about with 2008's from bench/corpus.py until they run out,
    then 2008's alone; of those only the decks made legal whose every card has both names."""
    cards = data.cards
    corpus = Corpus(data)
    drawn = 0

    def old() -> FormDeck:
        nonlocal drawn
        while True:
            drawn += 1
            deck = corpus.deck(drawn)
            held = [cards.by_passcode.get(p) for p in (*deck.main, *deck.extra, *deck.side)]
            if deck.made_legal and all(c is not None and c.name_ja and c.name_en for c in held):
                main, extra, side = (_merged(p, cards) for p in (deck.main, deck.extra, deck.side))
                title = ("自作デッキ", f"Deck #{drawn}")
                return FormDeck(deck.id, *title, main, extra, side, _player(drawn, None))

    for number in numbers():
        if number % 2 == 0 and number // 2 < len(MODERN):
            title_ja, title_en, date, main, extra, side = MODERN[number // 2]
            player = _player(number, date)
            decklist = (_entries(main, cards), _entries(extra, cards), _entries(side, cards))
            yield FormDeck(f"modern-{number // 2 + 1}", title_ja, title_en, *decklist, player)
        else:
            yield old()


Draw = Callable[[FormDeck, Font, int], Drawn]
DRAW: dict[str, Draw] = {"ocg": ocg_form, "tcg": tcg_form, "site": site_print, "blog": blog_page}


def _font(layout: str, number: int) -> Font:
    """The face of the `number`th deck (from 0) drawn in `layout`: the faces of its language in turn, each lap
    shifted by one so that no face keeps to the decks of one era; every third deck's site page in Japanese."""
    lang = "en" if layout == "tcg" or (layout == "site" and number % 3 != 2) else "ja"
    faces = JA_FONTS if lang == "ja" else EN_FONTS
    turn = number  # the deck's place among the decks of the layout in its language
    if layout == "site":
        turn = number - (number + 1) // 3 if lang == "en" else number // 3
    return faces[(turn + turn // len(faces)) % len(faces)]


def _variant(layout: str, number: int) -> int:
    """The `number`th deck's variant of `layout`: two decks in a row alike in the OCG form, so that its two and
    three columns each come in both Gothic and Mincho."""
    return number // 2 if layout == "ocg" else number


class FormPage(NamedTuple):
    """One page of the corpus: its layout, its degradation, the face it was set in, and the page to read and score
    (bench/paper.py's, its set `layout degradation`)."""

    layout: str
    degradation: str
    font: str
    page: Page


def pages(
    decks: int,
    layouts: Sequence[str] = LAYOUTS,
    degradations: Sequence[str] = DEGRADATIONS,
    data: Data | None = None,
    skipped: list[str] | None = None,
) -> Iterator[FormPage]:
    """The pages of `decks` decks, deck by deck, in each of `layouts` and each of `degradations`. A deck that does
    not fit every layout (DoesNotFit) is passed over, named in `skipped` with why."""
    data = data or load_data()
    made = 0
    for deck in form_decks(data):
        if made == decks:
            return
        drawn: dict[str, tuple[Drawn, Font, int]] = {}
        try:
            for layout in LAYOUTS:  # every layout, so that the decks are the same whichever are asked for
                font, variant = _font(layout, made), _variant(layout, made)
                drawn[layout] = DRAW[layout](deck, font, variant), font, variant
        except DoesNotFit as why:
            if skipped is not None:
                skipped.append(f"{deck.id}: {layout}: {why}")
            continue
        for layout in layouts:
            (pdf, lines), font, variant = drawn[layout]
            seed = SEED + 1000 * made + 10 * LAYOUTS.index(layout)
            for degradation, content in degrade(pdf, degradations, seed, deck.player.date):
                note = f"{font.name}, variant {variant}"
                page = Page(f"{layout} {degradation}", deck.id, font.lang, lines, content, note)
                yield FormPage(layout, degradation, font.name, page)
        made += 1


def degrade(pdf: bytes, degradations: Sequence[str], seed: int, when: dt.date) -> Iterator[tuple[str, bytes]]:
    """The drawing `pdf` as each of `degradations` makes it, in their order; `seed` decides the photo and the fax,
    `when` the fax's header and the image PDF's dates."""
    high: Image.Image | None = None
    for degradation in degradations:
        if degradation in ("300dpi", "photo", "image-pdf") and high is None:
            high = rasterise(pdf, 300)
        if degradation == "300dpi" and high is not None:
            yield degradation, png(high)
        elif degradation == "150dpi":
            yield degradation, png(rasterise(pdf, 150))
        elif degradation == "photo" and high is not None:
            yield degradation, photo(high, seed)
        elif degradation == "fax":
            yield degradation, fax(rasterise(pdf, 200), seed + 1, when)
        elif degradation == "image-pdf" and high is not None:
            yield degradation, image_pdf(high, 300, when)
        elif degradation == "text-pdf":
            yield degradation, pdf
        else:
            raise ValueError(f"no degradation is called {degradation!r}")


def rasterise(pdf: bytes, dpi: int) -> Image.Image:
    """The first page of `pdf` as a grey image at `dpi`, by `pdftoppm -r DPI -gray` (PGM, which poppler writes in
    an eighth of the time it takes to write PNG)."""
    command = ["pdftoppm", "-r", str(dpi), "-gray", "-singlefile", "-"]
    pgm = subprocess.run(command, input=pdf, capture_output=True, check=True, timeout=120).stdout
    return Image.open(io.BytesIO(pgm)).convert("L")


def _perspective(output: Sequence[tuple[float, float]], source: Sequence[tuple[float, float]]) -> list[float]:
    """The 8 coefficients of Pillow's PERSPECTIVE transform that take each point of `output` to `source`."""
    rows, values = [], []
    for (x, y), (u, v) in zip(output, source, strict=True):
        rows += [[x, y, 1, 0, 0, 0, -u * x, -u * y], [0, 0, 0, x, y, 1, -v * x, -v * y]]
        values += [u, v]
    return [float(c) for c in np.linalg.solve(np.array(rows, dtype=float), np.array(values, dtype=float))]


def _light(size: tuple[int, int], rng: random.Random) -> Image.Image:
    """A field of light to multiply a photo by, 255 for full light, made at an eighth of the size and scaled up:
    an overall level of 85–100%, a gradient from a random side (its far end 15–35% dimmer), a vignette (the corners
    10–20% dimmer) and a soft-edged shadow (a hand's, a phone's) 30–55% deep over 15–40% of the frame from a
    random side."""
    width, height = max(2, size[0] // 8), max(2, size[1] // 8)
    xs = np.linspace(-1.0, 1.0, width, dtype=np.float32)[None, :]
    ys = np.linspace(-1.0, 1.0, height, dtype=np.float32)[:, None]

    def across() -> npt.NDArray[np.floating[Any]]:  # -1 to 1 across the frame from a random side
        turn = rng.uniform(0, 2 * math.pi)
        return (xs * math.cos(turn) + ys * math.sin(turn)) / math.sqrt(2)

    gradient = 1 - rng.uniform(0.15, 0.35) * (0.5 + 0.5 * across())
    vignette = 1 - rng.uniform(0.10, 0.20) * (xs**2 + ys**2) / 2
    edge, soft = rng.uniform(0.12, 0.4), rng.uniform(0.02, 0.08)
    shadow = 1 - rng.uniform(0.30, 0.55) / (1 + np.exp(-(across() - edge) / soft))
    field = np.clip(255 * gradient * vignette * shadow * rng.uniform(0.85, 1.0), 0, 255).astype(np.uint8)
    return Image.fromarray(field, "L").resize(size, Image.Resampling.BILINEAR)


def photo(page: Image.Image, seed: int) -> bytes:
    """The grey `page` as a phone photographs it, a colour JPEG of quality 50–70: on a desk (3–8% of it showing
    round the page), turned uniformly within ±6°, seen a little off square (the ends of one edge drawn together by
    up to 3% of the page's size, and of the edge beside it by up to 2%: the page stays turned as it was), lit as
    `_light` says, blurred by a Gaussian of radius 0.6–1.1 px, grainy, and tinted warm. The same seed gives the
    same photo."""
    rng = random.Random(seed)
    width, height = page.size
    turn = math.radians(rng.uniform(-6.0, 6.0))
    cos, sin = math.cos(turn), math.sin(turn)
    side = max(width, height)
    near = [(0.0, 0.0), (float(width), 0.0), (float(width), float(height)), (0.0, float(height))]
    square = [list(corner) for corner in near]
    top_or_bottom, left_or_right = rng.choice(((0, 1), (3, 2))), rng.choice(((0, 3), (1, 2)))
    for (a, b), axis, pull in ((top_or_bottom, 0, rng.uniform(0, 0.03)), (left_or_right, 1, rng.uniform(0, 0.02))):
        inward = (square[b][axis] - square[a][axis]) / 2 * pull * side / (width if axis == 0 else height)
        square[a][axis] += inward
        square[b][axis] -= inward
    corners = [
        ((x - width / 2) * cos - (y - height / 2) * sin, (x - width / 2) * sin + (y - height / 2) * cos)
        for x, y in square
    ]
    margin = rng.uniform(0.03, 0.08) * side
    left, top = min(x for x, _ in corners) - margin, min(y for _, y in corners) - margin
    size = (math.ceil(max(x for x, _ in corners) - left + margin), math.ceil(max(y for _, y in corners) - top + margin))
    seen = [(x - left, y - top) for x, y in corners]
    shot = page.transform(
        size, Image.Transform.PERSPECTIVE, _perspective(seen, near), Image.Resampling.BICUBIC, fillcolor=DESK
    )
    shot = ImageChops.multiply(shot, _light(size, rng)).filter(ImageFilter.GaussianBlur(rng.uniform(0.6, 1.1)))
    grain = np.random.default_rng(seed).normal(0, 3.0, (size[1], size[0])).astype(np.float32)
    shot = Image.fromarray(np.clip(np.asarray(shot, dtype=np.float32) + grain, 0, 255).astype(np.uint8), "L")
    coloured = Image.merge("RGB", [shot.point([round(v * k) for v in range(256)]) for k in WARM])
    out = io.BytesIO()
    coloured.save(out, "JPEG", quality=rng.randint(50, 70))
    return out.getvalue()


def fax(page: Image.Image, seed: int, when: dt.date) -> bytes:
    """The grey 200 dpi `page` as a fax machine prints it, a 1-bit PNG: the sender's header line at the top, turned
    up to 1° as the sheet fed, blurred by a Gaussian of radius 0.4–0.8 px and grainy, cut at a threshold of
    140–175, with 300–900 specks of 1–3 px and, one time in two, a streak of dirt on the scanner's glass down part
    of the page. The same seed gives the same fax."""
    rng = random.Random(seed)
    noise = np.random.default_rng(seed)
    sent = page.rotate(rng.uniform(-1.0, 1.0), Image.Resampling.BICUBIC, fillcolor=255)
    header = f"{when:%b-%d-%Y} 10:{rng.randint(10, 59)}  FROM : 03 5555 {rng.randint(1000, 9999)}  TO : DECK CHECK"
    ImageDraw.Draw(sent).text(
        (40, 12), f"{header.upper()}        P.001/001", fill=0, font=ImageFont.truetype(str(FAX_FONT), 22)
    )
    grey = np.asarray(sent.filter(ImageFilter.GaussianBlur(rng.uniform(0.4, 0.8))), dtype=np.float32)
    ink = grey + noise.normal(0, 12.0, grey.shape) < rng.uniform(140, 175)
    rows, cols = ink.shape
    for _ in range(rng.randint(300, 900)):
        y, x, r = rng.randrange(rows), rng.randrange(cols), rng.randint(0, 1)
        ink[max(0, y - r) : y + r + 1, max(0, x - r) : x + rng.randint(1, 2)] = True
    if rng.random() < 0.5:
        x, start = rng.randrange(cols), rng.randrange(rows // 2)
        ink[start : start + rng.randint(rows // 4, rows // 2), x] = True
    out = io.BytesIO()
    Image.fromarray(~ink).convert("1").save(out, "PNG")
    return out.getvalue()


def image_pdf(page: Image.Image, dpi: int, when: dt.date) -> bytes:
    """The scanned `page` in a PDF of one page and no text layer, as a scanner files it on the day `when`."""
    out = io.BytesIO()
    scanned = dt.datetime.combine(when, dt.time(10, 30), dt.UTC).utctimetuple()
    page.save(out, "PDF", resolution=float(dpi), creationDate=scanned, modDate=scanned)
    return out.getvalue()


@dataclass(slots=True)
class Row:
    """One layout × degradation's figures: bench/paper.py's tally, with the lines right and in the deck, the
    lines in the deck under another section than their true line's, and the failures shown."""

    tally: Tally = field(default_factory=lambda: Tally("ocr"))
    in_deck: int = 0
    wrong_section: int = 0
    shown: list[tuple[str, Failure]] = field(default_factory=list)

    def figures(self) -> dict[str, Any]:
        """The figures as JSON."""
        return self.tally.figures() | {"lines_right_in_deck": self.in_deck, "wrong_section": self.wrong_section}


def read_safely(page: Page, cards: CardIndex) -> tuple[Reading | None, float, str | None]:
    """bench/paper.py's `read`, any exception besides PaperError caught too and named as the error."""
    start = time.perf_counter()
    try:
        return read(page, cards)
    except Exception as error:  # a crash of the reader is a figure of the run, never its end
        return None, time.perf_counter() - start, f"{type(error).__name__}: {error}"


def in_deck(page: Page, reading: Reading | None) -> tuple[int, int]:
    """The true lines read right and needing no review, and the lines needing no review read under another
    section than the true line they stand for."""
    if reading is None:
        return 0, 0
    lines = reading.lines
    pairs = pair(page.lines, lines)
    right = 0
    elsewhere = 0
    for t, r in pairs.items():
        line, true = lines[r], page.lines[t]
        card = None if line.card is None else line.card.passcode
        if line.needs_review:
            continue
        right += (line.section, card, line.count) == tuple(true)
        elsewhere += line.section != true.section
    return right, elsewhere


def run(
    decks: int, layouts: Sequence[str], degradations: Sequence[str], save: Path | None, reading: bool
) -> tuple[dict[tuple[str, str], Row], list[str]]:
    """Every layout × degradation's figures over `decks` decks, and the decks passed over; every page written to
    `save` where given, and read only where `reading`."""
    data = load_data()
    rows = {(layout, degradation): Row() for layout in layouts for degradation in degradations}
    skipped: list[str] = []
    if reading:
        warm_up(data.cards)
    start, done = time.monotonic(), None
    for drawn in pages(decks, layouts, degradations, data, skipped):
        page = drawn.page
        if save is not None:
            kind = (
                "pdf" if page.content.startswith(b"%PDF") else "jpg" if page.content.startswith(b"\xff\xd8") else "png"
            )
            (save / f"{page.deck}-{drawn.layout}-{drawn.degradation}.{kind}").write_bytes(page.content)
        if done != page.deck and done is not None:
            print(f"  {done} done, {time.monotonic() - start:.0f} s", file=sys.stderr, flush=True)
        done = page.deck
        if not reading:
            continue
        found, seconds, error = read_safely(page, data.cards)
        row = rows[drawn.layout, drawn.degradation]
        figures = score(page, found, data.cards)
        row.tally.add(figures, seconds, None if found is None else found.source, error)
        right, elsewhere = in_deck(page, found)
        row.in_deck += right
        row.wrong_section += elsewhere
        row.shown += [(drawn.font, f) for f in figures.failures if f.what == "wrong, not flagged"]
    print(f"  {done} done, {time.monotonic() - start:.0f} s", file=sys.stderr, flush=True)
    return rows, skipped


def _percent(part: int, whole: int) -> str:
    return f"{part} ({100 * part / whole:.1f}%)" if whole else "–"


def table(rows: dict[tuple[str, str], Row]) -> str:
    """The figures as a Markdown table, a row a layout × degradation, and a row of them all."""
    out = [
        "| layout | degradation | pages | true lines | lines right | right & in deck | wrong & not flagged "
        "| of which wrong section | decks exact | errors | s/page median | s/page max |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    everything = Row()
    for (layout, degradation), row in [*rows.items(), (("all", ""), everything)]:
        t = row.tally
        if layout != "all":
            everything.tally.pages += t.pages
            everything.tally.true_lines += t.true_lines
            everything.tally.right += t.right
            everything.tally.wrong += t.wrong
            everything.tally.exact += t.exact
            everything.tally.seconds += t.seconds
            everything.tally.errors += t.errors
            everything.in_deck += row.in_deck
            everything.wrong_section += row.wrong_section
        median = f"{statistics.median(t.seconds):.2f}" if t.seconds else "–"
        longest = f"{max(t.seconds):.2f}" if t.seconds else "–"
        out.append(
            f"| {layout} | {degradation} | {t.pages} | {t.true_lines} | {_percent(t.right, t.true_lines)} "
            f"| {_percent(row.in_deck, t.true_lines)} | {t.wrong} | {row.wrong_section} "
            f"| {_percent(t.exact, t.pages)} | {sum(t.errors.values())} | {median} | {longest} |"
        )
    return "\n".join(out)


def failures(rows: dict[tuple[str, str], Row], count: int) -> str:
    """The first `count` lines read wrong and not flagged, as a Markdown table."""
    shown = [(layout, degradation, font, f) for (layout, degradation), row in rows.items() for font, f in row.shown]
    if not shown or count <= 0:
        return ""
    out = [
        "| layout | degradation | deck | face | true line | read as | confidence | text read |",
        "|---|---|---|---|---|---|---:|---|",
    ]
    for layout, degradation, font, f in shown[:count]:
        confidence = "–" if f.confidence is None else f"{f.confidence:.1f}"
        text = f.text.replace("|", "\\|")
        out.append(f"| {layout} | {degradation} | {f.deck} | {font} | {f.truth} | {f.read} | {confidence} | `{text}` |")
    return "\n".join(out)


def _names(text: str, allowed: Sequence[str]) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    wrong = [name for name in names if name not in allowed]
    if wrong or not names:
        raise argparse.ArgumentTypeError(f"{', '.join(wrong) or 'none'}: choose from {', '.join(allowed)}")
    return names


def main() -> None:
    """Draw the pages, read them and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--decks", type=int, default=8, help="decks, each drawn in every layout (default 8)")
    parser.add_argument("--layouts", type=lambda t: _names(t, LAYOUTS), default=list(LAYOUTS), help=",".join(LAYOUTS))
    parser.add_argument(
        "--degradations",
        type=lambda t: _names(t, DEGRADATIONS),
        default=list(DEGRADATIONS),
        help=",".join(DEGRADATIONS),
    )
    parser.add_argument("--json", type=Path, help="write the figures and failures to this file too")
    parser.add_argument("--failures", type=int, default=10, help="lines read wrong and not flagged shown (default 10)")
    parser.add_argument("--save", type=Path, help="write every page to this folder")
    parser.add_argument("--no-read", action="store_true", help="draw (and save) the pages only")
    args = parser.parse_args()
    if "tesserocr" in sys.modules:
        raise RuntimeError("tesserocr was imported before OMP_THREAD_LIMIT was set")
    os.environ["OMP_THREAD_LIMIT"] = "1"  # read before Tesseract starts: one thread, one core
    if args.save is not None:
        args.save.mkdir(parents=True, exist_ok=True)
    print(
        f"python {sys.version.split()[0]}, {os.cpu_count()} cores, reads in one process, OMP_THREAD_LIMIT=1; "
        f"data {data_version(load_data())}; {args.decks} decks × {', '.join(args.layouts)} × "
        f"{', '.join(args.degradations)}"
    )
    rows, skipped = run(args.decks, args.layouts, args.degradations, args.save, not args.no_read)
    for why in skipped:
        print(f"- deck passed over: {why}")
    if args.no_read:
        return
    print(table(rows))
    for (layout, degradation), row in rows.items():
        for kind, n in sorted(row.tally.errors.items()):
            print(f"- {layout} {degradation}: {n} pages failed ({kind})")
    print(failures(rows, args.failures))
    if args.json is not None:
        figures = {
            "decks": args.decks,
            "rows": {f"{layout} {degradation}": row.figures() for (layout, degradation), row in rows.items()},
            "skipped": skipped,
            "wrong_not_flagged": [
                {"layout": layout, "degradation": degradation, "face": font}
                | {name: getattr(f, name) for name in Failure.__slots__}
                for (layout, degradation), row in rows.items()
                for font, f in row.shown
            ],
        }
        args.json.write_bytes(orjson.dumps(figures, option=orjson.OPT_INDENT_2))


if __name__ == "__main__":
    main()
