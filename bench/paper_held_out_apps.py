"""The two chat apps of the held-out `chat` kind (bench/paper_held_out_chat.py says what is drawn): LINE's screen and
Discord's, each laid out as blocks down a long capture (the bars at the top, the messages, the input bar at the
foot), then drawn with Pillow.
"""

from __future__ import annotations

import io
import random
from collections.abc import Callable

from bench.paper_forms_draw import RGB, Drawn, Font, FormDeck, main_truth, truth
from bench.paper_held_out_chat import AVATARS, EMOJI, MONO, ROLES, Message, emoji, measure, messages, rich, wrap
from bench.paper_screen import Screen, check_covers, theme

Block = tuple[float, Callable[[Screen, float], None]]  # a block's height and how to draw it at a height
Layout = tuple[Block, list[Block], Block]
TEXT, LINE = 15.5, 21.0  # a message's type size and line pitch, in points
WEEKDAYS = "月火水木金土日"


def _clock(when: str, lang: str) -> str:
    """A Discord time: `今日 21:04` or `Today at 9:04 PM`."""
    if lang == "ja":
        return f"今日 {when}"
    hour, minute = (int(part) for part in when.split(":"))
    return f"Today at {hour - 12 if hour > 12 else hour}:{minute:02d} {'PM' if hour >= 12 else 'AM'}"


def _top(probe: Screen, ios: bool, bar: RGB, draw_bar: Callable[[Screen, float], None], rng: random.Random) -> Block:
    """The status bar and the app's bar under it, on `bar`."""
    status = 47.0 if ios else 28.0
    clock = "9:41" if ios else f"{rng.randint(19, 23)}:{rng.randint(0, 59):02d}"
    battery = rng.choice((87, 64, 42, 100))

    def draw(screen: Screen, y: float) -> None:
        screen.box((0, y, screen.width, y + status + 52), bar)
        screen.status_bar(ios, clock, battery)
        draw_bar(screen, status)

    del probe
    return status + 52, draw


def _bottom(ios: bool, ground: RGB, field: RGB, placeholder: str, icons: tuple[str, ...]) -> Block:
    """The input bar (icons, then a rounded field with its placeholder and a face) and the gesture bar."""
    height = 56.0 + (34.0 if ios else 24.0)

    def draw(screen: Screen, y: float) -> None:
        colours = screen.theme
        screen.box((0, y, screen.width, y + height), ground)
        for k, icon in enumerate(icons):
            screen.icon(icon, (22 + 36 * k, y + 28), 22, colours.secondary)
        left = 6 + 36 * len(icons)
        screen.box((left, y + 10, screen.width - 12, y + 46), field, radius=18)
        screen.text((left + 14, y + 28), placeholder, 15, colours.secondary)
        screen.icon("smile", (screen.width - 32, y + 28), 20, colours.secondary)
        screen.gesture_bar(ios, y + height)

    return height, draw


def line_blocks(
    probe: Screen, deck: FormDeck, lang: str, messages: list[Message], *, ios: bool, rng: random.Random
) -> Layout:
    """LINE's screen: the group's bar, a date, the bubbles, the input bar."""
    colours = probe.theme
    dark = colours.dark
    ground = (24, 24, 27) if dark else rng.choice(((116, 148, 192), (236, 238, 241)))
    blue = ground == (116, 148, 192)
    mine_bubble, theirs = ((58, 170, 74) if dark else (133, 226, 84)), ((48, 48, 52) if dark else (255, 255, 255))
    small = (235, 238, 245) if blue else colours.secondary
    group = ("遊戯王部" if lang == "ja" else "YGO locals") + " (6)"

    def bar(screen: Screen, y: float) -> None:
        screen.icon("chevron", (16, y + 26), 20, colours.text)
        screen.text((28, y + 26), "12", 16, colours.text)
        screen.text((screen.width / 2, y + 26), group, 17, colours.text, bold=True, anchor="mm")
        screen.icon("search", (screen.width - 64, y + 26), 20, colours.text)
        screen.icon("menu", (screen.width - 24, y + 26), 20, colours.text)

    top = _top(probe, ios, colours.surface, bar, rng)
    date = deck.player.date
    label = (
        f"{date.month}/{date.day}({WEEKDAYS[date.weekday()]})" if lang == "ja" else f"{date:%a}, {date:%b} {date.day}"
    )

    def separator(screen: Screen, y: float) -> None:
        screen.box((0, y, screen.width, y + 44), ground)
        wide = screen.measure(label, 12) + 20
        pill = (70, 90, 120) if blue else (60, 60, 64) if dark else (196, 199, 204)
        screen.box((screen.width / 2 - wide / 2, y + 12, screen.width / 2 + wide / 2, y + 34), pill, radius=11)
        screen.text((screen.width / 2, y + 23), label, 12, (255, 255, 255), anchor="mm")

    blocks: list[Block] = [(44.0, separator)]
    width = probe.width * 0.62
    last = ""
    for message in messages:
        lines = [part for line in message.lines for part in wrap(probe, line, width, TEXT)]
        inner = max(measure(probe, line, TEXT) for line in lines)
        named = not message.mine and message.author != last
        last = message.author
        height = (18.0 if named else 0.0) + len(lines) * LINE + 16 + 10 + (10 if message.reactions else 0)
        blocks.append(
            (
                height,
                _bubble(
                    message,
                    lines,
                    room=(inner, height),
                    named=named,
                    ground=ground,
                    inks=(mine_bubble, theirs, small),
                    lang=lang,
                ),
            )
        )
    field = (50, 50, 54) if dark else (240, 241, 243)
    bottom = _bottom(ios, colours.surface, field, "Aa", ("plus", "camera", "cards"))
    return top, blocks, bottom


