"""The held-out `chat` kind of bench/paper_forms.py (see bench/paper_held_out.py): a screenshot of a chat in which a
deck list is pasted, drawn with Pillow (bench/paper_screen.py) as one long capture, in LINE's manner or Discord's,
dark or light, on an iPhone or an Android phone. Here the talk, the list as pasted, and the text and emoji they are
set in; the two apps' screens in bench/paper_held_out_apps.py.

LINE: the group's bar (a back arrow with the unread count, the group's name and members, a search and a menu icon),
a date in a pill, messages in bubbles (the friends' white or grey on the left under their avatar and name, the
player's green on the right with `既読` and the count of readers over the time), reactions as a small badge on a
bubble's corner, and the input bar (plus, camera, a field `Aa` with a face, the phone's gesture bar). Discord: the
channel's bar (`# deck-lists`), a date across a rule, messages grouped under an avatar, a name in its role's colour
and the time, reactions as pills under a message, on some the list in a code block in a monospaced face, and the
input bar (`Message #deck-lists`). The list is pasted as players paste one: the deck's name on some, a heading for
each section with its count glued on (`【EX13】`, `✨EX 13✨`, `■EXデッキ 14枚`, `サイド(15)`, `[Extra 15]`), a card a
line (`灰流うらら×3`, `3 増殖するG`, `3x Ash Blossom`), long lines wrapped by the bubble, the list in one message, or
split over two or three. Emoji (✨, ❤, 😊, 🔥) are drawn as the phone draws them, in colour.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from pathlib import Path

from bench.paper_forms_draw import RGB, Font, FormDeck, copies
from bench.paper_screen import NOTO_JP, SCREEN_FONTS, Screen

CHAT_FONTS = SCREEN_FONTS
CHAT_DEGRADATIONS = ("screen", "screen-jpeg")
MONO = {
    "ja": Font("Noto Sans Mono CJK JP", NOTO_JP.path, "ja", index=5),
    "en": Font("DejaVu Sans Mono", Path("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"), "en"),
}
EMOJI = "✨❤😊🔥"
HEADS = {
    "ja": (
        ("【メイン{n}】", "【EX{n}】", "【サイド{n}】"),
        ("✨メイン {n}✨", "✨EX {n}✨", "✨サイド {n}✨"),
        ("■メインデッキ {n}枚", "■EXデッキ {n}枚", "■サイドデッキ {n}枚"),
        ("メイン({n})", "EX({n})", "サイド({n})"),
    ),
    "en": (
        ("[Main {n}]", "[Extra {n}]", "[Side {n}]"),
        ("✨Main {n}✨", "✨Extra {n}✨", "✨Side {n}✨"),
        ("Main Deck: {n}", "Extra Deck: {n}", "Side Deck: {n}"),
        ("MAIN ({n})", "EXTRA ({n})", "SIDE ({n})"),
    ),
}
CARDS = {
    "ja": ("{name}×{n}", "{n} {name}", "{name} {n}枚", "{name}x{n}"),
    "en": ("{n}x {name}", "{n} {name}", "{name} x{n}"),
}
TALK = {
    "ja": (
        ("friend", "明日の大会のデッキ見せて！"),
        ("me", "いいよ、今の構築はこんな感じ"),
        ("list", ""),
        ("friend", "サイドにニビル入れてるのいいね🔥"),
        ("me", "ありがとう！当日また調整する"),
    ),
    "en": (
        ("friend", "can you post your list for tomorrow?"),
        ("me", "sure, here it is"),
        ("list", ""),
        ("friend", "nice 🔥 why only two Nibiru though"),
        ("me", "ran out of space lol"),
    ),
}
FRIENDS = {"ja": ("ゆうき", "みさき@ユベル", "けんた"), "en": ("kevin_n", "Maria G", "duelist42")}
AVATARS: tuple[RGB, ...] = ((240, 130, 80), (90, 160, 230), (120, 190, 110), (200, 110, 200))
ROLES: tuple[RGB, ...] = ((88, 101, 242), (235, 69, 158), (67, 181, 129), (250, 166, 26))


@dataclass(slots=True)
class Message:
    """A message: who sent it (`me` the player), its lines, its time, and its reactions (emoji, count)."""

    author: str
    lines: list[str]
    time: str
    mine: bool
    code: bool = False
    reactions: list[tuple[str, int]] = field(default_factory=list)


def _list(deck: FormDeck, lang: str, variant: int) -> list[list[str]]:
    """The deck as pasted, a list of lines a message: one message, or the main deck and the rest, or a section
    each."""
    heads, card = HEADS[lang][variant % 4], CARDS[lang][variant // 2 % len(CARDS[lang])]
    sections = []
    for k, entries in enumerate((deck.by_kind(), deck.extra, deck.side)):
        if entries:
            lines = [heads[k].format(n=copies(entries))]
            lines += [card.format(name=c.name(lang), n=n) for c, n in entries]
            sections.append(lines)
    if variant % 3 == 0:
        title = deck.title_ja if lang == "ja" else deck.title_en
        sections[0].insert(0, title)
    split = variant // 3 % 3
    if split == 0:
        return [[line for lines in sections for line in lines]]
    if split == 1:
        return [sections[0], [line for lines in sections[1:] for line in lines]] if len(sections) > 1 else sections
    return sections


def messages(deck: FormDeck, lang: str, variant: int, rng: random.Random) -> list[Message]:
    """The chat: the talk around the list, its times a minute or two apart, reactions on the list and a reply."""
    friend = FRIENDS[lang][variant % 3]
    mine_posts = variant % 2 == 0  # the player posts the list, or a friend posts theirs
    hour, minute = rng.randint(19, 22), rng.randint(0, 40)
    out: list[Message] = []
    for who, text in TALK[lang]:
        minute += rng.randint(0, 2)
        when = f"{hour}:{minute:02d}"
        if who == "list":
            for k, lines in enumerate(_list(deck, lang, variant)):
                reactions = [("❤", rng.randint(1, 4)), ("✨", 1)] if k == 0 else []
                out.append(Message(friend, lines, when, mine_posts, code=variant % 4 == 3, reactions=reactions))
            continue
        mine = (who == "me") == mine_posts
        reactions = [("😊", 1)] if who == "friend" and variant % 2 else []
        out.append(Message("me" if mine else friend, [text], when, mine, reactions=reactions))
    return out


def _runs(text: str) -> list[str]:
    """`text` cut into runs of plain text and single emoji."""
    runs: list[str] = []
    for char in text:
        if char in EMOJI or not runs or runs[-1] in EMOJI:
            runs.append(char)
        else:
            runs[-1] += char
    return runs


def measure(screen: Screen, text: str, size: float, font: Font | None = None) -> float:
    """How wide `text` sets, its emoji a square each."""
    return sum(size * 1.2 if run in EMOJI else screen.measure(run, size, font=font) for run in _runs(text))


def emoji(screen: Screen, char: str, at: tuple[float, float], size: float) -> None:
    """An emoji as a phone draws it, in colour, centred on `at`, `size` points across."""
    x, y = at
    h = size / 2
    draw, s = screen.draw, 3.0
    if char == "✨":
        for dx, dy, r in ((0.15, 0.1, 0.75), (-0.55, -0.45, 0.4), (-0.5, 0.5, 0.3)):
            cx, cy, rr = x + dx * h, y + dy * h, r * h
            star = [(cx + rr * math.cos(a * math.pi / 4) * (1 if a % 2 == 0 else 0.28),
                     cy + rr * math.sin(a * math.pi / 4) * (1 if a % 2 == 0 else 0.28)) for a in range(8)]  # fmt: skip
            draw.polygon([(px * s, py * s) for px, py in star], fill=(255, 200, 60))
    elif char == "❤":
        red = (230, 50, 70)
        screen.dot((x - h * 0.42, y - h * 0.25), h * 0.48, red)
        screen.dot((x + h * 0.42, y - h * 0.25), h * 0.48, red)
        draw.polygon([((x - h * 0.88) * s, (y - h * 0.1) * s), ((x + h * 0.88) * s, (y - h * 0.1) * s),
                      (x * s, (y + h * 0.85) * s)], fill=red)  # fmt: skip
    elif char == "😊":
        screen.dot((x, y), h * 0.92, (255, 204, 77))
        for dx in (-0.32, 0.32):
            screen.dot((x + dx * h, y - h * 0.2), h * 0.11, (90, 60, 30))
        draw.arc(((x - h * 0.5) * s, (y - h * 0.35) * s, (x + h * 0.5) * s, (y + h * 0.55) * s), 20, 160,
                 fill=(90, 60, 30), width=max(1, round(h * 0.15 * s)))  # fmt: skip
    else:  # 🔥: a round base drawn up to a point, a yellow heart in it
        for colour, scale in (((245, 110, 30), 1.0), ((255, 200, 60), 0.55)):
            r, base = h * 0.62 * scale, y + h * (0.32 + 0.3 * (1 - scale))
            screen.dot((x, base), r, colour)
            tip = (x + h * 0.1 * scale, base - h * 1.25 * scale)
            draw.polygon([((x - r * 0.98) * s, (base - r * 0.2) * s), ((x + r * 0.98) * s, (base - r * 0.2) * s),
                          (tip[0] * s, tip[1] * s)], fill=colour)  # fmt: skip


def rich(
    screen: Screen, at: tuple[float, float], text: str, size: float, fill: RGB, *, font: Font | None = None
) -> None:
    """`text` from `at` (left, middle), its emoji drawn in colour."""
    x, y = at
    for run in _runs(text):
        if run in EMOJI:
            emoji(screen, run, (x + size * 0.6, y), size * 1.05)
            x += size * 1.2
        else:
            x += screen.text((x, y), run, size, fill, font=font)


def wrap(screen: Screen, text: str, width: float, size: float, font: Font | None = None) -> list[str]:
    """`text` broken as a chat app breaks it to fit `width`: at spaces in English, anywhere in Japanese."""
    lines: list[str] = []
    spaced = text.isascii()
    line = ""
    for part in text.split(" ") if spaced else list(text):
        joined = f"{line} {part}" if line and spaced else line + part
        if line and measure(screen, joined, size, font) > width:
            lines.append(line)
            line = part
        else:
            line = joined
    return [*lines, line]
