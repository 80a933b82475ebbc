"""A deck-builder page on another origin calls the API from a real browser. Headless Chromium, driven by Selenium
through chromedriver, loads a page from a second HTTP server, http://localhost:PAGE (another host and port than the
API's http://127.0.0.1:API). Its script fetches POST /v1/validate with a JSON body and Accept-Language: ja, neither
CORS-safelisted, so the browser asks the API first with a preflight. The page reads verdicts, problem answers and the
headers the API exposes when the API allows its origin, and the browser keeps the answer from it when the API allows
no origin or another one. A screenshot of each scenario is saved under test-artefacts/browser/."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from selenium import webdriver

from tests import browser, served
from tests.decks import main_with, request

pytestmark = pytest.mark.browser

browser.skip_without_chromium()

# The legal 40-card deck with Pot of Greed for a Magical Dimension: Forbidden on the list in force on its event date.
POT_OF_GREED = request(main=main_with({"passcode": 55144522}, drop=1))
REQUEST_ID = re.compile(r"[0-9a-f]{32}")  # what the API makes when the caller sends no X-Request-ID
BLOCKED = {"error": "TypeError", "message": "Failed to fetch"}  # all a page learns of an answer CORS keeps from it
PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Deck builder</title>
<style>body { font: 14px sans-serif; margin: 1em; } pre { white-space: pre-wrap; border: 1px solid #999; }</style>
</head>
<body>
<h1>Deck builder</h1>
<p id="origin"></p>
<div id="results"></div>
<script>
"use strict";
document.getElementById("origin").textContent = "This page: " + location.origin;

// What a page learns of one answer, as the lines it shows.
function shown(result) {
  if (result.error) {
    return [result.error + ": " + result.message];
  }
  const lines = [
    "HTTP " + result.status + ", " + result.contentType,
    "Content-Language: " + result.contentLanguage,
    "X-Request-ID: " + result.requestId,
  ];
  const body = result.body;
  if ("legal" in body) {
    lines.push("legal: " + body.legal);
    for (const v of body.violations) {
      lines.push(v.code + " (" + v.penalty + "): " + v.message);
    }
  } else {
    lines.push(body.status + " " + body.type + ": " + body.detail);
  }
  return lines;
}

// Check a deck at the API as a deck-builder site does, show what came back and return it.
async function check(api, label, deck) {
  let result;
  try {
    const answer = await fetch(api + "/v1/validate", {
      method: "POST",
      headers: {"Content-Type": "application/json", "Accept-Language": "ja"},
      body: JSON.stringify(deck),
    });
    result = {
      status: answer.status,
      contentType: answer.headers.get("Content-Type"),
      contentLanguage: answer.headers.get("Content-Language"),
      requestId: answer.headers.get("X-Request-ID"),
      body: await answer.json(),
    };
  } catch (error) {
    result = {error: error.name, message: error.message};
  }
  const heading = document.createElement("h2");
  heading.textContent = label + " at " + api;
  const text = document.createElement("pre");
  text.textContent = shown(result).join("\\n");
  document.getElementById("results").append(heading, text);
  return result;
}
</script>
</body>
</html>
"""


@pytest.fixture(scope="module")
def page_port() -> Iterator[int]:
    """The port of the site serving the deck-builder page, reached as http://localhost:PORT."""
    with browser.site({"/deck-builder.html": PAGE}) as port:
        yield port


@pytest.fixture(scope="module")
def chromium(tmp_path_factory: pytest.TempPathFactory) -> Iterator[webdriver.Chrome]:
    """Headless Chromium with a fresh profile: the module's one browser."""
    driver = browser.start(tmp_path_factory.mktemp("chromium"))
    yield driver
    driver.quit()


@pytest.fixture
def closed(tmp_path: Path) -> Iterator[served.Served]:
    """`deckcheck serve` that lets no origin's page read its answers."""
    with served.serving(tmp_path / "stderr.log", {"DECKCHECK_CORS_ORIGINS": "[]"}) as server:
        yield server


@pytest.fixture
def only_page(tmp_path: Path, page_port: int) -> Iterator[served.Served]:
    """`deckcheck serve` that lets only pages from http://localhost:PAGE read its answers."""
    origins = f'["http://localhost:{page_port}"]'
    with served.serving(tmp_path / "stderr.log", {"DECKCHECK_CORS_ORIGINS": origins}) as server:
        yield server


