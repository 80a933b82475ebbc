"""`<deck-check>` (issue 38, part 2) as a deck-builder site meets it: a page on another origin holding only the
service's script tag and the element, in headless Chromium, with the service behind nginx as deployed (its default
CORS: every origin). The element shows the verdict, then the new one when the deck changes; one check runs for a
burst of changes; it reads every deck form; it shows refusals; axe-core finds nothing wrong with it, in either scheme,
at a phone's and a laptop's width; the page restyles it through custom properties and parts. Screenshots are saved
under test-artefacts/deck-check/, and the time from a change to the new verdict in timings.json there."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from selenium import webdriver
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from tests import browser, served
from tests.decks import EXTRA, MAIN_40, MORE_UNLIMITED, SIDE, main_with, ydke
from tests.node import installed
from tests.test_proxy import running_proxy

pytestmark = pytest.mark.browser

POT_OF_GREED = 55144522  # Forbidden on OCG 2026.10
DARK_MAGICIAN = 46986414
TODAY = "2026-12-04"  # a fixed event day on OCG 2026.10, so the screenshots and answers do not move with the clock
LATER = "2027-09-01"  # past the cadence of new lists after OCG 2026.10: the list may be outdated
LEGAL = ydke(MAIN_40, EXTRA, SIDE)
# Pot of Greed (forbidden) and a fourth Dark Magician (too many copies), each in place of a Magical Dimension.
ILLEGAL = ydke(main_with({"passcode": POT_OF_GREED}, {"passcode": DARK_MAGICIAN}, drop=2), EXTRA, SIDE)
AXE = Path(__file__).resolve().parent / "typescript" / "node_modules" / "axe-core" / "axe.min.js"
LAPTOP = (1280, 720)
PHONE = (390, 844)
TIMINGS: dict[str, float] = {}
WAIT = """
const [check, done] = [arguments[0], arguments[arguments.length - 1]];
const element = document.querySelector("deck-check");
const started = performance.now();
(function poll() {
  const summary = element?.shadowRoot?.querySelector('[part~="summary"]')?.textContent ?? "";
  const box = element?.shadowRoot?.querySelector('[part~="box"]');
  if (box && box.getAttribute("aria-busy") === "false" && summary.includes(check)) return done(true);
  if (performance.now() - started > 10000) return done(summary);
  setTimeout(poll, 10);
})();
"""
# What the element shows, read from its shadow root: the box's state, the summary, the list line, the warnings and
# each violation's message, rule, penalty and remedy.
SHOWN = """
const root = document.querySelector("deck-check").shadowRoot;
const text = (node, part) => node.querySelector(`[part~="${part}"]`)?.textContent ?? null;
return {
  state: root.querySelector('[part~="box"]').dataset.state,
  summary: text(root, "summary"),
  list: text(root, "list"),
  warnings: [...root.querySelectorAll('[part~="warning"]')].map((w) => [w.dataset.code, w.textContent]),
  violations: [...root.querySelectorAll('[part~="violation"]')].map((v) => ({
    code: v.dataset.code, message: text(v, "message"), rule: text(v, "rule"), penalty: text(v, "penalty"),
    remedy: text(v, "remedy"),
  })),
  loosely: [...root.querySelectorAll('[part~="loosely"] li')].map((li) => li.textContent),
  error: text(root, "error"),
  errors: [...root.querySelectorAll('[part~="errors"] li')].map((li) => li.textContent),
};
"""
# Change the deck with `change` (a function of the element), and time it until the next verdict event.
CHANGE_AND_TIME = """
const [change, done] = [arguments[0], arguments[arguments.length - 1]];
const element = document.querySelector("deck-check");
const started = performance.now();
element.addEventListener("deckcheck-verdict", (event) => {
  requestAnimationFrame(() => done({ ms: performance.now() - started, legal: event.detail.verdict.legal }));
}, { once: true });
new Function("element", change)(element);
"""


PAGES: dict[str, str] = {}  # the site's pages by path, which each test adds to


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    """The origin of a deck-builder site serving PAGES."""
    with browser.site(PAGES) as port:
        yield f"http://localhost:{port}"


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The service as deployed: `deckcheck serve` with its default settings behind nginx with deploy/nginx.conf."""
    log = tmp_path_factory.mktemp("serve") / "stderr.log"
    with served.serving(log, {}) as server, running_proxy(server.port, served.free_port()) as proxy:
        yield proxy.url


