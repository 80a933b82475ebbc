"""HTTP caching, paging, unknown query parameters and CORS, over real HTTP: what a website and a shared cache in
front of it rely on."""

from __future__ import annotations

import datetime as dt
import re
import shutil
from pathlib import Path

import httpx
import pytest

from deckcheck import Data, load_data
from deckcheck.data.status import data_status, lists_in_force, newest_lists
from deckcheck.data.watchers import default_updates_dir
from deckcheck.days import today
from deckcheck.versions import PACKAGE, code_digest, data_version

# Every GET resource, with the request headers that pick its representation.
RESOURCES = [
    ("/v1/cards/55144522", {}),
    ("/v1/cards?q=Stardust", {}),
    ("/v1/banlists", {}),
    ("/v1/banlists?format=tcg&limit=5", {}),
    ("/v1/banlists/ocg-2008-09-01", {}),
    ("/v1/banlists/ocg-2008-09-01", {"Accept": "text/plain"}),
    ("/v1/banlists/ocg-2008-09-01?as=lflist", {}),
    ("/v1/banlists/ocg-2008-03-01/diff/ocg-2008-09-01", {}),
    ("/v1/rules", {"Accept-Language": "ja"}),
    ("/v1/rules/eras", {}),
]


def test_health_names_the_data_version(client: httpx.Client, data: Data) -> None:
    answer = client.get("/healthz")
    assert answer.json() == {
        "status": "ok",
        "cards": 14216,
        "banlists": 133,
        "imports": 1,
        "lists_in_force": lists_in_force(data, today()),
        "newest_lists": newest_lists(data, today()),
        "printings_complete_until": "2025-11-15",
        "printings_may_be_missing": True,
        "data_version": data_version(data),
        "loaded": answer.json()["loaded"],
        "updates_dir": str(default_updates_dir()),  # no DECKCHECK_UPDATES_DIR: the user's data folder
        "updates_poll_seconds": 2.0,
        "stale": None,
        "version": "0.1.0",
    }
    assert re.fullmatch("[0-9a-f]{16}", answer.json()["data_version"])
    assert client.get("/readyz").json()["newest_lists"] == newest_lists(data, today())


def test_the_data_status_is_worked_out_once_a_day_per_load_of_the_data() -> None:
    """/healthz asks for it at every request: it is kept with the data it came from, one per day, and a load of the
    same files (a reload) works it out afresh."""
    first, again = load_data(), load_data()
    day, next_day = dt.date(2008, 6, 1), dt.date(2008, 6, 2)
    kept = data_status(first, day)
    assert data_status(first, day) is kept
    assert data_status(first, next_day) is not kept
    assert data_status(again, day) is not kept
    assert data_status(again, day) == kept
    assert kept["lists_in_force"] == lists_in_force(first, day)


def test_the_data_version_follows_the_code_but_not_caches_or_data(tmp_path: Path) -> None:
    copy = tmp_path / "deckcheck"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "bundled"))
    assert code_digest(copy) == code_digest(PACKAGE)
    (copy / "__pycache__").mkdir(exist_ok=True)
    (copy / "__pycache__" / "extra.pyc").write_bytes(b"compiled")
    (copy / "bundled" / "cards").mkdir(parents=True)
    (copy / "bundled" / "cards" / "cards.csv").write_text("data, covered by the data digest\n")
    assert code_digest.__wrapped__(copy) == code_digest(PACKAGE)
    messages = copy / "rules" / "messages.py"
    messages.write_text(messages.read_text(encoding="utf-8") + "\n# reworded\n", encoding="utf-8")
    assert code_digest.__wrapped__(copy) != code_digest(PACKAGE)


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [("GET", "/healthz", None), ("POST", "/v1/validate", {"main": []}), ("GET", "/v1/cards/1", None)],
)
def test_every_answer_names_the_data_version(
    client: httpx.Client, data: Data, method: str, path: str, body: object
) -> None:
    answer = client.request(method, path, json=body)
    assert answer.headers["Deckcheck-Data-Version"] == data_version(data)


