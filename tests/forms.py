"""Deck registration forms drawn for the paper tests as the official ones are laid out: ruled tables whose counts
stand in a column of their own, left of the name (the TCG deck list, `Qty | Card Name`) or right of it (the OCG deck
recipe, `カード名 | 枚数`), tables side by side, headings over each table, printed totals apart from them, and the
form's own labels and fields around them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from fpdf import FPDF

SERIF = Path("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf")
MINCHO = Path("/usr/share/fonts/opentype/ipaexfont-mincho/ipaexm.ttf")
GOTHIC = Path(__file__).resolve().parent.parent / "service" / "deckcheck" / "paper" / "fonts" / "ipaexg.ttf"
ROW_MM = 6.0
COUNT_MM = 9.0


@dataclass(frozen=True, slots=True)
class Table:
    """One ruled table: where it stands (mm), its heading (None for a table printed without one), its rows of
    (count, name) and how many rows it has in all."""

    x: float
    y: float
    width: float
    heading: str | None
    rows: tuple[tuple[int, str], ...]
    size: int = 10
    total: str | None = None  # a total printed under the table, `Total Monster Cards: {0}`


def form_pdf(
    tables: Sequence[Table], labels: Sequence[tuple[float, float, str]], font: Path, count_left: bool
) -> bytes:
    """An A4 form of `tables`, counts left or right of the names, and `labels` (x mm, y mm, text) around them."""
    pdf = FPDF(unit="mm", format="A4")
    pdf.set_auto_page_break(auto=False)
    pdf.add_font("Form", fname=str(font))
    pdf.add_page()
    pdf.set_font("Form", size=9)
    for x, y, text in labels:
        pdf.text(x, y, text)
    for table in tables:
        _table(pdf, table, count_left)
    return bytes(pdf.output())


def _table(pdf: FPDF, table: Table, count_left: bool) -> None:
    x, y, width = table.x, table.y, table.width
    bottom = y + (table.size + 1) * ROW_MM
    if table.heading is not None:
        pdf.set_font("Form", size=10)
        pdf.text(x, y - 2, table.heading)
    pdf.set_font("Form", size=8)
    for row in range(table.size + 2):
        pdf.line(x, y + row * ROW_MM, x + width, y + row * ROW_MM)
    divider = x + COUNT_MM if count_left else x + width - COUNT_MM
    for at in (x, divider, x + width):
        pdf.line(at, y, at, bottom)
    count_x, name_x = (x + 3, x + COUNT_MM + 1.5) if count_left else (x + width - COUNT_MM + 3, x + 1.5)
    head = ("Qty", "Card Name") if count_left else ("枚数", "カード名")
    pdf.text(count_x - 2, y + 4.2, head[0])
    pdf.text(name_x, y + 4.2, head[1])
    for number, (count, name) in enumerate(table.rows, 1):
        pdf.text(count_x, y + number * ROW_MM + 4.2, str(count))
        pdf.text(name_x, y + number * ROW_MM + 4.2, name)
    if table.total is not None:
        pdf.text(x, bottom + 5, table.total.format(sum(count for count, _name in table.rows)))
