"""Send the service hostile requests, one at a time, and print what each costs it: `python -m bench.hostile`.

Run by hand, never as a timed test; it prints figures and the targets beside them, and asserts nothing about time.
Starts `deckcheck serve` as bench.load does and sends each request on a raw socket of its own: large ydke links of
unknown passcodes, thousands of garbage names, NDJSON lines with huge ids or decks, deeply nested JSON, a body over
the limit sent without `Expect: 100-continue`, a stalled body and a huge header. For each it prints the status, the
response size, the wall time, the server's CPU seconds (from /proc/PID/stat) and its memory: VmRSS before and after,
and the peak (VmHWM, reset before each request through /proc/PID/clear_refs when the kernel lets us). A server that
dies is started again for the requests left.
"""

from __future__ import annotations

import argparse
import base64
import random
import socket
import string
import struct
import time
from dataclasses import dataclass
from pathlib import Path

import orjson

from bench.corpus import Corpus
from bench.load import EVENT
from bench.server import Server, cpu_seconds, pid_tree, serve
from deckcheck import load_data

TARGET_MB, TARGET_CPU = 50, 0.5
MIB = 1024 * 1024
SECTIONS = ("main", "extra", "side")
RECHECKS = f"/v1/rechecks?date={EVENT}&previous=ocg-2008-03-01"


@dataclass(frozen=True)
class Case:
    """One hostile request: what it is, where it goes, its body, and how it is sent."""

    label: str
    path: str
    body: bytes
    content_type: str = "application/json"
    headers: str = ""  # extra header lines, each ending in \r\n
    send: int | None = None  # send only this many body bytes, then wait
    timeout: float = 60.0


@dataclass
class Answer:
    """What came back: status (None if none), response bytes, wall seconds, and a note (content type, reset…)."""

    status: int | None
    size: int
    seconds: float
    note: str


def memory_kb(pid: int) -> tuple[int, int]:
    """(VmRSS, VmHWM) in kB, summed over `pid` and its descendants, from /proc/PID/status."""
    rss = hwm = 0
    for each in pid_tree(pid):
        try:
            lines = Path(f"/proc/{each}/status").read_text().splitlines()
        except OSError:
            continue
        values = {k: v.split()[0] for k, _, v in (line.partition(":") for line in lines) if k in ("VmRSS", "VmHWM")}
        rss, hwm = rss + int(values.get("VmRSS", 0)), hwm + int(values.get("VmHWM", 0))
    return rss, hwm


def reset_peak(pid: int) -> bool:
    """Reset VmHWM to the current RSS for `pid` and its descendants (Linux 4.0+); False if the kernel refused."""
    try:
        for each in pid_tree(pid):
            Path(f"/proc/{each}/clear_refs").write_text("5")
    except OSError:
        return False
    return True


def exchange(port: int, case: Case) -> Answer:
    """Send `case` on a new connection and read the whole answer (by Content-Length, chunks or to the end)."""
    head = (
        f"POST {case.path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: {case.content_type}\r\n"
        f"Content-Length: {len(case.body)}\r\nConnection: close\r\n{case.headers}\r\n"
    ).encode()
    notes: list[str] = []
    reader = _Reader()
    start = time.perf_counter()
    with socket.create_connection(("127.0.0.1", port), timeout=case.timeout) as sock:
        try:
            sock.sendall(head + case.body[: case.send])
        except OSError as exc:
            notes.append(f"send: {type(exc).__name__}")
        try:
            while not reader.complete() and reader.feed(sock.recv(MIB)):
                pass
        except TimeoutError:
            notes.append(f"no answer in {case.timeout:g} s" if not reader.size else "answer stalled")
        except OSError as exc:
            notes.append(f"read: {type(exc).__name__}")
    seconds = time.perf_counter() - start
    if reader.size and not reader.head.startswith(b"HTTP/"):
        notes.append("not HTTP")
    shown = (b"content-type", b"retry-after")
    notes[:0] = [v.decode(errors="replace") for k, v in reader.headers.items() if k in shown]
    status = reader.head.partition(b" ")[2][:3]
    return Answer(int(status) if status.isdigit() else None, reader.size, seconds, "; ".join(notes))