@pytest.mark.parametrize(("path", "headers"), RESOURCES)
def test_every_get_resource_answers_304_to_its_own_etag(
    client: httpx.Client, data: Data, path: str, headers: dict[str, str]
) -> None:
    first = client.get(path, headers=headers)
    assert first.status_code == 200
    etag = first.headers["ETag"]
    assert etag.startswith(f'"{data_version(data)}')
    assert first.headers["Cache-Control"] == "public, max-age=3600"
    for named in (etag, f"W/{etag}", f'"other", {etag}', "*"):
        again = client.get(path, headers={**headers, "If-None-Match": named})
        assert (again.status_code, again.content) == (304, b"")
        assert again.headers["ETag"] == etag
        assert again.headers["Cache-Control"] == first.headers["Cache-Control"]
        assert again.headers.get("Vary") == first.headers.get("Vary")
    stale = client.get(path, headers={**headers, "If-None-Match": '"0000000000000000"'})
    assert (stale.status_code, stale.content) == (200, first.content)


def test_language_and_media_type_are_variants_with_their_own_etags(client: httpx.Client) -> None:
    ja = client.get("/v1/rules", headers={"Accept-Language": "ja"})
    en = client.get("/v1/rules", headers={"Accept-Language": "en"})
    # Origin too: an answer to a page carries Access-Control-Allow-Origin, one to a program does not.
    assert ja.headers["Vary"] == en.headers["Vary"] == "Accept-Language, Origin"
    assert ja.headers["ETag"] != en.headers["ETag"]
    assert ja.json() != en.json()
    crossed = client.get("/v1/rules", headers={"Accept-Language": "en", "If-None-Match": ja.headers["ETag"]})
    assert (crossed.status_code, crossed.content) == (200, en.content)

    text = client.get("/v1/banlists/ocg-2008-09-01", headers={"Accept": "text/plain"})
    json = client.get("/v1/banlists/ocg-2008-09-01")
    assert text.headers["content-type"].startswith("text/plain")
    assert text.headers["Vary"] == json.headers["Vary"] == "Accept, Origin"
    assert text.headers["ETag"] != json.headers["ETag"]


def test_a_missing_resource_is_never_not_modified(client: httpx.Client) -> None:
    for path in ("/v1/cards/1", "/v1/banlists/ocg-1999-01-01", "/v1/banlists/ocg-2008-09-01/diff/ocg-1999-01-01"):
        answer = client.get(path, headers={"If-None-Match": "*"})
        assert answer.status_code == 404
        assert "ETag" not in answer.headers


def test_checks_are_not_cached(client: httpx.Client) -> None:
    answer = client.post("/v1/validate", json={"main": []})
    assert "ETag" not in answer.headers
    assert "Cache-Control" not in answer.headers


def _pages(client: httpx.Client, path: str) -> list[list[dict[str, object]]]:
    """Every page of a paged resource, following its Link headers."""
    pages: list[list[dict[str, object]]] = []
    url: str | None = path
    while url is not None:
        answer = client.get(url)
        assert answer.status_code == 200
        pages.append(answer.json())
        link = answer.links.get("next", {}).get("url")
        url = None if link is None else str(answer.url.join(link))  # relative to the page it came with
        assert len(pages) < 100
    return pages


def test_search_pages_follow_next_links_to_the_same_ranking(client: httpx.Client) -> None:
    whole = client.get("/v1/cards", params={"q": "Stardust", "limit": 50}).json()
    assert 20 < len(whole) < 50
    pages = _pages(client, "/v1/cards?q=Stardust&limit=7")
    assert [len(page) for page in pages[:-1]] == [7] * (len(pages) - 1)
    assert 1 <= len(pages[-1]) <= 7
    assert [hit for page in pages for hit in page] == whole
    second = client.get("/v1/cards", params={"q": "Stardust", "limit": 7})
    assert second.headers["Link"] == '<?q=Stardust&limit=7&offset=7>; rel="next"'


