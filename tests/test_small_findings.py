"""Issue 36's small findings, each against the real thing: the CSV of decks to contact keeps names that begin as
formulas as text in its causes and cards columns; a local Dask cluster whose worker dies while it starts ends the
recheck with its own exit status and one line; a recheck refused by admission reads its body before its 503, so a
client that sends before it reads (urllib) gets the 503 and not a reset; and a recheck cut by the shutdown timeout
ends its answer cleanly and leaves its access-log line and no traceback."""

from __future__ import annotations

import csv
import io
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

import httpx
import orjson
import pytest

from deckcheck.cli import run
from deckcheck.cli.output import EXIT_FAILED, EXIT_ILLEGAL
from tests.served import Served, serving

pytestmark = pytest.mark.server

RECHECK = ["recheck", "--date", "2008-09-01"]
# Thirty-nine cards legal on 2008-09-01: a deck of forty with one card more, the one a test names.
LEGAL_39 = "".join(
    f"3 {name}\n"
    for name in (
        "Dark Magician",
        "Blue-Eyes White Dragon",
        "Celtic Guardian",
        "Summoned Skull",
        "Kuriboh",
        "Gaia The Fierce Knight",
        "Curse of Dragon",
        "Feral Imp",
        "Giant Soldier of Stone",
        "Mystical Elf",
        "Beaver Warrior",
        "Silver Fang",
        "Battle Ox",
    )
)
CARD_COLUMNS = (
    "passcode,alias,official,name_ja,name_en,kind,extra_deck_type,pendulum,ocg,tcg,"
    "ja_first_print,ja_first_print_exact,tcg_first_print,tcg_first_print_exact"
)
LINE = b'{"id": 1, "ydke": "ydke://!!!"}\n'