@pytest.fixture(scope="module")
def chromium(tmp_path_factory: pytest.TempPathFactory) -> Iterator[webdriver.Chrome]:
    """Headless Chromium with a fresh profile, keeping its network and console logs."""
    browser.skip_without_chromium()
    driver = browser.start(tmp_path_factory.mktemp("chromium"), logs=True)
    yield driver
    driver.quit()
    artefact = browser.ARTEFACTS / "deck-check" / "timings.json"
    artefact.parent.mkdir(parents=True, exist_ok=True)
    artefact.write_text(json.dumps(TIMINGS, indent=2) + "\n", encoding="utf-8")


def put(site: str, path: str, body: str, *, lang: str = "en", head: str = "") -> str:
    """Put a page at `path` of the site, `head` and `body` in it; its URL."""
    PAGES[path] = (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">{head}'
        f"</head><body>{body}</body></html>"
    )
    return f"{site}{path}"


def script(api: str) -> str:
    """The tag that includes the element's script from the service."""
    return f'<script src="{api}/elements/deck-check.js"></script>'


def page(site: str, api: str, path: str, attributes: str, *, lang: str = "en", head: str = "") -> str:
    """Put a page at `path` of the site holding only the element's script and `<deck-check attributes>`; its URL."""
    return put(site, path, f"<deck-check {attributes}></deck-check>", lang=lang, head=head + script(api))


def show(driver: webdriver.Chrome, url: str, size: tuple[int, int], dark: bool = False) -> None:
    """Open `url` in a window of `size`, in the dark or light scheme."""
    driver.set_window_size(*size)
    scheme = "dark" if dark else "light"
    driver.execute_cdp_cmd(
        "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]}
    )
    driver.get(url)


def shown_once(driver: webdriver.Chrome, summary: str) -> dict[str, Any]:
    """What the element shows once its summary holds `summary` and no check is running."""
    waited = driver.execute_async_script(WAIT, summary)
    assert waited is True, f"the element never said {summary!r}; it says {waited!r}"
    result: dict[str, Any] = driver.execute_script(SHOWN)
    return result


def penalty_words(violation: dict[str, Any], lang: str) -> str:
    """The penalty line the element shows for a duel forfeiture of the next duel: the penalty, then its item of the
    penalty regulations, or the item it is the penalty of by analogy."""
    assert (violation["penalty"], violation["penalty_applies_to"]) == ("duel_forfeiture", "next_duel")
    cited, analogy = violation["penalty_ref"], violation["penalty_basis"] == "by analogy"
    if lang == "ja":
        return f"デュエルの敗北（次のデュエル）：{cited}" + ("の類推" if analogy else "")
    return "Duel forfeiture (next duel): " + (f"by analogy with {cited}" if analogy else cited)


def settled_on_legal(driver: webdriver.Chrome, url: str) -> None:
    """Open `url`, a page whose element holds a legal deck, at a laptop's width; wait for its verdict, and forget
    the requests sent until then."""
    show(driver, url, LAPTOP)
    shown_once(driver, "legal for the event")
    browser.read_log(driver, "performance")


def checks_sent(driver: webdriver.Chrome) -> list[browser.Sent]:
    """The checks (requests to /v1/validate) the browser sent since its network log was last read."""
    return [sent for sent in browser.sent_requests(driver) if "/v1/validate" in sent.url]


