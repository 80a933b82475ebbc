"""Forms as players hand them in, over HTTP: the TCG deck list (tables side by side, `Qty | Card Name`, Side and
Extra tables below, totals apart) and the OCG deck recipe (`カード名 | 枚数` in Mincho), each as the PDF typed in
(read from its text, no OCR) and as a 300 dpi scan. Every line's card, count and section are asserted whole; a
table whose heading is not on the page is never put in the deck unflagged."""

from __future__ import annotations

import shutil
from typing import Any

import httpx
import pytest

from deckcheck.paper import ocr
from tests.forms import GOTHIC, MINCHO, SERIF, Table, form_pdf
from tests.test_paper import _bytes, _png, _read

pytestmark = pytest.mark.skipif(
    not (shutil.which("pdftoppm") and shutil.which("pdftotext") and ocr.available()),
    reason="poppler-utils or Tesseract's language data are missing: run `bash scripts/system-deps` as root",
)

TCG = {
    "Monster Cards": ((3, "Dark Magician"), (3, "Skilled Dark Magician"), (2, "Gemini Elf"), (1, "Giant Rat")),
    "Spell Cards": ((1, "Monster Reborn"), (3, "Enemy Controller"), (2, "Magical Dimension")),
    "Trap Cards": ((3, "Sakuretsu Armor"), (1, "Bottomless Trap Hole")),
    "Side Deck": ((3, "Vorse Raider"), (2, "Mystic Tomato")),
    "Extra Deck": ((1, "Stardust Dragon"), (2, "Elemental HERO Flame Wingman")),
}
OCG = {
    "モンスターカード": ((3, "ブラック・マジシャン"), (2, "ヂェミナイ・エルフ"), (1, "キラー・トマト")),
    "魔法カード": ((1, "死者蘇生"), (3, "エネミーコントローラー")),
    "罠カード": ((2, "炸裂装甲"),),
    "エクストラデッキ": ((1, "スターダスト・ドラゴン"),),
    "サイドデッキ": ((3, "ゴブリン突撃部隊"),),
}
SECTION = {"Side Deck": "side", "Extra Deck": "extra", "エクストラデッキ": "extra", "サイドデッキ": "side"}


def _tcg(headed: bool = True) -> bytes:
    names = list(TCG)
    tables = [
        Table(15 + 63 * n, 45, 57, name, TCG[name], 12, f"Total {name}: {{0}}") for n, name in enumerate(names[:3])
    ]
    tables += [Table(15 + 92 * n, 155, 88, name, TCG[name], 10) for n, name in enumerate(names[3:])]
    if not headed:
        tables[3] = Table(15, 155, 88, None, TCG["Side Deck"], 10)
    labels = [(15, 15, "DECK REGISTRATION SHEET"), (15, 25, "First Name: Taro"), (110, 25, "CARD GAME ID: 0000000035")]
    labels += [(15, 32, "Event Name: Regional Qualifier"), (15, 285, "FOR OFFICIAL USE ONLY  Judge Initials:")]
    return form_pdf(tables, labels, SERIF, count_left=True)


def _ocg() -> bytes:
    font = MINCHO if MINCHO.is_file() else GOTHIC
    place = {"モンスターカード": (15, 45), "魔法カード": (110, 45), "罠カード": (110, 120)}
    place |= {"エクストラデッキ": (15, 200), "サイドデッキ": (110, 200)}
    tables = [
        Table(x, y, 85, f"{name}（{sum(c for c, _n in OCG[name])}枚）", OCG[name], 8) for name, (x, y) in place.items()
    ]
    labels = [(15, 15, "デッキレシピ"), (15, 25, "氏名　山田 太郎"), (110, 25, "CARD GAME ID 0000000035")]
    labels += [(15, 285, "※カード名は正式名称で記入してください。")]
    return form_pdf(tables, labels, font, count_left=False)


def _expected(tables: dict[str, tuple[tuple[int, str], ...]], lang: str) -> list[tuple[str, int, str]]:
    return sorted((SECTION.get(name, "main"), count, card) for name, rows in tables.items() for count, card in rows)


def _lines(answer: dict[str, Any], lang: str) -> list[tuple[str, int, str]]:
    return sorted((line["section"], line["count"] or 0, line[f"name_{lang}"] or "") for line in answer["lines"])


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["text", "scan"])
@pytest.mark.parametrize("form", ["tcg", "ocg"])
def test_a_form_reads_with_every_line_in_its_own_table_section(client: httpx.Client, form: str, kind: str) -> None:
    pdf, tables, lang = (_tcg(), TCG, "en") if form == "tcg" else (_ocg(), OCG, "ja")
    content, media = (pdf, "application/pdf") if kind == "text" else (_bytes(_png(pdf, 300)), "image/png")
    answer = _read(client, content, media, lang)
    assert answer["source"] == ("text" if kind == "text" else "ocr")
    expected = _expected(tables, lang)
    if kind == "text" or form == "tcg":  # typed, or printed in a serif Tesseract reads: every line right and sure
        assert _lines(answer, lang) == expected
        assert [line["reasons"] for line in answer["lines"]] == [[]] * len(answer["lines"])
        assert answer["complete"] is True
    else:  # Mincho kanji Tesseract misreads (炸裂 as 燈像): in its section, with its count, its name flagged
        assert len(answer["lines"]) == len(expected)
        sure = [line for line in answer["lines"] if not line["needs_review"]]
        assert len(sure) >= len(expected) // 2
        assert {(line["section"], line["count"], line["name_ja"]) for line in sure} <= set(expected)
        flagged = [line["reasons"] for line in answer["lines"] if line["needs_review"]]
        assert all(set(reasons) <= {"unknown_card", "low_confidence", "read_loosely"} for reasons in flagged)
    assert [total["agrees"] for total in answer["totals"]] == [True] * (3 if form == "tcg" else 5)
    ignored = " ".join(line["text"] for line in answer["ignored"])
    for label in ("Qty", "Total Monster Cards", "CARD GAME ID") if form == "tcg" else ("枚数", "氏名", "※"):
        assert label in ignored


@pytest.mark.slow
def test_a_form_total_printed_apart_is_held_to_its_own_table(client: httpx.Client) -> None:
    answer = _read(client, _tcg(), "application/pdf")
    printed = {total["text"]: (total["printed"], total["read"]) for total in answer["totals"]}
    assert printed == {"Monster Cards": (9, 9), "Spell Cards": (6, 6), "Trap Cards": (4, 4)}
    assert answer["deck"]["side"] != []
    assert answer["deck"]["extra"] != []


@pytest.mark.slow
def test_a_table_whose_heading_is_missing_is_never_put_in_the_deck(client: httpx.Client) -> None:
    answer = _read(client, _tcg(headed=False), "application/pdf")
    unclear = [(line["count"], line["name_en"]) for line in answer["lines"] if "section_unclear" in line["reasons"]]
    assert unclear == [(3, "Vorse Raider"), (2, "Mystic Tomato")]
    assert answer["deck"]["side"] == []
    sure = sorted((s, e["count"]) for s in ("main", "extra") for e in answer["deck"][s])
    assert sum(count for _s, count in sure) == 9 + 6 + 4 + 3
    assert answer["complete"] is False
