"""Goodput past saturation: `python -m bench.overload [--seconds 20] [--peak 100] [--rev REV]`.

Run by hand, never as a timed test. Starts `deckcheck serve` (default settings, no proxy) and runs bench.load's legal
phase twice: with `--peak` keep-alive clients (about the concurrency that saturates the service: two check threads
and 128 waiting) and with four times as many, every client sending its next request the moment it has an answer,
a 503 included (a client library that retries at once, the worst case). It prints the good answers a second at each
and their ratio, and /healthz's 99th percentile, beside the targets. With `--rev`, the same phases are run first
against a git worktree of REV, in the same run, and both are printed side by side.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bench.load import Figures, bodies, check_bodies, phase
from bench.server import serve
from deckcheck import load_data

ROOT = Path(__file__).resolve().parent.parent
TARGET_GOODPUT, TARGET_HEALTHZ_P99_MS = 0.8, 50.0


@contextmanager
def checkout(rev: str | None) -> Iterator[dict[str, str]]:
    """The environment that serves `rev` from a temporary worktree (this checkout when None)."""
    if rev is None:
        yield {}
        return
    with tempfile.TemporaryDirectory(prefix="deckcheck-overload-") as folder:
        other = Path(folder) / "rev"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach", str(other), rev], check=True)
        try:
            yield {"PYTHONPATH": f"{other / 'service'}{os.pathsep}{other}"}
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(other)], check=True)


def measure(label: str, env: dict[str, str], legal: list[bytes], seconds: float, peak: int) -> tuple[Figures, Figures]:
    """The legal phase at `peak` clients and at four times as many, against one server."""
    with serve(env=env) as server:
        head = f"POST /v1/validate HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nContent-Type: application/json\r\n"
        work = [("legal", f"{head}Content-Length: {len(b)}\r\n\r\n".encode() + b) for b in legal]
        check_bodies(server.port, {"legal": legal})
        phase(server, f"{label}: warm-up (not a figure)", work, 3.0, peak)
        at_peak = phase(server, f"{label}: {peak} clients", work, seconds, peak)
        over = phase(server, f"{label}: {4 * peak} clients", work, seconds, 4 * peak)
        if server.errors():
            print("server log errors:", *server.errors()[:10], sep="\n  ")
    return at_peak, over


def main() -> None:
    """Measure this checkout (and REV), print the table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each phase (default 20)")
    parser.add_argument("--peak", type=int, default=100, help="clients at saturation (default 100)")
    parser.add_argument("--rev", help="a git revision measured first, in the same run")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores; {args.seconds:g} s a phase")
    legal = bodies(load_data(), legal=2000, faulty=0, garbage=0)["legal"]
    rows = []
    for label, rev in ([(args.rev, args.rev)] if args.rev else []) + [("this checkout", None)]:
        with checkout(rev) as env:
            rows.append((label, *measure(label, env, legal, args.seconds, args.peak)))
    print(f"\n{'':16} {'good/s at peak':>15} {'good/s at 4x':>13} {'ratio':>6} {'healthz p99 at 4x':>18}")
    for label, at_peak, over in rows:
        ratio = over.rate / at_peak.rate if at_peak.rate else float("nan")
        print(f"{label:16} {at_peak.rate:>15,.0f} {over.rate:>13,.0f} {ratio:>6.2f} {over.healthz_p99:>15.1f} ms")
    print(f"targets: ratio ≥ {TARGET_GOODPUT}, healthz p99 < {TARGET_HEALTHZ_P99_MS:.0f} ms")


if __name__ == "__main__":
    main()