def answer(api: str, lang: str, **query: str) -> dict[str, Any]:
    """The service's own answer for a link, to hold what the element shows to."""
    got: dict[str, Any] = httpx.get(f"{api}/v1/validate", params={**query, "lang": lang}, timeout=30).json()
    return got


def test_a_page_with_the_script_and_the_element_shows_the_verdict_then_the_new_one(
    chromium: webdriver.Chrome, site: str, api: str
) -> None:
    browser.read_log(chromium, "performance")
    show(chromium, page(site, api, "/laptop.html", f'ydke="{LEGAL}" date="{TODAY}"'), LAPTOP)
    shown = shown_once(chromium, "legal for the event")
    assert shown == {
        "state": "legal",
        "summary": "This deck is legal for the event.",
        "list": "Checked against OCG 2026.10 (from 2026-10-01) for an event on 2026-12-04.",
        "warnings": [],
        "violations": [],
        "loosely": [],
        "error": None,
        "errors": [],
    }
    browser.screenshot(chromium, "deck-check", "laptop-legal")

    timed = chromium.execute_async_script(CHANGE_AND_TIME, f'element.setAttribute("ydke", "{ILLEGAL}")')
    assert timed["legal"] is False
    TIMINGS["laptop: attribute changed to the new verdict shown (ms)"] = round(timed["ms"], 1)
    shown = shown_once(chromium, "not legal")
    expected = answer(api, "en", ydke=ILLEGAL, date=TODAY)
    assert shown["summary"] == "This deck is not legal: 2 problems."
    assert shown["violations"] == [
        {
            "code": v["code"],
            "message": v["message"],
            "rule": v["rule"],
            "penalty": penalty_words(v, "en"),
            "remedy": v["remedy"],
        }
        for v in expected["violations"]
    ]
    assert [v["code"] for v in shown["violations"]] == ["forbidden_card", "too_many_copies"]
    browser.screenshot(chromium, "deck-check", "laptop-illegal")

    sent = browser.sent_requests(chromium)
    checks = [s for s in sent if "/v1/validate" in s.url]
    assert [s.method for s in checks] == ["GET", "GET"]  # a link is asked by GET, which caches keep
    assert browser.foreign(sent, site) == [f"{api}/elements/deck-check.js", *(s.url for s in checks)]
    assert browser.console_errors(chromium) == []


def test_at_a_phones_width_in_japanese_and_dark_it_warns_the_list_may_be_outdated(
    chromium: webdriver.Chrome, site: str, api: str
) -> None:
    show(chromium, page(site, api, "/phone.html", f'ydke="{ILLEGAL}" date="{LATER}"', lang="ja"), PHONE, dark=True)
    shown = shown_once(chromium, "使用できません")
    expected = answer(api, "ja", ydke=ILLEGAL, date=LATER)
    (note,) = [n for n in expected["ruleset"]["notes"] if n["code"] == "list_may_be_outdated"]
    assert shown["warnings"] == [["list_may_be_outdated", "リストが古い可能性があります" + note["message"]]]
    assert shown["summary"] == "このデッキは大会で使用できません（違反2件）。"
    assert [(v["message"], v["penalty"]) for v in shown["violations"]] == [
        (v["message"], penalty_words(v, "ja")) for v in expected["violations"]
    ]
    # Nothing spills past the phone's width.
    assert chromium.execute_script("return document.scrollingElement.scrollWidth <= innerWidth")
    browser.screenshot(chromium, "deck-check", "phone-ja-dark-outdated")
    assert browser.console_errors(chromium) == []


# Five changes within a few milliseconds, the last one to the illegal deck: what the page heard and the element sent.
BURST = """
const done = arguments[arguments.length - 1];
const element = document.querySelector("deck-check");
const heard = [];
element.addEventListener("deckcheck-verdict", (event) => heard.push(event.detail.verdict.legal));
for (const date of ["2026-12-01", "2026-12-02", "2026-12-03"]) element.setAttribute("date", date);
element.setAttribute("ydke", arguments[0]);
element.setAttribute("date", arguments[1]);
setTimeout(() => done(heard), 2000);
"""


