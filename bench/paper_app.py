"""A phone's screenshot of a deck-building app, as players send one: the `app-dark` and `app-light` kinds of
bench/paper_forms.py, drawn with Pillow (bench/paper_screen.py) as the app shows a whole deck in one long capture
(the scrolling screenshot iOS and Android both take, 5,000 to 10,000 px tall).

From the top: the status bar (the time, signal, wifi, battery with its level), the app's bar (a back arrow, the
deck's name, a share icon), the player and the date, a row of section tabs with their counts (an iPhone's
segmented control, or Android's tabs over an accent line: `メイン 40 | EX 15 | サイド 15`, `Main 40 / Extra 15 /
Side 15`), then the list: a header row for each section (`メインデッキ 40枚`, `Main Deck (40)`, `MAIN DECK 40`),
in most variants the main deck's kinds under their own smaller headers (`モンスター 17`), and a row for each card:
a small thumbnail in the colour of the card's frame (an effect monster's orange, a spell's green, a Link's blue...,
a pendulum's two halves), the name (over two lines where it is long), in most variants a grey line under it saying
what the card is (`効果モンスター`, `Spell Card`), and the count at the right as a badge `×3`, a circled digit, or
a coloured pill with `3`, by variant. At the foot the app's navigation (`ホーム デッキ 検索 設定`, the deck's tab
lit) and the phone's gesture bar. An iPhone's list is grouped in rounded blocks on a grey ground, Android's runs
flat with dividers; every other pair of variants is the app's compact list (short rows, small thumbnails, no grey line).
Dark themes set light text on a near-black ground, light ones dark text on white or light grey. Japanese apps
show Japanese names, English apps English names.
"""

from __future__ import annotations

import colorsys
import io
import random
import zlib
from collections.abc import Callable
from dataclasses import dataclass

from bench.paper_forms_draw import KINDS, Drawn, Font, FormDeck, copies, main_truth, truth
from bench.paper_screen import Screen, check_covers, theme
from deckcheck.data import Card

Head = Callable[[str, int], str]
HEADS: dict[str, tuple[Head, ...]] = {
    "ja": (lambda t, n: f"{t} {n}枚", lambda t, n: f"{t}（{n}）", lambda t, n: f"{t} {n}"),
    "en": (lambda t, n: f"{t} ({n})", lambda t, n: f"{t} · {n}", lambda t, n: f"{t.upper()} {n}"),
}
WORDS = {
    "ja": {
        "main": ("メインデッキ", "メイン"),
        "extra": ("エクストラデッキ", "EX"),
        "side": ("サイドデッキ", "サイド"),
        "monster": ("モンスター", ""),
        "spell": ("魔法", ""),
        "trap": ("罠", ""),
        "nav": ("ホーム", "デッキ", "検索", "設定"),
        "by": ("作成", "更新"),
        "back": ("デッキ一覧", ""),
    },
    "en": {
        "main": ("Main Deck", "Main"),
        "extra": ("Extra Deck", "Extra"),
        "side": ("Side Deck", "Side"),
        "monster": ("Monsters", ""),
        "spell": ("Spells", ""),
        "trap": ("Traps", ""),
        "nav": ("Home", "Decks", "Search", "Settings"),
        "by": ("by", "Updated"),
        "back": ("Decks", ""),
    },
}
TYPES = {
    "ja": {"none": "効果モンスター", "fusion": "融合モンスター", "synchro": "シンクロモンスター",
           "xyz": "エクシーズモンスター", "link": "リンクモンスター", "spell": "魔法カード", "trap": "罠カード"},
    "en": {"none": "Effect Monster", "fusion": "Fusion Monster", "synchro": "Synchro Monster", "xyz": "Xyz Monster",
           "link": "Link Monster", "spell": "Spell Card", "trap": "Trap Card"},
}  # fmt: skip
FRAMES = {
    "none": (222, 126, 62),
    "fusion": (146, 98, 170),
    "synchro": (228, 228, 228),
    "xyz": (38, 38, 40),
    "link": (32, 82, 160),
    "spell": (29, 150, 116),
    "trap": (180, 84, 128),
}
STYLES = ("badge", "circle", "pill")


def _frame(card: Card) -> str:
    return card.kind if card.kind != "monster" else card.extra_deck_type


@dataclass(slots=True)
class Item:
    """A row of the list: a section's header, a kind's header or a card; its lines of text and its height."""

    what: str  # section, kind or card
    lines: list[str]
    height: float
    card: Card | None = None
    count: int = 0