@pytest.mark.parametrize("limit", [10, 7, 50])
def test_search_pages_end_at_the_500th_card(client: httpx.Client, limit: int) -> None:
    pages = _pages(client, f"/v1/cards?q=Dragon&limit={limit}")
    hits = [hit["passcode"] for page in pages for hit in page]
    assert len(hits) == len(set(hits)) == 500
    assert [len(page) for page in pages] == [limit] * (500 // limit) + ([500 % limit] if 500 % limit else [])
    last = client.get("/v1/cards", params={"q": "Dragon", "limit": 10, "offset": 495})
    assert (len(last.json()), "Link" in last.headers) == (5, False)
    beyond = client.get("/v1/cards", params={"q": "Dragon", "offset": 500})
    assert beyond.status_code == 422
    assert beyond.json()["errors"][0]["loc"] == ["query", "offset"]


def test_banlist_pages_cover_every_list_once(client: httpx.Client) -> None:
    whole = client.get("/v1/banlists")
    assert "Link" not in whole.headers  # one page holds every bundled list unless fewer are asked for
    pages = _pages(client, "/v1/banlists?limit=50")
    assert [len(page) for page in pages] == [50, 50, 33]
    assert [item for page in pages for item in page] == whole.json()
    tcg = _pages(client, "/v1/banlists?format=tcg&limit=40&offset=10")
    assert [item for page in tcg for item in page] == client.get("/v1/banlists?format=tcg").json()[10:]


@pytest.mark.parametrize(
    ("method", "path", "unknown"),
    [
        ("GET", "/v1/cards/55144522?lang=ja", ["lang"]),
        ("GET", "/v1/cards?q=Stardust&ofset=10&page=2", ["ofset", "page"]),
        ("GET", "/v1/banlists?fromat=tcg", ["fromat"]),
        ("GET", "/healthz?verbose=1", ["verbose"]),
        ("POST", "/v1/validate?date=2008-09-01", ["date"]),
        ("POST", "/v1/decks/parse?format=ydk", ["format"]),
        ("POST", "/v1/rechecks?banlst=ocg-2008-09-01", ["banlst"]),
    ],
)
def test_unknown_query_parameters_are_refused(client: httpx.Client, method: str, path: str, unknown: list[str]) -> None:
    answer = client.request(method, path, json={"main": []} if method == "POST" else None)
    assert answer.status_code == 422
    assert answer.headers["content-type"] == "application/problem+json"
    problem = answer.json()
    assert problem["type"] == "urn:deckcheck:problem:invalid-request"
    assert [(e["loc"], e["type"]) for e in problem["errors"]] == [
        (["query", name], "extra_forbidden") for name in unknown
    ]


def test_unknown_query_message_names_what_the_route_takes(client: httpx.Client) -> None:
    answer = client.get("/v1/banlists?fromat=tcg").json()
    assert answer["errors"][0]["msg"] == "Unknown query parameter; this route takes format, limit, offset"
    answer = client.get("/v1/rules?lang=ja").json()
    assert answer["errors"][0]["msg"] == "Unknown query parameter; this route takes none"


def test_preflight_allows_any_origin_and_the_project_headers(client: httpx.Client) -> None:
    asked = {
        "Origin": "https://decks.example",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type, accept-language, deckcheck-banlist, x-request-id",
    }
    answer = client.options("/v1/validate", headers=asked)
    assert answer.status_code == 200
    assert answer.headers["Access-Control-Allow-Origin"] == "*"
    assert answer.headers["Access-Control-Max-Age"] == "600"
    allowed = {h.strip().lower() for h in answer.headers["Access-Control-Allow-Headers"].split(",")}
    assert {"content-type", "accept-language", "deckcheck-banlist", "x-request-id", "if-none-match"} <= allowed
    assert "Access-Control-Allow-Credentials" not in answer.headers


def test_answers_expose_the_project_headers_to_pages(client: httpx.Client) -> None:
    answer = client.get("/v1/cards/55144522", headers={"Origin": "https://decks.example"})
    assert answer.headers["Access-Control-Allow-Origin"] == "*"
    exposed = {h.strip() for h in answer.headers["Access-Control-Expose-Headers"].split(",")}
    assert exposed == {"ETag", "Link", "Retry-After", "X-Request-ID", "Deckcheck-Data-Version"}
    refused = client.get("/v1/cards/1", headers={"Origin": "https://decks.example"})
    assert refused.headers["Access-Control-Allow-Origin"] == "*"  # a page can read why it was refused
