"""Sheets an earlier reader (Tesseract's page reading) got wrong, read whole: a `1` before a name dropped or read as
a letter, plain lines its layout analysis passed over. Two real decks of the benchmark's corpus
(bench/paper_corpus.py, decks 6 and 35) whose sheets it misread so, each printed and rasterised as the benchmark
does; the reader that finds every run of text wherever it stands reads them whole."""

from __future__ import annotations

from collections import Counter
from typing import Any

import httpx
import pytest

from tests.test_paper import _bytes, _png, _read, _without_qr

# bench/paper_corpus.py's deck 6 (English): a Tesseract reading of its page drops 11 of its `1`s before a name.
DECK_6 = {
    "main": [
        (40640057, 2), (35712107, 3), (91782219, 3), (55337339, 1), (66707058, 2), (22567609, 2), (33734439, 1),
        (44954628, 3), (21347810, 3), (7572887, 1), (83269557, 1), (64511793, 3), (62121, 1), (44913552, 3),
        (72520073, 1), (38369349, 1), (90582719, 1), (68215963, 1), (24508238, 2), (56570271, 1), (85087012, 1),
        (17132130, 1), (23557835, 1), (90502999, 3), (38411870, 1), (62279055, 1), (94212438, 3), (57270476, 1),
        (64697231, 1), (30241314, 2),
    ],
    "extra": [(81003500, 1), (58332301, 2), (45231177, 3), (81197327, 1), (22160245, 3), (52031567, 2), (33691040, 3)],
    "side": [(28985331, 3), (20781762, 3), (81332143, 3)],
}  # fmt: skip
# Deck 35 (Japanese): its reading passes over three lines in a row (1 ニュート, 1 サイバー・ダーク・ホーン,
# 2 静寂の聖者) and drops or misreads the `1` of eleven more.
DECK_35 = {
    "main": [
        (68881649, 3), (32933942, 1), (51838385, 2), (78636495, 1), (41230939, 1), (26669055, 2), (7572887, 1),
        (54514594, 1), (39180960, 1), (84133008, 3), (64379430, 3), (35781051, 3), (86652646, 2), (20394040, 1),
        (62210247, 2), (15341821, 1), (64500000, 3), (88435542, 1), (56570271, 1), (65623423, 1), (98494543, 2),
        (46910446, 1), (42703248, 1), (41142615, 1), (78577570, 1), (83746708, 2), (65169794, 3), (1801154, 1),
        (97077563, 1), (35539880, 2), (95451366, 1), (28604635, 2), (4923662, 2), (92408984, 3),
    ],
    "extra": [(86346643, 2), (1546123, 2), (13857930, 1), (74157028, 1), (9910360, 3), (17881964, 3), (48156348, 1)],
    "side": [(78868776, 1), (57827484, 1), (73079365, 1), (22046459, 1), (50140163, 2), (97169186, 1)],
}  # fmt: skip
FIELDS_35 = {
    "player_name": "山田 太郎",
    "player_furigana": "ヤマダ タロウ",
    "player_id": "0000000035",
    "event": "第3回 地区予選",
    "date": "2008-06-01",
    "format": "ocg",
}


def _deck(lines: dict[str, list[tuple[int, int]]]) -> dict[str, Any]:
    return {s: [{"passcode": p, "count": c} for p, c in lines[s]] for s in ("main", "extra", "side")}


def _page(client: httpx.Client, deck: dict[str, Any], lang: str, **fields: Any) -> bytes:
    pdf = client.post("/v1/decks/convert", json={**deck, "to": "sheet", "names": lang, "sheet": fields})
    assert pdf.status_code == 200, pdf.text
    return _bytes(_without_qr(_png(pdf.content, 300), 300))


@pytest.mark.slow
def test_an_english_sheet_whose_ones_tesseract_drops_reads_back_exactly(client: httpx.Client) -> None:
    deck = _deck(DECK_6)
    read = _read(client, _page(client, deck, "en"), "image/png")
    assert read["source"] == "ocr"
    assert [(line["text"], line["reasons"]) for line in read["lines"] if line["needs_review"]] == []
    assert _counts(read["deck"]) == _counts(deck)
    assert read["complete"] is True


def _counts(deck: dict[str, Any]) -> dict[str, Counter[tuple[int, int]]]:
    return {s: Counter((e["passcode"], e.get("count", 1)) for e in deck[s]) for s in ("main", "extra", "side")}


@pytest.mark.slow
def test_a_japanese_sheet_whose_lines_tesseract_passes_over_has_every_line_read(client: httpx.Client) -> None:
    deck = _deck(DECK_35)
    read = _read(client, _page(client, deck, "ja", **FIELDS_35), "image/png", "ja")
    got = Counter((line["section"], line["passcode"], line["count"]) for line in read["lines"])
    truth = Counter((s, p, c) for s, lines in DECK_35.items() for p, c in lines)
    assert truth - got == Counter()  # every true line read, its card, count and section right (some to review)
    assert [t["text"] for t in read["totals"] if not t["agrees"]] == []
    names = {line["name_ja"] for line in read["lines"] if not line["needs_review"]}
    assert {"ニュート", "サイバー・ダーク・ホーン", "静寂の聖者"} <= names
