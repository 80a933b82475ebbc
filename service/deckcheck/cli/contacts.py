"""The decks an organiser must contact after a recheck, as a CSV file (`deckcheck recheck --report FILE.csv`): one
row per deck that is not legal, read from the result lines themselves, so the file says what the results say.

Each row: the input line's number, the deck's id, the line's own fields (a column each), the verdict (newly illegal,
still illegal, illegal, or not read), the penalty, each cause in words and each cause's cards (one line of the cell
per violation, the cards on the same line as their cause). Every word is in the recheck's language.

The own-field columns are the union of the fields of the rows, in the order they are first seen, so the header can be
written only once every row is known: rows wait in a temporary file (flat memory on a million decks), and the CSV is
written at the end beside its place and renamed into it. Fields first seen once MAX_COLUMNS columns are taken share
one last column, as JSON. The file is UTF-8 with a byte order mark: without it, Excel in Japan reads a CSV as
Shift_JIS and every Japanese name turns to mojibake (the desk's queue CSV carries one for the same reason).
"""

from __future__ import annotations

import csv
import os
import tempfile
from pathlib import Path
from types import TracebackType
from typing import Any

import orjson

from deckcheck.cli.output import words
from deckcheck.spreadsheet import CSV_ENCODING, as_text

MAX_COLUMNS = 64  # own-field columns; the fields first seen past them share one last column
# How a legal deck's result line ends: its empty violations (an illegal deck has some), and what the previous list
# said. Such a line is passed over unread; any other is read, and kept unless its verdict is legal after all.
_LEGAL_ENDS = tuple(
    b'"violations":[]' + tail + b"}"
    for tail in (b"", b',"legal_before":true,"newly_illegal":false', b',"legal_before":false,"newly_illegal":false')
)
_VERDICTS = {
    "newly_illegal": "verdict_newly_illegal",
    "still_illegal": "verdict_still_illegal",
    "illegal": "illegal",
    None: "verdict_not_read",  # an error line
}


class ContactList:
    """The rows of the decks not legal, kept as result lines pass, then written as CSV to `path` (use as a context
    manager: the waiting rows are let go however the recheck ends)."""

    def __init__(self, path: Path, lang: str) -> None:
        """A list for `path`, in `lang`."""
        self.path = path
        self.lang = lang
        self.rows = 0
        self.columns: dict[str, None] = {}  # the own fields' names, in the order first seen
        self.overflow = False  # some row has a field past MAX_COLUMNS
        self.waiting = tempfile.TemporaryFile()  # noqa: SIM115 - closed by __exit__

    def __enter__(self) -> ContactList:
        """The list."""
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, trace: TracebackType | None
    ) -> None:
        """Let the waiting rows go."""
        self.waiting.close()

    def add(self, lines: bytes) -> None:
        """Keep the row of each result or error line of `lines` (whole lines) whose deck is not legal."""
        for line in lines.splitlines():
            if line.endswith(_LEGAL_ENDS):
                continue
            result = orjson.loads(line)
            verdict = result.get("verdict")
            if verdict == "legal":
                continue
            fields: dict[str, Any] = result.get("fields") or {}
            for name in fields:
                if name not in self.columns:
                    if len(self.columns) < MAX_COLUMNS:
                        self.columns[name] = None
                    else:
                        self.overflow = True
            if "error" in result:
                causes, cards = [error["msg"] for error in result["error"]["errors"]], []
            else:
                causes = [v["message"] for v in result["violations"]]
                cards = [", ".join(f"{c['name']} ×{c['count']}" for c in v["cards"]) for v in result["violations"]]
            row = [result["line"], result["id"], fields, verdict, result.get("penalty"), causes, cards]
            self.waiting.write(orjson.dumps(row) + b"\n")
            self.rows += 1

    def write(self) -> None:
        """Write the CSV file: the header, then every kept row in input order."""
        header = [words(self.lang, key) for key in ("column_line", "column_id")]
        header += [as_text(name) for name in self.columns]
        header += [
            words(self.lang, key) for key in ("column_verdict", "column_penalty", "column_causes", "column_cards")
        ]
        if self.overflow:
            header.append(words(self.lang, "column_other_fields"))
        self.waiting.seek(0)
        with tempfile.NamedTemporaryFile(
            "w", encoding=CSV_ENCODING, newline="", dir=self.path.parent, prefix=f".{self.path.name}.", delete=False
        ) as out:
            try:
                writer = csv.writer(out)
                writer.writerow(header)
                writer.writerows(self._cells(orjson.loads(row)) for row in self.waiting)
            except BaseException:
                os.unlink(out.name)
                raise
        os.replace(out.name, self.path)

    def _cells(self, row: list[Any]) -> list[str]:
        number, deck_id, fields, verdict, penalty, causes, cards = row
        cells = [str(number), _cell(deck_id), *(_cell(fields.get(name)) for name in self.columns)]
        cells += [
            words(self.lang, _VERDICTS[verdict]),
            "" if penalty is None else words(self.lang, penalty),
            as_text("\n".join(causes)),  # a cause may begin with a card's name, which imported cards give
            as_text("\n".join(cards)),  # and a name a deck wrote that names no card is listed as written
        ]
        if self.overflow:
            other = {name: value for name, value in fields.items() if name not in self.columns}
            cells.append(orjson.dumps(other).decode() if other else "")
        return cells


def _cell(value: Any) -> str:
    """A value of a line as a cell: text as it is (guarded), nothing for null, anything else as its JSON."""
    if value is None:
        return ""
    return as_text(value) if isinstance(value, str) else orjson.dumps(value).decode()
