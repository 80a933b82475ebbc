"""A two-page document as players type it in a word processor and scan it: numbered lines, the name, dot leaders and
`3枚` at a tab stop, the Main Deck on page 1 and the Extra and Side Decks on page 2, sent as a PDF of images only.
Over HTTP with the service's own read budget (20 s): it reads whole, every line's card and section right, every count
right or flagged (the list numbers never taken for counts), and `/healthz` answers while the pages are read."""

from __future__ import annotations

import io
import shutil
import subprocess
import threading
from pathlib import Path

import httpx
import pytest
from fpdf import FPDF
from PIL import Image

from deckcheck.paper import ocr
from tests.forms import GOTHIC
from tests.test_paper import _read

pytestmark = pytest.mark.skipif(
    not (shutil.which("pdftoppm") and ocr.available()),
    reason="poppler-utils or Tesseract's language data are missing: run `bash scripts/system-deps` as root",
)

PAGES = (
    (
        ("メインデッキ", "main"),
        (
            (3, "ブラック・マジシャン"),
            (3, "熟練の黒魔術師"),
            (2, "ヂェミナイ・エルフ"),
            (1, "キラー・トマト"),
            (1, "死者蘇生"),
            (3, "エネミーコントローラー"),
            (2, "炸裂装甲"),
        ),
    ),
    (
        ("エクストラデッキ", "extra"),
        ((1, "スターダスト・ドラゴン"),),
    ),
    (
        ("サイドデッキ", "side"),
        ((3, "ゴブリン突撃部隊"), (2, "聖なるバリア －ミラーフォース－")),
    ),
)


def _typed() -> bytes:
    """The document as typed: the Main Deck on page 1, the Extra and Side Decks on page 2."""
    pdf = FPDF(unit="mm", format="A4")
    pdf.set_auto_page_break(auto=False)
    pdf.add_font("gothic", fname=str(GOTHIC))
    pages = (PAGES[:1], PAGES[1:])
    for sections in pages:
        pdf.add_page()
        y = 25.0
        for (heading, _section), lines in sections:
            pdf.set_font("gothic", size=14)
            pdf.text(20, y, f"{heading}（{sum(count for count, _name in lines)}枚）")
            y += 10
            pdf.set_font("gothic", size=11)
            for number, (count, name) in enumerate(lines, start=1):
                label = f"{number}. {name} "
                pdf.text(22, y, label)
                leaders = pdf.get_string_width(label)
                dots = "." * int((150 - leaders) / pdf.get_string_width("."))
                pdf.text(22 + leaders, y, dots)
                pdf.text(175, y, f"{count}枚")
                y += 8
            y += 8
    return bytes(pdf.output())


def _scanned(pdf: bytes, folder: Path) -> bytes:
    """The document scanned at 200 dpi into a PDF of images, with no text layer."""
    (folder / "typed.pdf").write_bytes(pdf)
    subprocess.run(
        ["pdftoppm", "-r", "200", "-gray", "-png", str(folder / "typed.pdf"), str(folder / "page")], check=True
    )
    pages = [Image.open(path).convert("L") for path in sorted(folder.glob("page*.png"))]
    out = io.BytesIO()
    pages[0].save(out, "PDF", resolution=200, save_all=True, append_images=pages[1:])
    return out.getvalue()


def test_a_two_page_scan_of_dot_leaders_reads_whole_within_the_budget_while_healthz_answers(
    client: httpx.Client, tmp_path: Path
) -> None:
    health: list[int] = []
    stop = threading.Event()

    def poll() -> None:
        while not stop.is_set():
            health.append(client.get("/healthz").status_code)
            stop.wait(0.5)

    poller = threading.Thread(target=poll)
    poller.start()
    try:
        read = _read(client, _scanned(_typed(), tmp_path), "application/pdf", lang="ja")
    finally:
        stop.set()
        poller.join()
    lines = [(line["section"], line["passcode"]) for line in read["lines"]]
    expected = [(section, count, _card(client, name)) for (_h, section), rows in PAGES for count, name in rows]
    assert lines == [(section, card) for section, _count, card in expected]
    # Every count read right or flagged, never wrong in the deck; the counts' second reader may doubt one or two
    # (the library versions the floors run at read a Mincho `3` less surely).
    counts = [(line["count"], line["needs_review"]) for line in read["lines"]]
    assert all(review or count == want for (count, review), (_s, want, _c) in zip(counts, expected, strict=True))
    assert sum(not review for _count, review in counts) >= len(expected) - 2
    assert len(health) >= 2
    assert set(health) == {200}


def _card(client: httpx.Client, name: str) -> int:
    """The passcode a name stands for, as the service resolves it."""
    answer = client.post("/v1/decks/parse", json={"text": f"1 {name}"})
    assert answer.status_code == 200, answer.text
    return int(answer.json()["main"][0]["passcode"])