def test_a_burst_of_changes_sends_one_check_and_shows_its_verdict(
    chromium: webdriver.Chrome, site: str, api: str
) -> None:
    settled_on_legal(chromium, page(site, api, "/burst.html", f'ydke="{LEGAL}" date="{TODAY}"'))
    heard = chromium.execute_async_script(BURST, ILLEGAL, TODAY)
    assert heard == [False]
    checks = [s.url for s in checks_sent(chromium)]
    assert len(checks) == 1, checks
    assert httpx.URL(checks[0]).params == httpx.QueryParams({"ydke": ILLEGAL, "date": TODAY, "lang": "en"})
    assert shown_once(chromium, "not legal")["state"] == "illegal"


# A plain list with a name read loosely and one no card has, given by the `list` attribute.
LIST = "3 Dark Magican\n1 Pot of Greed\n1 ブラックマジシャン"


def test_every_deck_form_is_read_and_the_property_takes_the_place_of_the_attributes(
    chromium: webdriver.Chrome, site: str, api: str
) -> None:
    url = page(site, api, "/forms.html", f'list="{LIST}" date="{TODAY}" format="ocg"')
    show(chromium, url, LAPTOP)
    shown = shown_once(chromium, "not legal")
    expected = httpx.post(
        f"{api}/v1/validate", json={"text": LIST, "date": TODAY, "format": "ocg"}, headers={"Accept-Language": "en"}
    ).json()
    assert [v["code"] for v in shown["violations"]] == [v["code"] for v in expected["violations"]]
    assert [v["message"] for v in shown["violations"]] == [v["message"] for v in expected["violations"]]
    assert shown["loosely"] == [entry["message"] for entry in expected["read_loosely"]] != []
    browser.screenshot(chromium, "deck-check", "laptop-list-loosely")

    ydk = "#main\n" + "\n".join([str(POT_OF_GREED)] * 2) + "\n#extra\n!side\n"
    timed = chromium.execute_async_script(
        CHANGE_AND_TIME, f"element.setAttribute('ydk', {json.dumps(ydk)}); element.removeAttribute('list')"
    )
    assert timed["legal"] is False
    assert [v["code"] for v in shown_once(chromium, "not legal")["violations"]] == [
        "forbidden_card",
        "main_deck_too_small",
    ]
    deck = {"main": MAIN_40, "extra": EXTRA, "side": SIDE}
    timed = chromium.execute_async_script(CHANGE_AND_TIME, f"element.deck = {json.dumps(deck)}")
    TIMINGS["laptop: deck property set to the new verdict shown, by POST (ms)"] = round(timed["ms"], 1)
    assert timed["legal"] is True
    # The property stands for the deck until it is null again; then the attributes count once more.
    chromium.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        f"document.querySelector('deck-check').setAttribute('ydke', '{ILLEGAL}'); setTimeout(done, 600);"
    )
    assert shown_once(chromium, "legal for the event")["state"] == "legal"
    timed = chromium.execute_async_script(CHANGE_AND_TIME, "element.deck = null; element.removeAttribute('ydk')")
    assert timed["legal"] is False
    checks = [(s.method, s.url.split("?")[0]) for s in checks_sent(chromium)]
    # The list, the .ydk text and the entries by POST, which the browser asked leave for (a JSON body is not
    # CORS-safelisted) and read across origins; the link by GET at last.
    assert set(checks[:-1]) == {("OPTIONS", f"{api}/v1/validate"), ("POST", f"{api}/v1/validate")}
    # One POST each; the link set while the property held the deck sent nothing.
    assert [method for method, _ in checks].count("POST") == 3
    assert checks[-1] == ("GET", f"{api}/v1/validate")
    assert browser.console_errors(chromium) == []


