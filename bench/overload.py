"""Goodput past saturation: `python -m bench.overload [--seconds 10] [--rounds 3] [--peak 100] [--rev REV]`.

Run by hand, never as a timed test. Starts `deckcheck serve` (default settings, no proxy) and runs bench.load's legal
phase in rounds of two: with `--peak` keep-alive clients (about the concurrency that saturates the service: two check
threads and 128 waiting) and with four times as many, every client sending its next request the moment it has an
answer, a 503 included (a client library that retries at once, the worst case). It prints each round's good answers a
second at both (those answered within the phase, over its length), their ratio and /healthz's 99th percentile, then
their medians beside the targets. With `--rev`, the same rounds are run first against a git worktree of REV, in the
same run, and both are printed side by side.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Round:
    """One round's two phases."""

    at_peak: Figures
    over: Figures

    @property
    def ratio(self) -> float:
        """Good answers a second at four times the peak's clients over those at the peak."""
        return self.over.rate / self.at_peak.rate if self.at_peak.rate else float("nan")


def measure(label: str, env: dict[str, str], legal: list[bytes], args: argparse.Namespace) -> list[Round]:
    """`args.rounds` rounds of the legal phase at `args.peak` clients and at four times as many, against one server:
    a round's two phases seconds apart, so that the machine's slower and faster minutes fall on both alike."""
    seconds, peak = args.seconds, args.peak
    out = []
    with serve(env=env) as server:
        head = f"POST /v1/validate HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nContent-Type: application/json\r\n"
        work = [("legal", f"{head}Content-Length: {len(b)}\r\n\r\n".encode() + b) for b in legal]
        check_bodies(server.port, {"legal": legal})
        phase(server, f"{label}: warm-up (not a figure)", work, 3.0, peak)
        for n in range(1, args.rounds + 1):
            at_peak = phase(server, f"{label}, round {n}: {peak} clients", work, seconds, peak)
            over = phase(server, f"{label}, round {n}: {4 * peak} clients", work, seconds, 4 * peak)
            out.append(Round(at_peak, over))
        if server.errors():
            print("server log errors:", *server.errors()[:10], sep="\n  ")
    return out


def main() -> None:
    """Measure this checkout (and REV), print the table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each phase (default 10)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the two phases (default 3)")
    parser.add_argument("--peak", type=int, default=100, help="clients at saturation (default 100)")
    parser.add_argument("--rev", help="a git revision measured first, in the same run")
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds: at least one round")
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores; {args.seconds:g} s a phase")
    legal = bodies(load_data(), legal=2000, faulty=0, garbage=0)["legal"]
    rows = []
    for label, rev in ([(args.rev, args.rev)] if args.rev else []) + [("this checkout", None)]:
        with checkout(rev) as env:
            rows.append((label, measure(label, env, legal, args)))
    print(f"\n{'':16} {'round':>5} {'good/s at peak':>15} {'good/s at 4x':>13} {'ratio':>6} {'healthz p99 at 4x':>18}")
    for label, rounds in rows:
        for n, each in enumerate(rounds, 1):
            print(f"{label:16} {n:>5} {each.at_peak.rate:>15,.0f} {each.over.rate:>13,.0f} {each.ratio:>6.2f}", end="")
            print(f" {each.over.healthz_p99:>15.1f} ms")
        ratios, p99s = [r.ratio for r in rounds], [r.over.healthz_p99 for r in rounds]
        print(f"{label:16} median ratio {statistics.median(ratios):.2f}, healthz p99 at 4x: median ", end="")
        print(f"{statistics.median(p99s):.1f} ms, worst {max(p99s):.1f} ms")
    print(f"targets: ratio ≥ {TARGET_GOODPUT}, healthz p99 < {TARGET_HEALTHZ_P99_MS:.0f} ms")


if __name__ == "__main__":
    main()