def _deckcheck(*argv: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`python -m deckcheck ARGV` in a process of its own, with `env` added to the environment."""
    return subprocess.run(
        [sys.executable, "-m", "deckcheck", *argv],
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=300,
        check=False,
    )


def _run(*argv: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    """`deckcheck ARGV` through the command line's own run(), in this process, with `env` added to the environment:
    its exit status, standard output and standard error."""
    out, err = io.StringIO(), io.StringIO()
    with mock.patch.dict(os.environ, env or {}):
        code = run(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def _csv(path: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO(path.read_bytes().decode("utf-8-sig"), newline="")))


def _store(path: Path, texts: list[str]) -> Path:
    path.write_bytes(b"".join(orjson.dumps({"id": f"d{n}", "text": text}) + b"\n" for n, text in enumerate(texts)))
    return path


def test_names_that_begin_as_formulas_stay_text_in_the_cards_column(tmp_path: Path) -> None:
    """A deck's card name that names no card is listed in the cards column as written: one that begins with = + - or
    @ began the cell as a formula a spreadsheet runs (the id and own-field columns were guarded, not this one)."""
    names = ["=SUM(A1)", "+SUM(A1)", "-SUM(A1)", "@SUM(A1)", "Plain Unknown"]
    store = _store(tmp_path / "decks.ndjson", [f"1 {name}\n{LEGAL_39}" for name in names])
    results, report = tmp_path / "results.ndjson", tmp_path / "contact.csv"
    code, out, err = _run(*RECHECK, "--out", str(results), "--report", str(report), str(store))
    assert (code, out) == (EXIT_ILLEGAL, ""), err
    *lines, _summary = [orjson.loads(line) for line in results.read_bytes().splitlines()]
    assert [[v["code"] for v in line["violations"]] for line in lines] == [["unknown_card"]] * len(names)
    causes = [line["violations"][0]["message"] for line in lines]
    assert _csv(report) == [
        ["line", "id", "verdict", "penalty", "causes", "cards"],
        ["1", "d0", "illegal", "duel forfeiture", causes[0], "'=SUM(A1) ×1"],
        ["2", "d1", "illegal", "duel forfeiture", causes[1], "'+SUM(A1) ×1"],
        ["3", "d2", "illegal", "duel forfeiture", causes[2], "'-SUM(A1) ×1"],
        ["4", "d3", "illegal", "duel forfeiture", causes[3], "'@SUM(A1) ×1"],
        ["5", "d4", "illegal", "duel forfeiture", causes[4], "Plain Unknown ×1"],
    ]
    assert causes[0].startswith("The name '=SUM(A1)' does not name an official card.")


def test_an_imported_card_named_as_a_formula_stays_text_in_causes_and_cards(tmp_path: Path) -> None:
    """An imported card's name begins a cause ("NAME is a Fusion Monster; …") and the cards cell: both guarded."""
    updates = tmp_path / "updates"
    updates.mkdir()
    env = {"DECKCHECK_UPDATES_DIR": str(updates)}
    cards = tmp_path / "cards.csv"
    fusion = "990000001,0,1,=融合テスト,=Fusion Test,monster,fusion,0,1,1,2000-01-01,1,2000-01-01,1"
    cards.write_text(f"{CARD_COLUMNS}\n{fusion}\n", encoding="utf-8")
    added, _out, err = _run("data", "add-cards", str(cards), env=env)
    assert added == 0, err
    store = _store(tmp_path / "decks.ndjson", [f"1 =Fusion Test\n{LEGAL_39}"])
    report = tmp_path / "contact.csv"
    code, out, err = _run(*RECHECK, "--out", str(report), str(store), env=env)
    assert (code, out) == (EXIT_ILLEGAL, ""), err
    assert _csv(report) == [
        ["line", "id", "verdict", "penalty", "causes", "cards"],
        [
            "1",
            "d0",
            "illegal",
            "duel forfeiture",
            "'=Fusion Test is a Fusion Monster; it belongs in the extra deck, not the main deck.",
            "'=Fusion Test ×1",
        ],
    ]


def test_a_worker_that_dies_while_the_local_cluster_starts_ends_the_recheck_in_one_line(tmp_path: Path) -> None:
    """A worker preload (Dask's configuration, as an operator sets it) that ends its process: the worker dies
    before the cluster is up. The recheck exits with the status of a recheck that could not be carried out and one
    line (it was Dask's traceback and status 1, "some deck illegal")."""
    preload = tmp_path / "die.py"
    preload.write_text("import os\n\nos._exit(7)\n", encoding="utf-8")
    store = _store(tmp_path / "decks.ndjson", [LEGAL_39])
    out = tmp_path / "out"
    env = {"DASK_DISTRIBUTED__WORKER__PRELOAD": orjson.dumps([str(preload)]).decode()}
    done = _deckcheck(*RECHECK, "--dask", "local:1", "--out", str(out), str(store), env=env)
    assert (done.returncode, done.stdout) == (EXIT_FAILED, "")
    assert done.stderr == (
        "deckcheck: the Dask cluster local:1 could not start: Nanny failed to start worker process. "
        f"Nothing is written to {out}: no results, no summary.\n"
    )
    assert not out.exists()


@contextmanager
def _recheck_running(port: int, *headers: bytes) -> Iterator[socket.socket]:
    """A recheck whose body has begun and not ended: its head and one line, then nothing more (a slow client)."""
    head = b"POST /v1/rechecks?date=2008-06-01 HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n"
    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
        sock.sendall(head + b"".join(h + b"\r\n" for h in headers) + b"\r\n%x\r\n%s\r\n" % (len(LINE), LINE))
        yield sock


def _answer(sock: socket.socket) -> bytes:
    """The rest of an answer, until the server closes the connection."""
    answer = b""
    while chunk := sock.recv(65536):
        answer += chunk
    return answer


def _lines_checked(server: Served) -> float:
    """How many recheck lines the server has checked."""
    text = httpx.get(f"{server.url}/metrics", timeout=30).text
    series = "deckcheck_recheck_lines_total{"
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines() if line.startswith(series))