@dataclass(frozen=True, slots=True)
class Look:
    """How this capture of the app looks: the platform, the count's style, compact rows or not, the main deck's
    kinds under headers of their own or not, the headers' format, and the bars' heights."""

    ios: bool
    style: str
    compact: bool
    kinds: bool
    head: Head
    top: float
    bottom: float

    @property
    def left(self) -> float:
        """Where a row's block starts (an iPhone's grouped rows stand in from the edges)."""
        return 16.0 if self.ios else 0.0

    @property
    def thumb(self) -> float:
        """A thumbnail's width."""
        return 22.0 if self.compact else 32.0


def _wrap(screen: Screen, text: str, width: float, size: float) -> list[str]:
    """`text` over one or two lines no wider than `width`: broken at a space in English, between any two
    characters in Japanese; a second line too long is left to shrink."""
    if screen.measure(text, size) <= width:
        return [text]
    spaced = text.isascii()
    parts = text.split(" ") if spaced else list(text)
    for cut in range(len(parts) - 1, 0, -1):
        first = (" " if spaced else "").join(parts[:cut])
        if screen.measure(first, size) <= width:
            return [first, (" " if spaced else "").join(parts[cut:])]
    return [text]


def _items(deck: FormDeck, lang: str, look: Look, screen: Screen, name_width: float) -> list[Item]:
    """The list's rows in order: each section not empty under its header, the main deck by kind."""
    words = WORDS[lang]
    size = 15.0 if look.compact else 16.0
    row = 38.0 if look.compact else 54.0
    items: list[Item] = []

    def cards(entries: tuple[tuple[Card, int], ...]) -> None:
        for card, n in entries:
            lines = _wrap(screen, card.name(lang), name_width, size)
            items.append(Item("card", lines, row + 19 * (len(lines) - 1), card, n))

    for section, entries in (("main", deck.by_kind()), ("extra", deck.extra), ("side", deck.side)):
        if not entries:
            continue
        items.append(Item("section", [look.head(words[section][0], copies(entries))], 48.0 if look.ios else 52.0))
        if section != "main" or not look.kinds:
            cards(entries)
            continue
        for kind in KINDS:
            held = deck.kind(kind)
            if held:
                items.append(Item("kind", [look.head(words[kind][0], copies(held))], 34.0))
                cards(held)
    return items


def _thumbnail(screen: Screen, card: Card, x: float, centre: float, width: float) -> None:
    """A card's thumbnail: its frame's colour (a pendulum's lower half a spell's green), a box of art whose colour
    the passcode picks, and a strip for the name."""
    height = width * 86 / 59
    top = centre - height / 2
    frame = FRAMES[_frame(card)]
    screen.box((x, top, x + width, top + height), frame, radius=2, outline=(90, 90, 90), line=0.4)
    if card.pendulum:
        screen.box((x, top + height * 0.55, x + width, top + height), FRAMES["spell"], radius=2)
    hue = zlib.crc32(str(card.passcode).encode()) % 360 / 360
    art = tuple(round(255 * c) for c in colorsys.hsv_to_rgb(hue, 0.55, 0.75))
    screen.box((x + width * 0.12, top + height * 0.2, x + width * 0.88, top + height * 0.62), art)  # type: ignore[arg-type]
    screen.box((x + width * 0.1, top + height * 0.05, x + width * 0.9, top + height * 0.13), (245, 240, 225))


def _count(screen: Screen, look: Look, n: int, right: float, centre: float) -> None:
    """The count at the right of a row: a badge `×3`, a circled digit, or a pill with `3`."""
    colours = screen.theme
    if look.style == "badge":
        label = f"×{n}"
        wide = screen.measure(label, 14, bold=True) + 14
        ground = (58, 58, 62) if colours.dark else (234, 234, 239)
        screen.box((right - wide, centre - 12, right, centre + 12), ground, radius=7)
        screen.text((right - wide / 2, centre), label, 14, colours.text, bold=True, anchor="mm")
    elif look.style == "circle":
        screen.dot((right - 13, centre), 12.5, None, colours.accent)
        screen.text((right - 13, centre), str(n), 15, colours.accent, bold=True, anchor="mm")
    else:
        screen.box((right - 36, centre - 12, right, centre + 12), colours.accent, radius=12)
        screen.text((right - 18, centre), str(n), 14, colours.on_accent, bold=True, anchor="mm")