def _bubble(
    message: Message,
    lines: list[str],
    *,
    room: tuple[float, float],
    named: bool,
    ground: RGB,
    inks: tuple[RGB, RGB, RGB],
    lang: str,
) -> Callable[[Screen, float], None]:
    """How to draw a LINE message: avatar and name for a friend's first, the bubble, the time (and `既読` for the
    player's), a reaction badge on the bubble's corner."""
    mine_bubble, theirs, small = inks
    inner, height = room

    def draw(screen: Screen, y: float) -> None:
        colours = screen.theme
        screen.box((0, y, screen.width, y + height), ground)
        top = y + (18 if named else 0) + 4
        wide, tall = inner + 24, len(lines) * LINE + 16
        if message.mine:
            left = screen.width - 12 - wide
            fill, ink = mine_bubble, (15, 15, 15)
            read = "既読 5" if lang == "ja" else "Read 5"
            screen.text((left - 6, top + tall - 22), read, 10, small, anchor="rm")
            screen.text((left - 6, top + tall - 8), message.time, 10, small, anchor="rm")
        else:
            left = 58.0
            fill, ink = theirs, colours.text if colours.dark else (20, 20, 20)
            if named:
                colour = AVATARS[sum(map(ord, message.author)) % len(AVATARS)]
                screen.dot((30, y + 24), 19, colour)
                screen.text((30, y + 24), message.author[0].upper(), 16, (255, 255, 255), bold=True, anchor="mm")
                screen.text((left, y + 10), message.author, 11.5, small)
            screen.text((left + wide + 6, top + tall - 8), message.time, 10, small, anchor="lm")
        screen.box((left, top, left + wide, top + tall), fill, radius=16)
        for k, line in enumerate(lines):
            rich(screen, (left + 12, top + 8 + LINE * (k + 0.5)), line, TEXT, ink)
        if message.reactions:
            mark, count = message.reactions[0]
            x = left + wide - 40 if not message.mine else left - 8
            screen.box(
                (x, top + tall - 6, x + 44, top + tall + 16), (255, 255, 255), radius=11, outline=(220, 220, 225)
            )
            emoji(screen, mark, (x + 13, top + tall + 5), 14)
            screen.text((x + 25, top + tall + 5), str(count), 11, (60, 60, 60))

    return draw


def discord_blocks(
    probe: Screen, deck: FormDeck, lang: str, messages: list[Message], *, ios: bool, rng: random.Random
) -> Layout:
    """Discord's screen: the channel's bar, a date across a rule, messages grouped under their authors, reactions as
    pills, the input bar."""
    colours = probe.theme
    dark = colours.dark
    ground, bar_ground = ((49, 51, 56), (43, 45, 49)) if dark else ((255, 255, 255), (242, 243, 245))
    channel = "デッキ相談" if lang == "ja" else "deck-lists"

    def bar(screen: Screen, y: float) -> None:
        screen.icon("menu", (24, y + 26), 20, colours.text)
        screen.text((48, y + 26), f"# {channel}", 17, colours.text, bold=True)
        screen.icon("search", (screen.width - 64, y + 26), 20, colours.secondary)
        screen.icon("cards", (screen.width - 24, y + 26), 20, colours.secondary)

    top = _top(probe, ios, bar_ground, bar, rng)
    date = deck.player.date
    label = f"{date.year}年{date.month}月{date.day}日" if lang == "ja" else f"{date:%B} {date.day}, {date.year}"

    def separator(screen: Screen, y: float) -> None:
        screen.box((0, y, screen.width, y + 40), ground)
        screen.rule([(16, y + 20), (screen.width - 16, y + 20)], colours.divider, 0.7)
        wide = screen.measure(label, 12) + 12
        screen.box((screen.width / 2 - wide / 2, y + 12, screen.width / 2 + wide / 2, y + 28), ground)
        screen.text((screen.width / 2, y + 20), label, 12, colours.secondary, anchor="mm")

    blocks: list[Block] = [(40.0, separator)]
    width = probe.width - 72 - 16
    last = ""
    for k, message in enumerate(messages):
        author = "me" if message.mine else message.author
        named = author != last
        last = author
        mono = MONO[lang] if message.code else None
        size, pitch = (13.5, 19.0) if message.code else (TEXT, LINE)
        room = width - (20 if message.code else 0)
        lines = [part for line in message.lines for part in wrap(probe, line, room, size, mono)]
        height = (30.0 if named else 0.0) + len(lines) * pitch + (20 if message.code else 4)
        height += (32 if message.reactions else 0) + (
            12 if k + 1 == len(messages) or messages[k + 1].mine != message.mine else 2
        )
        blocks.append(
            (
                height,
                _post(message, lines, named=named, ground=ground, lang=lang, room=(size, pitch, height), mono=mono),
            )
        )
    placeholder = f"#{channel} へメッセージを送信" if lang == "ja" else f"Message #{channel}"
    bottom = _bottom(ios, ground, bar_ground, placeholder, ("plus",))
    return top, blocks, bottom


