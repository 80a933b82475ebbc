"""A page's furniture, which names no card: a form's labels and the boxes of its header (氏名, CARD GAME ID, Qty,
枚数, 合計), notes (※…), web addresses, dates, page numbers, a blog's sidebar and prose. A line that is furniture is
listed among the lines passed over, never read as a card nor counted in a total; only a line whose name matched no
card for sure is ever taken for furniture, so `Judge Man` or `Total Defense Shogun` stay cards.
"""

from __future__ import annotations

import re
import unicodedata

from deckcheck.data import MAX_COPIES
from deckcheck.data.names import loose_key

# Labels of the OCG deck recipe, the TCG deck list, a site's print-out, a shop's form and an app, as printed.
LABELS = (
    "フリガナ", "氏名", "名前", "カード名", "枚数", "合計", "大会名", "日付", "開催日", "コナミID", "ユーザーID",
    "CARD GAME ID", "プレイヤー", "デッキ名", "デッキレシピ", "公認大会", "記入", "ジャッジ", "ショップ",
    "Qty", "Quantity", "Card Name", "First Name", "Last Name", "Player Name", "Event Name", "Event Date",
    "Country of Residence", "For Official Use", "Official Use", "Judge Initials", "Total", "Main Deck Total",
    "Deck Name", "Deck List", "Decklist", "Registration", "Printed", "Created", "Updated", "Deck Check Round",
    "Penalty", "Judge", "Notes", "Signature", "署名", "備考", "受付番号",
)  # fmt: skip
_LABELS = tuple(loose_key(label) for label in LABELS)
_URL = re.compile(r"https?:|www\.|\.(com|net|org|jp|io|gg)(/|\b)", re.IGNORECASE)
_DATE = re.compile(
    r"(19|20)\d\d\s*[/.\-]\s*\d{1,2}|\d{4}\s*年\s*\d{1,2}|\d{1,2}\s*月\s*\d{1,2}\s*日|"
    r"\b\d{1,2}/\d{1,2}/\d{2,4}\b|\b\d{1,2}:\d{2}\s*(?:am|pm)?\b|(?:午前|午後)\s*\d{1,2}:\d{2}|"
    r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?\s+(19|20)\d\d",
    re.IGNORECASE,
)
_PAGE = re.compile(r"^(page|p\.|ページ)?\s*\d{1,3}\s*(of|/|／)\s*\d{1,3}$|^[-‐–—]\s*\d{1,3}\s*[-‐–—]$", re.IGNORECASE)
# A page's links to its neighbours (`< 前へ 1 2 3 … 12 次へ >`, `« Prev 1 2 Next »`), and a year it begins with (a
# copyright whose © was lost, `2024 遊戯王デッキ構築ノート`): no card's name begins with a year.
_PAGING = re.compile(r"(前へ|前のページ|prev|previous|«|‹).*\d.*(次へ|次のページ|next|»|›)", re.IGNORECASE)
_YEAR = re.compile(r"^(19|20)\d\d(?!\d)")
_NOTE = ("※", "*", "＊", "注", "Note", "NOTE", "©", "(c)", "(C)", "Copyright", "copyright")
# A printed total: `Total Monster Cards: 17`, `Main Deck Total: 40`, `合計 17枚`, `モンスター 合計（17枚）`.
_TOTAL = re.compile(
    r"^(?:(?:total|合計|計)\s*(?P<after>.*?)|(?P<before>.*?)\s*(?:total|合計|計))\s*[:：]?\s*[(（]?\s*(?P<count>\d{1,3})\s*枚?\s*[)）]?$",
    re.IGNORECASE,
)
_LIST_MARKS = "《》「」『』×"  # what a list's card line is marked with, never a sidebar's


def _marked(folded: str) -> bool:
    return any(char in _LIST_MARKS for char in folded)


_PROSE_JA = ("。", "です", "ます", "でした", "ました", "ません", "ください")
PROSE_WORDS = 12  # an English line of more words than any card name has (11) that ends a sentence is prose
SCRAP = 2  # characters at most of a line with no count that names no card: no line of a deck
LIKE_A_CARD = 85.0  # the name search's score from which a line is taken for a misread card
PROSE_LENGTH = 70  # characters: longer than any card's name (63) with its count


def furniture(text: str, score: float, count: int | None) -> bool:
    """Whether a line that names no card for sure is the page's furniture rather than a card misread: a web
    address, a date, a page's number, a note or a copyright whatever it is near; a label, prose, a line with no count
    and no digit, or one with a count no deck holds and none of a list's marks (a blog's sidebar: `雑記 (13)`,
    `カテゴリー`) only where the name search's best guess for
    it scores below LIKE_A_CARD (a misread `Total Defense Shogun` is a card to review, not a label). `count` is the
    count printed on the line, None for none."""
    folded = " ".join(unicodedata.normalize("NFKC", text).split())
    if _never_a_card(folded, count):
        return True
    if score >= LIKE_A_CARD:
        return False
    listed = any(char.isdigit() or char in _LIST_MARKS for char in folded)
    if (count is None and not listed) or (count is not None and count > MAX_COPIES and not _marked(folded)):
        return True  # a sidebar's `カテゴリー` or `雑記 (13)`; never `《ンディライオン》メ1`, a card's line misread
    return _label(loose_key(folded.lstrip("0123456789 ・-*"))) or _prose(folded)


def _never_a_card(folded: str, count: int | None) -> bool:
    """Whether a line is no card's whatever it is near: a web address, a date, a page's number or its links to the
    others, a note or a copyright, a sentence (no card's name holds 。), a label whose field is empty (`Penalty:`:
    none ends so), or a scrap of prose or a speck with no count (`天`, `た`)."""
    found = (
        _URL.search(folded),
        _DATE.search(folded),
        _PAGE.match(folded),
        _PAGING.search(folded),
        _YEAR.match(folded),
    )
    marks = any(found) or folded.startswith(_NOTE)
    sentence = "。" in folded or folded.rstrip(".,・'` ").endswith((":", "：", "_"))  # a speck after the colon
    return not folded or bool(marks) or sentence or (count is None and len(loose_key(folded)) <= SCRAP)


def label(text: str) -> bool:
    """Whether a run is a form's label (`カード名`, `Qty`, `Card Name`), but for a fifth of its letters."""
    return _label(loose_key(unicodedata.normalize("NFKC", text)))


def _label(key: str) -> bool:
    """Whether a line's loose key begins with a label, but for a fifth of its letters (OCR's `FOR OFEICIAT USE`)."""
    from rapidfuzz.distance import Levenshtein  # noqa: PLC0415 - the name search's own library

    return any(
        key.startswith(label) or (len(label) >= 6 and Levenshtein.distance(key[: len(label)], label) <= len(label) // 5)
        for label in _LABELS
        if label
    )


def _prose(folded: str) -> bool:
    """Whether the line is a sentence: Japanese that ends or speaks as one, English words past any name's."""
    if any(mark in folded for mark in _PROSE_JA) or len(folded) > PROSE_LENGTH:
        return True
    words = folded.split()
    return len(words) >= PROSE_WORDS or (len(words) >= 6 and folded.endswith((".", "!", "?")) and "," in folded)


def total_line(text: str) -> tuple[str, int] | None:
    """What a printed total counts (`Monster Cards`, or "" for the table it closes) and its count; None for a line
    that is no total."""
    found = _TOTAL.match(" ".join(unicodedata.normalize("NFKC", text).split()))
    if found is None:
        return None
    return (found["after"] or found["before"] or "").strip(" :"), int(found["count"])