def test_a_refusal_and_an_unreachable_service_are_shown_and_fired(
    chromium: webdriver.Chrome, site: str, api: str
) -> None:
    show(chromium, page(site, api, "/refused.html", f'ydke="{LEGAL}" date="2026-02-30"'), LAPTOP)
    shown = shown_once(chromium, "could not be checked")
    assert shown["state"] == "failed"
    refusal = httpx.get(f"{api}/v1/validate", params={"ydke": LEGAL, "date": "2026-02-30", "lang": "en"}).json()
    assert shown["error"] == refusal["detail"]
    assert shown["errors"] == [error["msg"] for error in refusal["errors"]]
    request_id = chromium.execute_script(
        'return document.querySelector("deck-check").shadowRoot.querySelector(\'[part~="request-id"]\').textContent'
    )
    assert re.fullmatch(r"Request id: [0-9a-f]{32}", request_id)
    browser.screenshot(chromium, "deck-check", "laptop-refused")
    browser.console_errors(chromium)  # the 422 is logged as a failed load

    gone = f"http://127.0.0.1:{served.free_port()}"
    heard = chromium.execute_async_script(
        """
        const [api, done] = arguments;
        const element = document.querySelector("deck-check");
        element.addEventListener("deckcheck-error", (event) => done(event.detail.error.name), { once: true });
        element.setAttribute("date", "2026-12-04");
        element.setAttribute("api", api);
        """,
        gone,
    )
    assert heard == "TypeError"
    assert shown_once(chromium, "could not be reached")["state"] == "failed"


AXE_RUN = """
const done = arguments[arguments.length - 1];
const tags = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
axe.run(document.querySelector("deck-check"), { runOnly: { type: "tag", values: tags } })
  .then((results) => done({
    violations: results.violations.map((v) => [v.id, v.nodes.map((n) => n.target.flat().join(" >>> "))]),
    passes: results.passes.map((v) => v.id),
  }));
"""


@dataclass(frozen=True)
class View:
    """A window the element is looked at in: its name in the screenshots, size, scheme and the page's language."""

    name: str
    size: tuple[int, int]
    dark: bool
    lang: str


@pytest.fixture(scope="module")
def axe() -> str:
    """axe-core's script, installed with the tools of tests/typescript when missing."""
    installed(AXE.parents[2])
    return AXE.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "view",
    [
        View("laptop-light", LAPTOP, False, "en"),
        View("laptop-dark", LAPTOP, True, "en"),
        View("phone-ja-light", PHONE, False, "ja"),
        View("phone-ja-dark", PHONE, True, "ja"),
    ],
    ids=lambda view: view.name,
)
def test_axe_finds_nothing_wrong_and_the_keyboard_opens_the_notes(
    chromium: webdriver.Chrome, site: str, api: str, axe: str, view: View
) -> None:
    lang = view.lang
    url = page(site, api, f"/axe-{view.name}.html", f'ydke="{ILLEGAL}" date="{LATER}"', lang=lang)
    show(chromium, url, view.size, dark=view.dark)
    shown_once(chromium, "使用できません" if lang == "ja" else "not legal")
    chromium.execute_script(axe)
    checked = chromium.execute_async_script(AXE_RUN)
    assert checked["violations"] == []
    assert "color-contrast" in checked["passes"]  # the verdict, the warning and the notes read in this scheme
    roles = chromium.execute_script(
        """const root = document.querySelector("deck-check").shadowRoot;
        return [root.querySelector('[part~="summary"]').getAttribute("role"),
                root.querySelector('[part~="violations"]').getAttribute("aria-label"),
                root.querySelector('[part~="box"]').lang];"""
    )
    assert roles == ["status", "違反" if lang == "ja" else "Problems", lang]

    # Tab reaches the notes' summary from the top of the page, and Enter opens them.
    ActionChains(chromium).send_keys(Keys.TAB).perform()
    focused = chromium.execute_script(
        "const root = document.activeElement.shadowRoot; return root && root.activeElement.textContent;"
    )
    assert focused == ("この判定について" if lang == "ja" else "About this answer")
    ActionChains(chromium).send_keys(Keys.ENTER).perform()
    assert chromium.execute_script(
        'return document.querySelector("deck-check").shadowRoot.querySelector("details").open'
    )
    browser.screenshot(chromium, "deck-check", f"{view.name}-notes-open")


