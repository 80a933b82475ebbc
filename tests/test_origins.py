"""DECKCHECK_CORS_ORIGINS read strictly (deckcheck/origins.py): each origin as a browser sends it in `Origin`, or a
refusal at start-up naming it. A browser's Origin is compared with each allowed origin as text, so an origin
written otherwise would start the service and then refuse the very site it was meant for, saying nothing."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from deckcheck.config import ConfigError, load_settings
from tests.served import free_port

VARIABLE = "DECKCHECK_CORS_ORIGINS"

# What an operator writes and what it means: the same origin written as a browser sends it.
WRITTEN_OTHERWISE = [
    ("https://decks.example/", ("https://decks.example",)),  # the site's root page: its origin
    ("HTTPS://Decks.Example", ("https://decks.example",)),
    ("https://decks.example:443", ("https://decks.example",)),
    ("http://localhost:80/", ("http://localhost",)),
    ("https://decks.example:8443", ("https://decks.example:8443",)),
    ("http://LOCALHOST:03000", ("http://localhost:3000",)),
    ('[" https://decks.example ", "http://127.0.0.1:8000"]', ("https://decks.example", "http://127.0.0.1:8000")),
    ("https://decks.example, https://Decks.example/,", ("https://decks.example",)),  # once, and a trailing comma
    ("http://[0:0:0:0:0:0:0:1]:8080", ("http://[::1]:8080",)),
    ("*", ("*",)),
    ('["*"]', ("*",)),
    ("", ()),
    ("  ", ()),
    ("[]", ()),
]


@pytest.mark.parametrize(("written", "origins"), WRITTEN_OTHERWISE, ids=[w for w, _ in WRITTEN_OTHERWISE])
def test_an_origin_is_read_as_a_browser_sends_it(
    written: str, origins: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(VARIABLE, written)
    assert load_settings().cors_origins == origins


# Typos that start the service today and then refuse the site meant (or allow every site), each with why.
TYPOS = [
    (
        "https://decks.example/app",
        "'https://decks.example/app' is a page: an origin is scheme://host[:port] and no "
        "more (this page's: https://decks.example)",
    ),
    (
        "https://decks.example/deck-builder/",
        "'https://decks.example/deck-builder/' is a page: an origin is "
        "scheme://host[:port] and no more (this page's: https://decks.example)",
    ),
    (
        "https://decks.example?ref=menu",
        "'https://decks.example?ref=menu' is a page: an origin is "
        "scheme://host[:port] and no more (this page's: https://decks.example)",
    ),
    (
        "https://decks.example/#top",
        "'https://decks.example/#top' is a page: an origin is scheme://host[:port] and "
        "no more (this page's: https://decks.example)",
    ),
    ("decks.example", "'decks.example' has no scheme: an origin begins https:// or http:// (https://decks.example?)"),
    (
        "localhost:3000",
        "'localhost:3000' has no scheme: an origin begins https:// or http:// (https://localhost:3000?)",
    ),
    ("https:/decks.example", "'https:/decks.example': the scheme is followed by ://"),
    (
        "*.decks.example",
        "'*.decks.example' holds a wildcard, which matches no origin: list each origin, or give '*' alone",
    ),
    (
        "https://*.decks.example",
        "'https://*.decks.example' holds a wildcard, which matches no origin: list each origin, or give '*' alone",
    ),
    ("https://a.example;https://b.example", "'https://a.example;https://b.example': origins are separated by commas"),
    ("https://a.example https://b.example", "'https://a.example https://b.example': origins are separated by commas"),
    (
        '"https://decks.example"',
        '"https://decks.example" is quoted: give the origins bare, separated by commas, or as a JSON list in brackets',
    ),
    (
        "'https://decks.example'",
        "'https://decks.example' is quoted: give the origins bare, separated by commas, or as a JSON list in brackets",
    ),
    (
        "*, https://decks.example",
        "'*' allows every origin, so it is given alone: drop it, or give it without the others",
    ),
    (
        '["https://decks.example", "*"]',
        "'*' allows every origin, so it is given alone: drop it, or give it without the others",
    ),
    (
        "https://deckbuilder@decks.example",
        "'https://deckbuilder@decks.example': an origin has no user name or password",
    ),
    ("https://decks.example:99999", "'https://decks.example:99999': the port is a number from 1 to 65535"),
    ("https://decks.example:", "'https://decks.example:': the port is a number from 1 to 65535"),
    (
        "chrome-extension://abcdefghijklmnop",
        "'chrome-extension://abcdefghijklmnop': the pages allowed here are "
        "http:// or https:// pages (give '*' for others)",
    ),
    ("null", "'null' is the origin of every sandboxed frame and local file: allowing it allows them all (give '*')"),
    (
        "https://デッキ.example",
        "'https://デッキ.example': browsers send a host in ASCII; write an international name in its xn-- form",
    ),
    ("http://::1:8000", "'http://::1:8000': an IPv6 address is written in brackets, as http://[::1]:8000"),
    ("http://[::g]", "'http://[::g]': not an IPv6 address in brackets"),
    ("http://300.0.0.1", "'http://300.0.0.1': not an IPv4 address"),
    ("https://decks!.example", "'https://decks!.example': not a host name"),
    ("https://", "'https://' names no host"),
    ('["https://decks.example", 8000]', 'each origin is a string, such as "https://decks.example"'),
    ('{"origins": ["https://decks.example"]}', "not a JSON list of origins"),
    ('["https://decks.example"', "not a JSON list of origins"),
]


@pytest.mark.parametrize(("written", "why"), TYPOS, ids=[w for w, _ in TYPOS])
def test_what_is_no_origin_stops_start_up_saying_why(written: str, why: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(VARIABLE, written)
    with pytest.raises(ConfigError) as refused:
        load_settings()
    assert str(refused.value) == f"{VARIABLE}={written}: {why}"


def test_every_origin_that_is_none_is_named_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(VARIABLE, "https://a.example, b.example, https://c.example/app")
    with pytest.raises(ConfigError) as refused:
        load_settings()
    assert str(refused.value) == (
        f"{VARIABLE}=https://a.example, b.example, https://c.example/app: "
        "'b.example' has no scheme: an origin begins https:// or http:// (https://b.example?); "
        "'https://c.example/app' is a page: an origin is scheme://host[:port] and no more (this page's: "
        "https://c.example)"
    )


def test_serve_with_an_origin_that_is_none_exits_naming_it() -> None:
    argv = [sys.executable, "-m", "deckcheck", "serve", "--host", "127.0.0.1", "--port", str(free_port())]
    env = {**os.environ, VARIABLE: "https://decks.example/app"}
    # Before origins were read strictly the server started and served on, and this waited in vain.
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=60, check=False)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        f"deckcheck: {VARIABLE}=https://decks.example/app: 'https://decks.example/app' is a page: an origin is "
        "scheme://host[:port] and no more (this page's: https://decks.example)\n"
    )