def _post(
    message: Message,
    lines: list[str],
    *,
    named: bool,
    ground: RGB,
    lang: str,
    room: tuple[float, float, float],
    mono: Font | None,
) -> Callable[[Screen, float], None]:
    """How to draw a Discord message: the avatar, name and time where a new author starts, the lines (in a code
    block where pasted as one), the reactions as pills."""
    size, pitch, height = room
    player = "タロウ" if lang == "ja" else "taro_duels"

    def draw(screen: Screen, y: float) -> None:
        colours = screen.theme
        author = player if message.mine else message.author
        screen.box((0, y, screen.width, y + height), ground)
        if named:
            colour = AVATARS[sum(map(ord, author)) % len(AVATARS)]
            screen.dot((36, y + 22), 20, colour)
            screen.text((36, y + 22), author[0].upper(), 17, (255, 255, 255), bold=True, anchor="mm")
            role = ROLES[sum(map(ord, author)) % len(ROLES)]
            wide = screen.text((72, y + 12), author, 15.5, role, bold=True)
            screen.text((72 + wide + 8, y + 13), _clock(message.time, lang), 11.5, colours.secondary)
            y += 30
        if message.code:
            block = (43, 45, 49) if colours.dark else (242, 243, 245)
            edge = (30, 31, 34) if colours.dark else (227, 229, 232)
            screen.box((72, y + 2, screen.width - 14, y + 18 + len(lines) * pitch), block, radius=4, outline=edge)
            y += 10
        for k, line in enumerate(lines):
            rich(screen, (72 + (10 if message.code else 0), y + pitch * (k + 0.5)), line, size, colours.text, font=mono)
        y += len(lines) * pitch + (12 if message.code else 4)
        x = 72.0
        for mark, count in message.reactions:
            wide = 28 + screen.measure(str(count), 12)
            lit = (88, 101, 242) if count > 1 else None
            pill = (43, 45, 49) if colours.dark else (242, 243, 245)
            screen.box((x, y + 2, x + wide + 8, y + 28), pill, radius=8, outline=lit, line=0.8)
            emoji(screen, mark, (x + 14, y + 15), 15)
            screen.text((x + 26, y + 15), str(count), 12, colours.text)
            x += wide + 14

    return draw


def chat_screen(deck: FormDeck, font: Font, variant: int) -> Drawn:
    """The chat, a PNG 1170 px wide (an iPhone) or 1080 (Android): LINE's or Discord's, dark or light, by variant."""
    rng = random.Random(f"chat {deck.id} {variant}")
    lang = font.lang
    ios, line_app, dark = variant % 2 == 0, variant // 2 % 2 == 0, variant // 4 % 2 == 1
    colours = theme(dark, rng)
    width = 1170 if ios else 1080
    talk = messages(deck, lang, variant, rng)
    check_covers(font, ["".join(c for c in line if c not in EMOJI) for m in talk for line in m.lines])
    probe = Screen(width, 1, font, colours)
    layout = line_blocks if line_app else discord_blocks
    top, blocks, bottom = layout(probe, deck, lang, talk, ios=ios, rng=rng)
    height = sum(h for h, _ in (top, *blocks, bottom))
    screen = Screen(width, height, font, colours)
    y = 0.0
    for h, draw in (top, *blocks, bottom):
        draw(screen, y)
        y += h
    out = io.BytesIO()
    screen.image.save(out, "PNG", compress_level=6)
    return out.getvalue(), (*main_truth(deck), *truth("extra", deck.extra), *truth("side", deck.side))
