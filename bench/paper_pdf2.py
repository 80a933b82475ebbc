"""A deck list typed in a word processor and saved as a PDF of two pages, as players e-mail one: the `pdf2` kind of
bench/paper_forms.py, drawn with fpdf2.

Page 1 holds the document's title (the deck's name), a line of who, where and when, a rule, and the main deck; page
2 the extra and side decks, each section under a heading in the document's bold (`Main (40):`, `MAIN DECK - 40`,
`Main Deck (40)`, `■メインデッキ 40枚`, `【EXデッキ】(15)`, `メインデッキ（40枚）`), on every other document the
main deck's kinds under smaller headings of their own. A main deck too long for page 1 carries on at the top of page
2, as a word processor flows it, with no heading. The cards are set a line each, in one of three styles by variant,
as a word processor sets them:

- tab stops: the name at the margin, the count right-aligned at a tab stop near the right margin (`3`, `3枚`, `×3`);
- dot leaders: the same with dots leading from the name to the count (`灰流うらら ............ 3枚`), the dots typed
  into the text as a word processor's leader tab writes them;
- numbered lines: a list's number, the name after a hanging indent, the count after it (`1. Ash Blossom & Joyous
  Spring ×3`, `12. 増殖するG x3`), numbered through each section or on through the deck.

Each page has its number at the foot (`- 1 -`, `1 / 2`, `Page 1 of 2`), and every other document a running header
of the deck's and the player's names. Japanese documents on A4 in a Mincho or Gothic, English ones on A4 or Letter
in Liberation, DejaVu Serif or DejaVu Sans. The text layer is the word processor's: every run (a number, a name, a
leader, a count) a text object of its own at its place.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from bench.paper_forms_draw import (
    EN_FONTS,
    JA_FONTS,
    KINDS,
    POINT,
    Canvas,
    DoesNotFit,
    Drawn,
    Entries,
    Font,
    FormDeck,
    copies,
    main_truth,
    truth,
)

_DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
PDF2_FONTS = {
    "ja": JA_FONTS,
    "en": (*EN_FONTS, Font("DejaVu Sans", _DEJAVU / "DejaVuSans.ttf", "en", _DEJAVU / "DejaVuSans-Bold.ttf")),
}
HEADS = {
    "ja": (
        ("■メインデッキ {n}枚", "■エクストラデッキ {n}枚", "■サイドデッキ {n}枚"),
        ("【メインデッキ】({n})", "【EXデッキ】({n})", "【サイドデッキ】({n})"),
        ("メインデッキ（{n}枚）", "エクストラデッキ（{n}枚）", "サイドデッキ（{n}枚）"),
    ),
    "en": (
        ("Main ({n}):", "Extra ({n}):", "Side ({n}):"),
        ("MAIN DECK - {n}", "EXTRA DECK - {n}", "SIDE DECK - {n}"),
        ("Main Deck ({n})", "Extra Deck ({n})", "Side Deck ({n})"),
    ),
}
KIND_HEADS = {
    "ja": ("モンスター（{n}）", "魔法（{n}）", "罠（{n}）"),
    "en": ("Monsters ({n})", "Spells ({n})", "Traps ({n})"),
}
COUNTS: dict[str, tuple[Callable[[int], str], ...]] = {
    "ja": (lambda n: f"{n}枚", str, lambda n: f"×{n}"),
    "en": (str, lambda n: f"x{n}", lambda n: f"×{n}"),
}
FOOTERS: tuple[Callable[[int], str], ...] = (lambda k: f"- {k} -", lambda k: f"{k} / 2", lambda k: f"Page {k} of 2")
STYLES = ("tab", "leader", "numbered")
Item = tuple[str, str, int]  # what a line is (head, kind, card, break, gap), its text, its count


def _items(deck: FormDeck, lang: str, variant: int) -> list[Item]:
    """The document's lines in order, a page break before the extra deck (or the side deck where there is no extra
    deck, or halfway down the main deck where there is neither)."""
    items: list[Item] = []
    heads = HEADS[lang][(variant + 1) % 3]
    for k, entries in enumerate((deck.by_kind(), deck.extra, deck.side)):
        if not entries:
            continue
        items.append(("break" if k == 1 or (k == 2 and not deck.extra) else "gap", "", 0))
        items.append(("head", heads[k].format(n=copies(entries)), 0))
        if k == 0 and variant // 2 % 2 == 1:
            for word, kind in zip(KIND_HEADS[lang], KINDS, strict=True):
                held = deck.kind(kind)
                if held:
                    items.append(("kind", word.format(n=copies(held)), 0))
                    items += _cards(held, lang)
        else:
            items += _cards(entries, lang)
    if not any(what == "break" for what, _, _ in items):
        cards = [n for n, (what, _, _) in enumerate(items) if what == "card"]
        items.insert(cards[len(cards) // 2], ("break", "", 0))
    return items


def _cards(entries: Entries, lang: str) -> list[Item]:
    return [("card", card.name(lang), n) for card, n in entries]


def two_pages(deck: FormDeck, font: Font, variant: int) -> Drawn:
    """The deck typed in a word processor, a PDF of two pages."""
    lang = font.lang
    size = (210.0, 297.0) if lang == "ja" or variant % 2 == 0 else (215.9, 279.4)
    title = deck.title_ja if lang == "ja" else deck.title_en
    canvas = Canvas(size, font, font, deck.player.date, title)
    style, count = STYLES[variant % 3], COUNTS[lang][variant // 2 % 3]
    left, right = 25.0, size[0] - 25.0
    body = 10.5 if lang == "ja" else 11.0
    items = _items(deck, lang, variant)
    for pitch in (body * POINT * 1.5, body * POINT * 1.35, body * POINT * 1.2):
        if _pages(items, pitch, size[1]) <= 2:
            break
    else:
        raise DoesNotFit("the deck is longer than two pages")
    page, number = 1, 0
    _furniture(canvas, deck, lang, variant, page)
    y = _document_head(canvas, deck, lang, variant, pitch)
    for what, text, n in items:
        if what == "break" or y + _step(what, pitch) > size[1] - 25:
            canvas.pdf.add_page()
            page, y = page + 1, 25.0
            _furniture(canvas, deck, lang, variant, page)
            if what == "break":
                continue
        y += _step(what, pitch)
        if what == "head" and variant % 4 < 2:  # numbered through each section, or on through the deck
            number = 0
        if what in ("head", "kind"):
            canvas.text(left, y, text, body + (1.5 if what == "head" else 0.5), bold=True)
        elif what == "card":
            number += 1
            _card(canvas, (left, right, y), text, count(n), style=style, number=number, size=body)
    if page != 2:
        raise DoesNotFit(f"the document took {page} pages")
    return canvas.output(), (*main_truth(deck), *truth("extra", deck.extra), *truth("side", deck.side))


HEAD = 25.0 + 6 + 4 + 3  # the title's room at the head of page 1, its line of who, where and when aside


def _document_head(canvas: Canvas, deck: FormDeck, lang: str, variant: int, pitch: float) -> float:
    """The title (centred, or at the margin on odd variants), the line of who, where and when, and a rule under
    them; where they end."""
    player = deck.player
    if lang == "ja":
        when = f"{player.date.year}年{player.date.month}月{player.date.day}日"
        meta = f"プレイヤー名：{player.name_ja}　　大会：{player.event_ja}　　日付：{when}"
    else:
        meta = f"Player: {player.first} {player.last}    Event: {player.event_en}    Date: {player.date:%m/%d/%Y}"
    title = deck.title_ja if lang == "ja" else deck.title_en
    left, right = 25.0, canvas.width - 25.0
    at, align = (left, "L") if variant % 2 else (canvas.width / 2, "C")
    canvas.text(at, 31, title, 17, bold=True, align=align)
    canvas.text(left, 35 + pitch, meta, 9.5, width=right - left)
    canvas.rule(left, HEAD + pitch, right, HEAD + pitch, weight=0.3)
    return HEAD + pitch


def _step(what: str, pitch: float) -> float:
    """How far down a line of the list sets its baseline from the last one's."""
    return {"gap": 0.6, "head": 1.2, "kind": 1.05}.get(what, 1.0) * pitch