def test_a_refused_recheck_sent_whole_before_reading_gets_its_503(tmp_path: Path) -> None:
    """urllib sends the whole body before it reads. A recheck refused by its head was answered and closed unread,
    so from about 4.7 MB on urllib got a reset instead of the 503; the refusal now reads the body first, within the
    time a 413 drains one. A client that waits for 100 Continue has sent no body, and is refused without being asked
    for it."""
    env = {"DECKCHECK_MAX_RECHECKS": "1", "DECKCHECK_REFUSAL_PAUSE": "0", "DECKCHECK_RETRY_AFTER": "3"}
    with serving(tmp_path / "stderr.log", env) as server, _recheck_running(server.port) as held:
        first = b""
        while b'"line":1' not in first:  # the one recheck allowed runs
            first += held.recv(65536)
        body = LINE * (16 * 1024 * 1024 // len(LINE))
        request = urllib.request.Request(f"{server.url}/v1/rechecks?date=2008-06-01", data=body)
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                raise AssertionError(f"the second recheck was run: {answer.status}")
        except urllib.error.HTTPError as refused:
            status, headers, problem = refused.code, refused.headers, orjson.loads(refused.read())
        head = b"POST /v1/rechecks?date=2008-06-01 HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\n"
        with socket.create_connection(("127.0.0.1", server.port), timeout=60) as waiting:
            waiting.sendall(head + b"Content-Length: %d\r\n\r\n" % len(body))
            expecting = _answer(waiting)
    assert (status, headers["Retry-After"], headers["Connection"]) == (503, "3", "close")
    assert problem == {
        "type": "urn:deckcheck:problem:overloaded",
        "title": "Service Unavailable",
        "status": 503,
        "detail": "Every check thread is busy and the queue is full; try again in 3 s.",
        "errors": [],
        "request_id": headers["X-Request-ID"],
    }
    assert expecting.startswith(b"HTTP/1.1 503 Service Unavailable\r\n")


def test_a_recheck_cut_by_the_shutdown_timeout_logs_its_line_and_no_traceback(tmp_path: Path) -> None:
    """Two rechecks still reading their bodies when the shutdown timeout passes: the streamed one ends with its
    `shutdown` line, the one whose results are held gets a 503 that says why; each leaves its JSON access-log line
    (cut: shutdown) and nothing else, where the cancellation reached uvicorn as "Exception in ASGI application" and
    its traceback (and a held recheck got uvicorn's bare 500)."""
    env = {"DECKCHECK_SHUTDOWN_TIMEOUT": "1", "DECKCHECK_BODY_TIMEOUT": "60"}
    with (
        serving(tmp_path / "stderr.log", env) as server,
        _recheck_running(server.port) as streamed,
        _recheck_running(server.port, b"Deckcheck-Hold-Results: 1") as held,
    ):
        while _lines_checked(server) < 2:  # each recheck has checked its first line
            time.sleep(0.05)
        server.process.send_signal(signal.SIGTERM)
        streamed_answer, held_answer = _answer(streamed), _answer(held)
        assert server.process.wait(timeout=60) == -signal.SIGTERM
    first, last = [orjson.loads(c) for c in streamed_answer.split(b"\r\n") if c.startswith(b"{")]
    assert (first["line"], first["id"]) == (1, 1)
    assert last == {
        "line": None,
        "id": None,
        "error": {"msg": "the server shut down before this recheck ended", "type": "shutdown"},
    }
    head, _, body = held_answer.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.lower().split(": ", 1) for line in lines)
    assert (status_line, headers["connection"]) == ("HTTP/1.1 503 Service Unavailable", "close")
    assert orjson.loads(body) == {
        "type": "urn:deckcheck:problem:shutdown",
        "title": "Service Unavailable",
        "status": 503,
        "detail": "The server shut down before this recheck ended; send it again.",
        "errors": [],
        "request_id": headers["x-request-id"],
    }
    log = server.logged()
    assert [line for line in log if "exception" in line] == []
    # uvicorn's own word that it cancels what still runs is the only error line.
    assert [(line["logger"], line["message"]) for line in log if line["level"] == "ERROR"] == [
        ("uvicorn.error", "Cancel 2 running task(s), timeout graceful shutdown exceeded")
    ]
    access = [line for line in log if line["logger"] == "deckcheck.access" and line["path"] == "/v1/rechecks"]
    assert sorted((line["status"], line["cut"]) for line in access) == [(200, "shutdown"), (503, "shutdown")]
