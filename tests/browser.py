"""Headless Chromium from Debian, driven by Selenium through Debian's chromedriver (never Selenium Manager, which
would download a browser), for the browser tests: starting it, what it requested, and screenshots."""

from __future__ import annotations

import contextlib
import http.server
import json
import threading
from collections.abc import Iterator, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.remote.command import Command

ARTEFACTS = Path(__file__).resolve().parent.parent / "test-artefacts"
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
# Without the background-networking flags Chromium waits on services it cannot reach on a closed network.
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1000,900",
]
# Every host name but 127.0.0.1 fails to resolve, as on a closed event network: only the service can be reached.
ONLY_LOOPBACK = "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"
# What a page may load without asking any host: inline data and objects it made itself.
LOCAL_SCHEMES = ("data:", "blob:")


def skip_without_chromium() -> None:
    """Skip the calling test module, naming what to run, where Chromium or chromedriver is not installed."""
    for program in (CHROMIUM, CHROMEDRIVER):
        if not program.exists():
            pytest.skip(
                f"{program} is missing: run `bash scripts/system-deps` as root to install it", allow_module_level=True
            )


def start(
    profile: Path,
    flags: Sequence[str] = (),
    prefs: Mapping[str, Any] | None = None,
    logs: bool = False,
) -> webdriver.Chrome:
    """Headless Chromium with a fresh profile in `profile`, FLAGS and `flags`, the Chrome `prefs` given, and, with
    `logs`, the DevTools network events kept for `sent_requests` and the console for `console_errors`; page loads
    and scripts time out in 15 s."""
    options = Options()
    options.binary_location = str(CHROMIUM)
    for flag in [*FLAGS, *flags, f"--user-data-dir={profile}"]:
        options.add_argument(flag)
    if prefs:
        options.add_experimental_option("prefs", dict(prefs))
    if logs:
        options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=str(CHROMEDRIVER)))
    driver.set_page_load_timeout(15)
    driver.set_script_timeout(15)
    return driver


@dataclass(frozen=True, slots=True)
class Sent:
    """A request the browser sent: its method, URL, headers and body (None without one)."""

    method: str
    url: str
    headers: dict[str, str]
    body: str | None


def read_log(driver: webdriver.Chrome, kind: str) -> list[dict[str, Any]]:
    """The entries of one of the browser's logs (`performance`, `browser`) since the last read, which empties it."""
    entries: list[dict[str, Any]] = driver.execute(Command.GET_LOG, {"type": kind})["value"]  # get_log, typed
    return entries


def sent_requests(driver: webdriver.Chrome) -> list[Sent]:
    """Every request the browser has sent since the last call, in order, read from its performance log (which
    `start(..., logs=True)` keeps). Requests that failed are there too; those a Content-Security-Policy stopped
    never left, and show as console errors instead."""
    sent = []
    for entry in read_log(driver, "performance"):
        event = json.loads(entry["message"])["message"]
        if event["method"] == "Network.requestWillBeSent":
            request = event["params"]["request"]
            sent.append(Sent(request["method"], request["url"], request["headers"], request.get("postData")))
    return sent


def console_errors(driver: webdriver.Chrome) -> list[str]:
    """The errors the pages logged to the console since the last call (scripts that threw, resources that failed
    to load or that a Content-Security-Policy refused), from the log `start(..., logs=True)` keeps."""
    return [entry["message"] for entry in read_log(driver, "browser") if entry["level"] == "SEVERE"]


def open_desk(driver: webdriver.Chrome, origin: str, lang: str, metrics: Mapping[str, object]) -> None:
    """Open the desk fresh on a screen of Chromium's device `metrics`, in `lang`: the origin's storage cleared, the
    language chosen, the requests and console logged so far read, so that a test sees only the desk's own."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", dict(metrics))
    driver.execute_cdp_cmd("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
    driver.get(f"{origin}/desk")
    driver.execute_script("localStorage.setItem('deckcheck.desk.lang', arguments[0]);", lang)
    sent_requests(driver)
    console_errors(driver)
    driver.get(f"{origin}/desk")


def foreign(sent: Sequence[Sent], origin: str) -> list[str]:
    """The URLs of the requests that went anywhere but `origin` (and are not inline data)."""
    return [r.url for r in sent if not r.url.startswith((f"{origin}/", *LOCAL_SCHEMES))]


def screenshot(driver: webdriver.Chrome, folder: str, name: str) -> Path:
    """Keep what the page shows as test-artefacts/`folder`/`name`.png, and return its path."""
    path = ARTEFACTS / folder / f"{name}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    assert driver.save_screenshot(str(path))
    return path


@contextlib.contextmanager
def printing(driver: webdriver.Chrome) -> Iterator[None]:
    """Within the block, the page is laid out as it prints (CSS media `print`), to read what a printed slip shows."""
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        yield
    finally:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})


class _Pages(http.server.BaseHTTPRequestHandler):
    """Serves the HTML pages of `pages` by path, 404 for any other; logs nothing."""

    pages: ClassVar[Mapping[str, str]] = {}

    def do_GET(self) -> None:
        """Answer with the page at the path."""
        page = self.pages.get(self.path)
        body = (page or "not found").encode()
        self.send_response(200 if page is not None else 404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        """Keep the test output clean."""


@contextlib.contextmanager
def site(pages: MutableMapping[str, str]) -> Iterator[int]:
    """A site of its own origin for the browser to load pages from: a plain HTTP server on a free loopback port
    serving `pages` (HTML by path, added to while it runs if need be); its port. The browser reaches it as
    http://localhost:PORT, another origin than the service's http://127.0.0.1:…"""
    handler = type("Pages", (_Pages,), {"pages": pages})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)  # the system picks a free port
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield int(server.server_address[1])
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