class _Reader:
    """Takes in a response as it arrives, keeping only its head: how many bytes, and whether it is whole (a
    response without a length ends when the server closes)."""

    def __init__(self) -> None:
        self.head, self.size, self.headers = b"", 0, dict[bytes, bytes]()
        self.length: int | None = None  # of the whole response, once the head is in
        self.chunked, self.tail = False, b""

    def feed(self, chunk: bytes) -> bool:
        """Take in `chunk`; False at the end of the stream."""
        self.size += len(chunk)
        self.tail = (self.tail + chunk)[-7:]
        if self.length is None and not self.chunked and b"\r\n\r\n" not in self.head:
            self.head = (self.head + chunk)[:65536]
            if (end := self.head.find(b"\r\n\r\n")) >= 0:
                lines = self.head[:end].split(b"\r\n")[1:]
                self.headers = {k.strip().lower(): v.strip() for k, _, v in (x.partition(b":") for x in lines)}
                if b"content-length" in self.headers:
                    self.length = end + 4 + int(self.headers[b"content-length"])
                self.chunked = b"chunked" in self.headers.get(b"transfer-encoding", b"")
        return bool(chunk)

    def complete(self) -> bool:
        """Whether the whole response is in."""
        if self.chunked:
            return self.tail == b"\r\n0\r\n\r\n"
        return self.length is not None and self.size >= self.length


def measure(server: Server, case: Case) -> str:
    """Send `case` and return its table row."""
    pid = server.process.pid
    rss_before, _ = memory_kb(pid)
    peak_reset = reset_peak(pid)
    cpu_before = cpu_seconds(pid)
    answer = exchange(server.port, case)
    cpu = cpu_seconds(pid)  # the server may still be working (a stalled or abandoned request): wait till it stops
    for _ in range(50):
        time.sleep(0.2)
        if (now := cpu_seconds(pid)) == cpu:
            break
        cpu = now
    cpu -= cpu_before
    rss_after, peak = memory_kb(pid)
    grown = ((peak if peak_reset else max(peak, rss_after)) - rss_before) / 1024
    verdict = "ok" if cpu <= TARGET_CPU and grown <= TARGET_MB else "OVER"
    if not peak_reset:
        answer.note += "; VmHWM not reset, so the peak is since start-up"
    if server.process.poll() is not None:
        answer.note += f"; SERVER DIED ({server.process.returncode})"
    status = "-" if answer.status is None else str(answer.status)
    return (
        f"{case.label:40} {status:>6} {answer.size:>10,} {answer.seconds:7.2f} {cpu:7.2f} "
        f"{rss_before / 1024:6.0f}→{rss_after / 1024:<6.0f} {grown:+7.0f}  {verdict:4}  {answer.note}"
    )


def _garbage(rng: random.Random, count: int) -> list[str]:
    """`count` distinct names of about 20 random letters."""
    names: set[str] = set()
    while len(names) < count:
        names.add("".join(rng.choices(string.ascii_letters, k=rng.randint(16, 24))))
    return sorted(names)


