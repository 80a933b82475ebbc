"""Reading paper beside checks: `python -m bench.paper_load [--seconds 20] [--readers 2]`.

Run by hand, never as a timed test. Starts `deckcheck serve` (default settings: 2 check threads, 1 reading thread)
and sends legal decks to /v1/validate over 50 connections while /healthz is asked every 50 ms (bench/load.py's
phase), first alone, then while `--readers` clients post a 300 dpi registration sheet without its QR code to
/v1/decks/read back to back (OCR on every read). Prints both phases, the ratio of their rates, and the reads done
and refused (503: the reading pool full) meanwhile.
"""

from __future__ import annotations

import argparse
import io
import os
import subprocess
import sys
import threading
import time
from collections import Counter

import httpx
from PIL import Image, ImageDraw

from bench.load import bodies, phase
from bench.server import Server, serve
from deckcheck import load_data
from tests.decks import EXTRA, MAIN_40, SIDE

QR_SQUARE = 709  # px at 300 dpi: the top-right 60 mm of the sheet, where its QR code is


def sheet_page(port: int) -> bytes:
    """A 300 dpi PNG of the service's sheet of a real 40-card deck, its QR code painted out."""
    deck = {"main": MAIN_40, "extra": EXTRA, "side": SIDE, "to": "sheet", "names": "ja"}
    pdf = httpx.post(f"http://127.0.0.1:{port}/v1/decks/convert", json=deck, timeout=60).content
    raster = subprocess.run(["pdftoppm", "-r", "300", "-gray", "-png", "-"], input=pdf, capture_output=True, check=True)
    page = Image.open(io.BytesIO(raster.stdout))
    ImageDraw.Draw(page).rectangle((page.width - QR_SQUARE, 0, page.width, QR_SQUARE), fill=255)
    out = io.BytesIO()
    page.save(out, "PNG")
    return out.getvalue()


def read_back_to_back(port: int, page: bytes, stop: threading.Event, tally: Counter[str]) -> None:
    """Post `page` to /v1/decks/read until `stop`, counting the answers by status."""
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=120) as http:
        while not stop.is_set():
            answer = http.post("/v1/decks/read", content=page, headers={"Content-Type": "image/png"})
            tally[str(answer.status_code)] += 1
            if answer.status_code == 503:
                time.sleep(0.2)


def beside_reads(server: Server, work: list[tuple[str, bytes]], seconds: float, readers: int) -> tuple[float, int]:
    """The validate phase while `readers` clients read paper; its rate and the reads answered 200."""
    page = sheet_page(server.port)
    stop, tally = threading.Event(), Counter[str]()
    threads = [
        threading.Thread(target=read_back_to_back, args=(server.port, page, stop, tally)) for _ in range(readers)
    ]
    for thread in threads:
        thread.start()
    time.sleep(2)  # the readers under way
    rate = phase(server, f"legal, beside {readers} paper readers", work, seconds, 50).rate
    stop.set()
    for thread in threads:
        thread.join()
    print(f"  paper reads meanwhile: {dict(tally)}")
    return rate, tally["200"]


def main() -> None:
    """Start the server, run both phases and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each phase (default 20)")
    parser.add_argument("--readers", type=int, default=2, help="clients reading paper at once (default 2)")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores; {args.seconds:g} s a phase")
    legal = bodies(load_data(), legal=2000, faulty=0, garbage=0)["legal"]
    with serve() as server:
        head = f"POST /v1/validate HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nContent-Type: application/json\r\n"
        work = [("legal", f"{head}Content-Length: {len(b)}\r\n\r\n".encode() + b) for b in legal]
        phase(server, "warm-up (not a figure)", work, 3.0, 50)
        alone = phase(server, "legal, alone", work, args.seconds, 50).rate
        beside, reads = beside_reads(server, work, args.seconds, args.readers)
        print(f"ratio beside/alone requests/s: {beside / alone:.2f}; {reads / args.seconds:.2f} papers read a second")
        if server.errors():
            print("server log errors:", *server.errors()[:10], sep="\n  ")


if __name__ == "__main__":
    main()