def _tabs(screen: Screen, deck: FormDeck, lang: str, look: Look, y: float) -> None:
    """The section tabs with their counts, the main deck's selected: a segmented control, or tabs over an accent
    line."""
    colours = screen.theme
    labels = [
        f"{WORDS[lang][s][1]} {copies(entries)}"
        for s, entries in (("main", deck.main), ("extra", deck.extra), ("side", deck.side))
    ]
    width = screen.width
    if look.ios:
        track = (44, 44, 47) if colours.dark else (228, 228, 232)
        screen.box((16, y + 8, width - 16, y + 40), track, radius=9)
        part = (width - 36) / 3
        chosen = (99, 99, 104) if colours.dark else (255, 255, 255)
        screen.box((18, y + 10, 18 + part, y + 38), chosen, radius=7)
        for k, label in enumerate(labels):
            screen.text((18 + part * (k + 0.5), y + 24), label, 13.5, colours.text, bold=k == 0, anchor="mm")
        return
    part = width / 3
    for k, label in enumerate(labels):
        ink = colours.accent if k == 0 else colours.secondary
        shown = label.upper() if lang == "en" and look.style == "pill" else label
        screen.text((part * (k + 0.5), y + 24), shown, 14.5, ink, bold=True, anchor="mm")
    screen.rule([(0, y + 47.5), (width, y + 47.5)], colours.divider, 0.7)
    screen.box((part * 0.18, y + 45, part * 0.82, y + 48), colours.accent, radius=1.5)


def _navigation(screen: Screen, lang: str, look: Look, top: float) -> None:
    """The app's navigation along the foot, the deck's tab lit, and the phone's gesture bar under it."""
    colours = screen.theme
    width = screen.width
    ground = colours.surface if look.ios else tuple(min(255, c + 6) for c in colours.surface)
    screen.box((0, top, width, top + look.bottom), ground)  # type: ignore[arg-type]
    screen.rule([(0, top), (width, top)], colours.divider, 0.5)
    part = width / 4
    for k, (icon, label) in enumerate(zip(("home", "cards", "search", "settings"), WORDS[lang]["nav"], strict=True)):
        ink = colours.accent if k == 1 else colours.secondary
        centre = part * (k + 0.5)
        if not look.ios and k == 1:
            pill = tuple(round(a * 0.3 + b * 0.7) for a, b in zip(colours.accent, ground, strict=True))
            screen.box((centre - 32, top + 12, centre + 32, top + 44), pill, radius=16)  # type: ignore[arg-type]
        screen.icon(
            icon, (centre, top + (20 if look.ios else 28)), 22, colours.text if k == 1 and not look.ios else ink
        )
        screen.text((centre, top + (40 if look.ios else 58)), label, 10.5 if look.ios else 12, ink, anchor="mm")
    screen.gesture_bar(look.ios, top + look.bottom)