STYLED = """<style>
deck-check { --deck-check-legal: rgb(0, 90, 160); --deck-check-radius: 0; }
deck-check::part(summary) { text-transform: uppercase; }
deck-check::part(box) { max-width: 40em; }
</style>"""


def test_the_page_restyles_it_through_custom_properties_and_parts(
    chromium: webdriver.Chrome, site: str, api: str, axe: str
) -> None:
    url = page(site, api, "/styled.html", f'ydke="{LEGAL}" date="{TODAY}" theme="light"', head=STYLED)
    show(chromium, url, LAPTOP, dark=True)  # the page fixes the light scheme whatever the reader's
    shown_once(chromium, "legal for the event")
    styles = chromium.execute_script(
        """const root = document.querySelector("deck-check").shadowRoot;
        const style = (part) => getComputedStyle(root.querySelector(`[part~="${part}"]`));
        const [summary, box] = [style("summary"), style("box")];
        return [summary.color, summary.textTransform, box.borderTopLeftRadius, box.maxWidth, box.backgroundColor];"""
    )
    assert styles == ["rgb(0, 90, 160)", "uppercase", "0px", "640px", "rgb(255, 255, 255)"]
    browser.screenshot(chromium, "deck-check", "laptop-styled")
    # axe reads inside the shadow root: a muted colour the page makes too pale is caught there.
    chromium.execute_script('document.querySelector("deck-check").style.setProperty("--deck-check-muted", "#d0d0d0")')
    chromium.execute_script(axe)
    checked = chromium.execute_async_script(AXE_RUN)
    pale = ['p[part="list"]', 'time[datetime="2026-10-01"]', 'time[datetime="2026-12-04"]', "summary"]
    assert checked["violations"] == [["color-contrast", [f"deck-check >>> {node}" for node in pale]]]


def failed_loads(driver: webdriver.Chrome) -> list[tuple[str, bool]]:
    """(error text, cancelled) of each request that failed since the log was last read, from the network log."""
    failed = []
    for entry in browser.read_log(driver, "performance"):
        event = json.loads(entry["message"])["message"]
        if event["method"] == "Network.loadingFailed":
            failed.append((event["params"]["errorText"], event["params"].get("canceled", False)))
    return failed


# Change the deck while its check is on the wire, and again: what the page heard, and the verdict property between.
MIDWAY = """
const [first, second, done] = arguments;
const element = document.querySelector("deck-check");
const heard = [];
element.addEventListener("deckcheck-verdict", (event) => heard.push(event.detail.verdict.legal));
const box = element.shadowRoot.querySelector('[part~="box"]');
element.setAttribute("ydke", first);
setTimeout(() => {
  element.setAttribute("ydke", second);
  // At once, before any answer: no verdict stands for the deck as given now.
  const pending = [element.verdict, box.getAttribute("aria-busy")];
  setTimeout(() => done({ heard, pending, after: element.verdict?.legal ?? null }), 3000);
}, 600);
"""