def _pages(items: list[Item], pitch: float, height: float) -> int:
    """The pages the items take at `pitch` mm a line."""
    pages, y = 1, HEAD + pitch
    for what, _, _ in items:
        if what == "break" or y + _step(what, pitch) > height - 25:
            pages, y = pages + 1, 25.0
        y += 0 if what == "break" else _step(what, pitch)
    return pages


def _card(
    canvas: Canvas, at: tuple[float, float, float], name: str, count: str, *, style: str, number: int, size: float
) -> None:
    """A card's line in the document's style: the count at a right tab stop (after dot leaders or not), or a
    numbered line with the count after the name."""
    left, right, y = at
    stop = right - 8
    if style == "numbered":
        canvas.text(left + 7, y, f"{number}.", size, align="R")
        end = left + 9 + canvas.width_of(name, size)
        canvas.text(left + 9, y, name, size)
        canvas.text(end + canvas.width_of(" ", size), y, count, size)
        return
    canvas.text(left + 4, y, name, size)
    if style == "leader":
        start = left + 4 + canvas.width_of(name + " ", size)
        end = stop - canvas.width_of(count, size) - canvas.width_of(" ", size)
        dots = int((end - start) / canvas.width_of(".", size))
        if dots > 0:
            canvas.text(start, y, "." * dots, size)
    canvas.text(stop, y, count, size, align="R")


def _furniture(canvas: Canvas, deck: FormDeck, lang: str, variant: int, page: int) -> None:
    """A page's number at its foot and, on every other document, the running header."""
    width, height = canvas.width, canvas.height
    canvas.text(width / 2, height - 12, FOOTERS[variant % 3](page), 9, align="C")
    if variant % 3 != 1:
        player = deck.player
        who = player.name_ja if lang == "ja" else f"{player.first} {player.last}"
        title = deck.title_ja if lang == "ja" else deck.title_en
        canvas.text(width - 25, 14, f"{title} / {who}", 8, align="R", grey=90)