def app_screen(deck: FormDeck, font: Font, variant: int, dark: bool) -> Drawn:
    """The deck in the app, a PNG 1170 px wide (an iPhone, even variants) or 1080 (Android), dark or light."""
    rng = random.Random(f"app {deck.id} {variant} {dark}")
    lang, ios = font.lang, variant % 2 == 0
    look = Look(
        ios,
        STYLES[variant % 3],
        variant // 2 % 2 == 1,
        variant % 5 != 2,
        HEADS[lang][variant // 2 % 3],
        47 + 44 + 30 + 48 if ios else 28 + 64 + 30 + 48,
        83.0 if ios else 104.0,
    )
    colours = theme(dark, rng)
    width_px = 1170 if ios else 1080
    probe = Screen(width_px, 1, font, colours)
    right = probe.width - look.left - (14 if ios else 16)
    name_x = look.left + 12 + look.thumb + 14
    items = _items(deck, lang, look, probe, right - 48 - name_x)
    texts = [line for item in items for line in item.lines] + [deck.title_ja if lang == "ja" else deck.title_en]
    check_covers(font, texts)
    height = look.top + sum(item.height for item in items) + 24 + look.bottom
    screen = Screen(width_px, height, font, colours)
    if ios and not dark:
        screen.box((0, look.top, screen.width, height), (242, 242, 247))
    _top(screen, deck, lang, look, rng)
    y = look.top
    if ios:  # an iPhone's cards in rounded blocks, a block a run of cards
        start = y
        for k, item in enumerate(items):
            if item.what == "card" and (k == 0 or items[k - 1].what != "card"):
                start = y
            y += item.height
            if item.what == "card" and (k + 1 == len(items) or items[k + 1].what != "card"):
                block = colours.surface if dark else (255, 255, 255)
                screen.box((look.left, start, screen.width - look.left, y), block, radius=10)
        y = look.top
    for k, item in enumerate(items):
        more = k + 1 < len(items) and items[k + 1].what == "card"
        _row(screen, look, item, lang=lang, y=y, more=more, name_x=name_x, right=right)
        y += item.height
    _navigation(screen, lang, look, height - look.bottom)
    out = io.BytesIO()
    screen.image.save(out, "PNG", optimize=False, compress_level=6)
    lines = (*main_truth(deck), *truth("extra", deck.extra), *truth("side", deck.side))
    return out.getvalue(), lines


def _top(screen: Screen, deck: FormDeck, lang: str, look: Look, rng: random.Random) -> None:
    """The status bar, the app's bar, the player and the date, and the tabs."""
    colours = screen.theme
    width = screen.width
    bar = colours.surface if look.ios or colours.dark else colours.background
    screen.box((0, 0, width, look.top), bar)
    clock = "9:41" if look.ios else f"{rng.randint(8, 23)}:{rng.randint(0, 59):02d}"
    y = screen.status_bar(look.ios, clock, rng.choice((87, 64, 100, 42, 73)))
    title = deck.title_ja if lang == "ja" else deck.title_en
    if look.ios:
        screen.icon("chevron", (18, y + 22), 20, colours.accent)
        screen.text((28, y + 22), WORDS[lang]["back"][0], 17, colours.accent)
        screen.text((width / 2, y + 22), title, 17, colours.text, bold=True, anchor="mm", width=width - 190)
        screen.icon("share", (width - 26, y + 21), 21, colours.accent)
        y += 44
    else:
        screen.icon("back", (28, y + 32), 22, colours.text)
        screen.text((72, y + 32), title, 21, colours.text, width=width - 170)
        screen.icon("share", (width - 76, y + 32), 21, colours.text)
        screen.icon("more", (width - 28, y + 32), 22, colours.text)
        y += 64
    player = deck.player
    who = player.name_ja if lang == "ja" else f"{player.first} {player.last}"
    by, updated = WORDS[lang]["by"]
    date = f"{player.date:%Y/%m/%d}" if lang == "ja" else f"{player.date:%b} {player.date.day}, {player.date.year}"
    meta = f"{who} {by} · {updated} {date}" if lang == "ja" else f"{by} {who} · {updated} {date}"
    screen.text((look.left + 16, y + 15), meta, 13, colours.secondary)
    _tabs(screen, deck, lang, look, y + 30)


def _row(
    screen: Screen, look: Look, item: Item, *, lang: str, y: float, more: bool, name_x: float, right: float
) -> None:
    """One row of the list at `y`: a header, or a card with its thumbnail, name, grey line and count, and the
    divider under it where another card follows."""
    colours = screen.theme
    left, end = look.left, screen.width - look.left
    if item.what == "section":
        if look.ios:
            screen.text((left + 4, y + item.height - 16), item.lines[0], 20, colours.text, bold=True)
        else:
            screen.text((16, y + item.height / 2 + 4), item.lines[0], 16, colours.accent, bold=True)
        return
    if item.what == "kind":
        screen.text((left + (12 if look.ios else 16), y + 22), item.lines[0], 13, colours.secondary, bold=True)
        return
    assert item.card is not None
    centre = y + item.height / 2
    _thumbnail(screen, item.card, left + 12, centre, look.thumb)
    size = 15.0 if look.compact else 16.0
    sub = not look.compact
    first = centre - (9 if sub else 0) - 9.5 * (len(item.lines) - 1)
    for k, line in enumerate(item.lines):
        screen.text((name_x, first + 19 * k), line, size, colours.text, width=right - 48 - name_x)
    if sub:
        kind = TYPES[lang][_frame(item.card)]
        if item.card.pendulum:
            kind = f"ペンデュラム・{kind}" if lang == "ja" else f"Pendulum {kind}"
        screen.text((name_x, first + 19 * (len(item.lines) - 1) + 20), kind, 12.5, colours.secondary)
    _count(screen, look, item.count, right, centre)
    if more:
        screen.rule([(name_x, y + item.height - 0.5), (end, y + item.height - 0.5)], colours.divider, 0.5)


def dark_app(deck: FormDeck, font: Font, variant: int) -> Drawn:
    """The deck in a dark-mode app."""
    return app_screen(deck, font, variant, dark=True)


def light_app(deck: FormDeck, font: Font, variant: int) -> Drawn:
    """The deck in a light-mode app."""
    return app_screen(deck, font, variant, dark=False)