def test_a_change_while_a_check_is_on_the_wire_cancels_it_and_only_the_new_verdict_is_heard(
    chromium: webdriver.Chrome, site: str, api: str
) -> None:
    show(chromium, page(site, api, "/midway.html", f'ydke="{LEGAL}" date="2026-12-01"'), LAPTOP)
    shown_once(chromium, "legal for the event")
    chromium.execute_cdp_cmd("Network.enable", {})
    slow = {"offline": False, "latency": 1000, "downloadThroughput": -1, "uploadThroughput": -1}
    chromium.execute_cdp_cmd("Network.emulateNetworkConditions", slow)
    try:
        browser.read_log(chromium, "performance")
        # The second deck is one no cache holds yet, so both checks go to the service, a second away.
        other = ydke(main_with({"passcode": MORE_UNLIMITED[0]}, drop=1), EXTRA, SIDE)  # legal
        got = chromium.execute_async_script(MIDWAY, ILLEGAL, other)
    finally:
        chromium.execute_cdp_cmd("Network.emulateNetworkConditions", {**slow, "latency": 0})
    # Only the second deck's verdict (legal) is heard: the first (illegal) was cancelled on the wire.
    assert got == {"heard": [True], "pending": [None, "true"], "after": True}
    assert failed_loads(chromium) == [("net::ERR_ABORTED", True)]  # the first check, cancelled on the wire
    assert shown_once(chromium, "legal for the event")["state"] == "legal"


def test_answer_text_is_shown_as_text_never_as_markup(chromium: webdriver.Chrome, site: str, api: str) -> None:
    typed = '1 <img src=x onerror="window.ran = true">'
    show(chromium, page(site, api, "/markup.html", f'date="{TODAY}"'), LAPTOP)
    chromium.execute_script(f"document.querySelector('deck-check').deck = {{ text: {json.dumps(typed)} }}")
    shown = shown_once(chromium, "not legal")
    assert any('<img src=x onerror="window.ran = true">' in v["message"] for v in shown["violations"])
    assert chromium.execute_script(
        'return [document.querySelector("deck-check").shadowRoot.querySelectorAll("img").length, window.ran ?? null]'
    ) == [0, None]


EARLY = """<deck-check date="2026-12-04"></deck-check>
<script>document.querySelector("deck-check").deck = { ydke: "LINK" };</script>"""


def test_a_deck_set_before_the_element_is_defined_is_checked_and_a_detached_one_is_not(
    chromium: webdriver.Chrome, site: str, api: str
) -> None:
    browser.console_errors(chromium)  # what the pages before logged
    # The deck property set by the page before the script that defines the element has run.
    show(chromium, put(site, "/early.html", EARLY.replace("LINK", ILLEGAL) + script(api)), LAPTOP)
    assert shown_once(chromium, "not legal")["state"] == "illegal"
    browser.read_log(chromium, "performance")
    made = chromium.execute_async_script(
        f"""const done = arguments[arguments.length - 1];
        const element = document.createElement("deck-check");
        element.deck = {{ ydke: "{LEGAL}" }};
        setTimeout(() => done(element.verdict), 600);"""
    )
    assert made is None
    assert checks_sent(chromium) == []
    assert browser.console_errors(chromium) == []


def test_a_page_under_a_strict_policy_that_allows_the_service_shows_it_styled(
    chromium: webdriver.Chrome, site: str, api: str
) -> None:
    policy = f"default-src 'self'; script-src {api}; connect-src {api}; style-src 'self'; img-src data:"
    head = f'<meta http-equiv="Content-Security-Policy" content="{policy}">'
    browser.console_errors(chromium)
    show(chromium, page(site, api, "/policy.html", f'ydke="{LEGAL}" date="{TODAY}" theme="light"', head=head), LAPTOP)
    shown_once(chromium, "legal for the event")
    border = chromium.execute_script(
        """const box = document.querySelector("deck-check").shadowRoot.querySelector('[part~="box"]');
        return getComputedStyle(box).borderLeftColor;"""
    )
    assert border == "rgb(17, 99, 41)"  # the legal colour: the constructed stylesheet applied under style-src 'self'
    assert browser.console_errors(chromium) == []