def open_page(driver: webdriver.Chrome, origin: str) -> None:
    """Load the deck-builder page from `origin`."""
    driver.get(f"{origin}/deck-builder.html")
    assert driver.execute_script("return location.origin") == origin


def check(driver: webdriver.Chrome, api: str, label: str, deck: dict[str, Any]) -> dict[str, Any]:
    """Have the page's script fetch POST {api}/v1/validate for `deck`; what it read, or the error its fetch threw."""
    script = "const done = arguments[arguments.length - 1]; check(...Array.from(arguments).slice(0, -1)).then(done);"
    result: dict[str, Any] = driver.execute_async_script(script, api, label, deck)
    return result


def test_a_page_on_another_origin_reads_verdicts_problems_and_exposed_headers(
    chromium: webdriver.Chrome, page_port: int, base_url: str
) -> None:
    open_page(chromium, f"http://localhost:{page_port}")
    legal = check(chromium, base_url, "A legal deck", request())
    forbidden = check(chromium, base_url, "Pot of Greed", POT_OF_GREED)
    invalid = check(chromium, base_url, "Not a date", {"date": "not a date"})
    browser.screenshot(chromium, "browser", "any-origin")

    assert [result.get("error") for result in (legal, forbidden, invalid)] == [None] * 3
    assert (legal["status"], legal["body"]["legal"], legal["body"]["violations"]) == (200, True, [])
    assert forbidden["status"] == 200
    assert forbidden["body"]["legal"] is False
    assert [v["code"] for v in forbidden["body"]["violations"]] == ["forbidden_card"]
    assert [v["loc"] for v in forbidden["body"]["violations"]] == [[["main", 14]]]
    assert forbidden["body"]["violations"][0]["message"] == "「強欲な壺」はOCG 2008.03で禁止カードです。"
    assert invalid["status"] == 422
    assert invalid["contentType"] == "application/problem+json"
    assert (invalid["body"]["status"], invalid["body"]["type"]) == (422, "urn:deckcheck:problem:invalid-request")
    assert [e["loc"] for e in invalid["body"]["errors"]] == [["body", "date"]]
    for result in (legal, forbidden):
        assert result["contentType"] == "application/json"
        assert result["contentLanguage"] == "ja"
    ids = [result["requestId"] for result in (legal, forbidden, invalid)]
    assert all(isinstance(request_id, str) and REQUEST_ID.fullmatch(request_id) for request_id in ids), ids
    assert len(set(ids)) == 3
    assert invalid["body"]["request_id"] == invalid["requestId"]


def test_an_api_that_allows_no_origin_is_kept_from_the_page_by_the_browser(
    chromium: webdriver.Chrome, page_port: int, closed: served.Served
) -> None:
    open_page(chromium, f"http://localhost:{page_port}")
    blocked = check(chromium, closed.url, "No origin allowed", POT_OF_GREED)
    browser.screenshot(chromium, "browser", "no-origin")

    assert blocked == BLOCKED
    answer = httpx.post(f"{closed.url}/v1/validate", json=POT_OF_GREED, timeout=30)  # outside a browser, it answers
    assert answer.json()["legal"] is False


def test_an_api_that_allows_the_pages_origin_answers_it_and_no_other(
    chromium: webdriver.Chrome, page_port: int, only_page: served.Served
) -> None:
    open_page(chromium, f"http://localhost:{page_port}")
    label = f"Only http://localhost:{page_port} allowed"
    allowed = check(chromium, only_page.url, label, POT_OF_GREED)
    browser.screenshot(chromium, "browser", "page-origin")
    open_page(chromium, f"http://127.0.0.1:{page_port}")
    other = check(chromium, only_page.url, label, POT_OF_GREED)
    browser.screenshot(chromium, "browser", "other-origin")

    assert allowed.get("error") is None, allowed
    assert allowed["status"] == 200
    assert allowed["body"]["legal"] is False
    assert allowed["contentLanguage"] == "ja"
    assert isinstance(allowed["requestId"], str)
    assert REQUEST_ID.fullmatch(allowed["requestId"])
    assert other == BLOCKED
