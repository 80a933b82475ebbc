"""The decks bench/paper_forms.py draws: real decks, as players list them.

Eight tournament decks of 2019–2025 written out below by name (Snake-Eye Fire King, Tenpai Dragon, Yubel,
Labrynth, Ryzeal, Maliss, Kashtira, Sky Striker: 40–43 main, 14–15 extra, 0–15 side), turn about with decks of 2008
drawn by bench/corpus.py (40–60 main, 0–15 extra, 0–15 side; only those made legal whose every card has a Japanese
and an English name). Each deck comes with a player, an event and its date, in both languages.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import count as numbers

from bench.corpus import Corpus
from bench.paper_forms_draw import Entries, FormDeck, Player
from deckcheck import Data
from deckcheck.data import Card, CardIndex

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