def test_a_language_switch_on_the_page_checks_again_in_that_language(
    chromium: webdriver.Chrome, site: str, api: str
) -> None:
    show(chromium, page(site, api, "/switch.html", f'ydke="{ILLEGAL}" date="{TODAY}"'), PHONE)
    shown_once(chromium, "not legal")
    chromium.execute_script('document.documentElement.lang = "ja"')  # the site's own language switch
    shown = shown_once(chromium, "使用できません")
    assert shown["list"] == "OCG 2026.10（2026-10-01から）で2026-12-04の大会として確認しました。"
    assert [v["message"] for v in shown["violations"]] == [
        v["message"] for v in answer(api, "ja", ydke=ILLEGAL, date=TODAY)["violations"]
    ]
    browser.screenshot(chromium, "deck-check", "phone-switched-to-ja")


MOVE = """
const done = arguments[arguments.length - 1];
const element = document.querySelector("deck-check");
const heard = [];
element.addEventListener("deckcheck-verdict", () => heard.push("verdict"));
const shelf = document.body.appendChild(document.createElement("section"));
shelf.append(element);  // moved: disconnected, then connected again
setTimeout(() => done({ heard, legal: element.verdict?.legal ?? null }), 600);
"""
# A component of the site's own, whose shadow root holds the element: the page's language reaches it.
WRAPPED = """<deck-panel></deck-panel><script>
customElements.define("deck-panel", class extends HTMLElement {
  connectedCallback() { this.attachShadow({ mode: "open" }).innerHTML = '<deck-check ydke="LINK"></deck-check>'; }
});
</script>"""


def test_a_moved_element_keeps_its_verdict_and_one_in_a_component_reads_the_pages_language(
    chromium: webdriver.Chrome, site: str, api: str
) -> None:
    settled_on_legal(chromium, page(site, api, "/move.html", f'ydke="{LEGAL}" date="{TODAY}"'))
    assert chromium.execute_async_script(MOVE) == {"heard": [], "legal": True}
    assert checks_sent(chromium) == []

    wrapped = put(site, "/wrapped.html", WRAPPED.replace("LINK", ILLEGAL), lang="ja", head=script(api))
    show(chromium, wrapped, LAPTOP)
    summary = chromium.execute_async_script(
        """const done = arguments[arguments.length - 1];
        const element = document.querySelector("deck-panel").shadowRoot.querySelector("deck-check");
        element.addEventListener("deckcheck-verdict", () => {
          done(element.shadowRoot.querySelector('[part~="summary"]').textContent);
        }, { once: true });"""
    )
    assert summary == "このデッキは大会で使用できません（違反2件）。"


def test_a_deck_set_early_that_is_no_deck_is_reported_and_fired(
    chromium: webdriver.Chrome, site: str, api: str
) -> None:
    body = (
        '<deck-check date="2026-12-04"></deck-check><script>'
        "window.heard = [];"
        'document.addEventListener("deckcheck-error", (event) => window.heard.push(event.detail.error.name));'
        f'document.querySelector("deck-check").deck = "{ILLEGAL}";</script>'
    )
    show(chromium, put(site, "/wrong-early.html", body + script(api)), LAPTOP)
    shown = shown_once(chromium, "not a deck")
    assert (shown["state"], shown["summary"]) == ("failed", "The deck given is not a deck.")
    assert chromium.execute_script("return window.heard") == ["TypeError"]


def test_loaded_as_a_module_behind_a_cache_buster_it_finds_its_service(
    chromium: webdriver.Chrome, site: str, api: str
) -> None:
    # A module script has no currentScript: the element finds its tag by path, a query string after it. The module is
    # fetched with CORS, which the service allows.
    module = f'<script type="module" src="{api}/elements/deck-check.js?v=2"></script>'
    url = put(site, "/module.html", f'<deck-check ydke="{ILLEGAL}" date="{TODAY}"></deck-check>', head=module)
    browser.console_errors(chromium)
    show(chromium, url, LAPTOP)
    assert shown_once(chromium, "not legal")["state"] == "illegal"
    assert browser.console_errors(chromium) == []