def cases() -> list[Case]:
    """The hostile requests, each body at most 1 MiB except the one meant to be over the limit."""
    data = load_data()
    rng = random.Random(2008)
    unknown: list[int] = []
    while len(unknown) < 187_000:
        code = rng.randrange(100_000_000, 2**32)
        unknown += [] if code in data.cards.by_passcode else [code]
    link = "ydke://" + base64.b64encode(struct.pack(f"<{len(unknown)}I", *unknown)).decode() + "!!!"
    names = _garbage(rng, 2000)
    sections = {s: [{"name": n, "count": 1} for n in names[i * 500 : (i + 1) * 500]] for i, s in enumerate(SECTIONS)}
    legal = next(d for d in Corpus(data).decks(100) if d.made_legal)
    legal_json = {"ydke": legal.ydke(), "date": EVENT}
    huge_name = "".join(rng.choices(string.ascii_letters + " ", k=MIB - 100)).strip()
    text = "\n".join(names)
    ndjson = "application/x-ndjson"
    # lflist.conf lists: 190,000 bad lines, 250,000 lists of one name, and one name of 900,000 characters.
    bad_lines = {"lflist": "!a\n" + "1 1\n" * 190_000}
    one_name = {"lflist": "!a\n" * 250_000, "list": "a"}
    long_name = {"lflist": "!" + "A" * 900_000 + "\n$whitelist\n"}
    return [
        Case("ydke, 187k unknown passcodes → validate", "/v1/validate", orjson.dumps({"ydke": link, "date": EVENT})),
        Case("ydke, 187k unknown passcodes → parse", "/v1/decks/parse", orjson.dumps({"ydke": link})),
        Case("JSON, 1,500 garbage names → validate", "/v1/validate", orjson.dumps({**sections, "date": EVENT})),
        Case("text, 2,000 garbage names → validate", "/v1/validate", orjson.dumps({"text": text, "date": EVENT})),
        Case(
            "rechecks, a line with a 1 MB id",
            RECHECKS,
            orjson.dumps({"id": "i" * 1_000_000, "ydke": legal.ydke()}) + b"\n",
            ndjson,
        ),
        Case("rechecks, a 2,000-name text deck", RECHECKS, orjson.dumps({"id": "t", "text": text}) + b"\n", ndjson),
        Case("1 MiB of nested JSON [[[…]]]", "/v1/validate", b"[" * (MIB // 2) + b"]" * (MIB // 2)),
        Case(
            "lflist, 190,000 bad lines → validate", "/v1/validate", orjson.dumps({**legal_json, "banlist": bad_lines})
        ),
        Case(
            "lflist, 250,000 lists named a → validate",
            "/v1/validate",
            orjson.dumps({**legal_json, "banlist": one_name}),
        ),
        Case(
            "lflist, a 900,000-character name → validate",
            "/v1/validate",
            orjson.dumps({**legal_json, "banlist": long_name}),
        ),
        Case(
            "JSON entry with a 1 MB name → validate",
            "/v1/validate",
            orjson.dumps({"main": [{"name": huge_name[:1_000_000], "count": 1}], "date": EVENT}),
        ),
        Case("text, one 1 MB name → validate", "/v1/validate", orjson.dumps({"text": huge_name[:999_000]})),
        Case("2 MiB body, no Expect: 100-continue", "/v1/validate", b"[" + b" " * (2 * MIB - 2) + b"]"),
        Case("stalled: Content-Length 100000, 10 sent", "/v1/validate", b"{" + b" " * 99_999, send=10, timeout=30),
        Case(
            "200 KB Deckcheck-Banlist header",
            RECHECKS,
            orjson.dumps({"id": "h", "ydke": legal.ydke()}) + b"\n",
            ndjson,
            headers=f"Deckcheck-Banlist: {'x' * 200_000}\r\n",
        ),
    ]


def main() -> None:
    """Build the requests, start the server and print one row per request."""
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    pending = cases()
    print(f"targets: ≤ {TARGET_MB} MB memory growth and ≤ {TARGET_CPU} s server CPU per request")
    print("RSS MB: VmRSS before→after; peak Δ MB: the highest RSS during the request (VmHWM) less RSS before")
    print(f"{'request':40} {'status':>6} {'bytes out':>10} {'wall s':>7} {'CPU s':>7} {'RSS MB':^13} {'peak Δ':>7}")
    while pending:
        with serve() as server:
            while pending:
                print(measure(server, pending.pop(0)), flush=True)
                if server.process.poll() is not None:
                    break
            for line in server.errors()[:20]:
                print(f"  server log: {line}")


if __name__ == "__main__":
    main()
