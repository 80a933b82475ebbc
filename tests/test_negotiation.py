"""Content negotiation (RFC 9110 §12.5): the one helper every negotiating route uses, held to the RFC's own
examples, and the routes over real HTTP."""

from __future__ import annotations

import json

import httpx
import pytest

from deckcheck import Data
from deckcheck.api.negotiation import choose_language, choose_media
from tests.cases import CASES
from tests.golden import golden_path, run_case

# RFC 9110 §12.5.1's example header and the weight it gives each media type (the table under it).
RFC_ACCEPT = "text/*;q=0.3, text/plain;q=0.7, text/plain;format=flowed, text/plain;format=fixed;q=0.4, */*;q=0.5"
RFC_WEIGHTS = {
    "text/plain;format=flowed": 1.0,
    "text/plain": 0.7,
    "text/html": 0.3,
    "image/jpeg": 0.5,
    "text/plain;format=fixed": 0.4,
    "text/html;level=3": 0.3,
}


@pytest.mark.parametrize(
    ("winner", "loser"), [(a, b) for a in RFC_WEIGHTS for b in RFC_WEIGHTS if RFC_WEIGHTS[a] > RFC_WEIGHTS[b]]
)
def test_the_rfcs_weights_order_its_media_types(winner: str, loser: str) -> None:
    assert choose_media(RFC_ACCEPT, [loser, winner]) == winner
    assert choose_media(RFC_ACCEPT, [winner, loser]) == winner


LIST_FORMS = ("application/json", "text/plain")


@pytest.mark.parametrize(
    ("accept", "offered", "chosen"),
    [
        # §12.5.1: the most specific range wins; "I prefer audio/basic, but send me any audio type".
        ("text/*;q=0.1, text/plain;format=flowed, */*;q=0.2", ("text/html", "text/plain;format=flowed"), 1),
        ("audio/*; q=0.2, audio/basic", ("audio/x-other", "audio/basic"), 1),
        (None, LIST_FORMS, 0),
        ("", LIST_FORMS, 0),
        ("*/*", LIST_FORMS, 0),
        ("text/plain, application/json;q=0.5", LIST_FORMS, 1),
        ("application/json;q=0, text/plain", LIST_FORMS, 1),
        ("application/json;q=0", LIST_FORMS, 1),  # refused, and the other form is not: the other
        ("application/json;q=0, */*", LIST_FORMS, 1),
        ("TEXT/PLAIN;Q=0.9, application/*;q=0.8", LIST_FORMS, 1),
        ("text/plain;q=high", LIST_FORMS, 0),  # a malformed weight refuses what it is on, and no more
        ("text/html", LIST_FORMS, 0),  # names neither: the header is disregarded
        ("application/json;q=0, text/plain;q=0", LIST_FORMS, None),
        ("*/*;q=0", LIST_FORMS, None),
    ],
)
def test_media_types(accept: str | None, offered: tuple[str, ...], chosen: int | None) -> None:
    assert choose_media(accept, offered) == (None if chosen is None else offered[chosen])


@pytest.mark.parametrize(
    ("header", "chosen"),
    [
        ("da, en-gb;q=0.8, en;q=0.7", "en"),  # RFC 9110 §12.5.4's example
        (None, "en"),
        ("ja-JP,ja;q=0.9", "ja"),
        ("ja-JP", "ja"),
        ("en;q=0.5, ja;q=0.5", "en"),  # a tie: the earlier named
        ("ja;q=0, *", "en"),
        ("*;q=0.5, ja", "ja"),
        ("ja;q=0, en;q=0", "en"),  # both refused: answered in English rather than not at all (§12.5.4)
        ("ja-JP;q=0.2, ja;q=0.9, en;q=0.5", "ja"),
        # `*` states no preference: the route's default, unless a language named weighs as much or more.
        ("*", "en"),
        ("*;q=0.5", "en"),
        ("*;q=0.5, ja;q=0.1", "en"),  # any language but Japanese first: the default is one of them
        ("*, ja", "ja"),  # as much as any, and named: a preference
        ("ja;q=0.5, *;q=0.5", "ja"),
        ("*;q=0.5, ja-JP", "ja"),
        ("en;q=0.5, *", "ja"),  # any language before English: Japanese is the one other offered
        ("*;q=0", "en"),  # every language refused: answered in the default rather than not at all
        ("fr, *;q=0.5", "en"),  # French is not offered: `*` weighs the two alike
    ],
)
def test_languages(header: str | None, chosen: str) -> None:
    assert choose_language(header, ("ja", "en"), "en") == chosen


@pytest.mark.parametrize(
    ("header", "chosen"),
    [("*", "ja"), ("*;q=0.5, ja;q=0.1", "en"), ("*;q=0.5, en;q=0.1", "ja"), ("*, en", "en"), ("en;q=0, *", "ja")],
)
def test_a_wildcard_gives_the_default_of_the_route(header: str, chosen: str) -> None:
    """The same headers where Japanese is the default, as a route offering Japanese first and by default would
    have it: `*` gives the default, never merely the language offered first."""
    assert choose_language(header, ("en", "ja"), "ja") == chosen
    assert choose_language("*", ("en", "ja"), "ja") == "ja"


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("*", "en"),
        ("*;q=0.5, ja;q=0.1", "en"),
        ("ja;q=0, *", "en"),
        ("*;q=0.5, ja", "ja"),
        ("*, ja", "ja"),
        ("en;q=0.5, *", "ja"),
    ],
)
def test_validate_with_a_wildcard_answers_as_the_golden_case(
    client: httpx.Client, data: Data, header: str, lang: str
) -> None:
    """Golden: POST /v1/validate of the golden case forbidden_pot_of_greed with Accept-Language `*` (alone, or
    below or beside a named language) answers the stored English report, byte for byte as JSON, in English;
    where a language named weighs highest, in Japanese, as `ja` answers."""
    body, _expected = CASES["forbidden_pot_of_greed"]
    answer = client.post("/v1/validate", json=body, headers={"Accept-Language": header})
    assert (answer.status_code, answer.headers["content-language"]) == (200, lang)
    if lang == "en":
        assert answer.json() == json.loads(golden_path("forbidden_pot_of_greed").read_text(encoding="utf-8"))
    else:
        japanese = client.post("/v1/validate", json=body, headers={"Accept-Language": "ja"}).json()
        assert answer.json() == japanese == run_case(body, data, "ja")
        assert japanese["violations"][0]["message"] == "「強欲な壺」はOCG 2008.03で禁止カードです。"


def test_every_language_route_answers_a_wildcard_in_english(client: httpx.Client) -> None:
    """Every route that answers in Japanese or English takes `*` for no preference: English, its default."""
    star = {"Accept-Language": "*"}
    for path in ("/v1/rules", "/v1/rules/eras", "/v1/infractions"):
        answer = client.get(path, headers=star)
        assert answer.headers["content-language"] == "en", path
        assert answer.content == client.get(path, headers={"Accept-Language": "en"}).content, path


@pytest.mark.parametrize(
    ("accept", "form"),
    [
        ("text/plain, application/json;q=0.5", "text/plain; charset=utf-8"),
        ("application/json;q=0, text/plain", "text/plain; charset=utf-8"),
        ("application/json, text/plain", "application/json"),
        ("application/json;q=0.5, text/*", "text/plain; charset=utf-8"),
        ("*/*", "application/json"),
    ],
)
def test_a_list_in_the_form_accept_weighs_highest(client: httpx.Client, accept: str, form: str) -> None:
    answer = client.get("/v1/banlists/ocg-2008-09-01", headers={"Accept": accept})
    assert (answer.status_code, answer.headers["content-type"]) == (200, form)


@pytest.mark.parametrize(
    ("path", "body", "accept", "forms"),
    [
        ("/v1/banlists/ocg-2008-09-01", None, "application/json;q=0, text/plain;q=0", "application/json, text/plain"),
        ("/v1/decks/convert", {"text": "3 Dark Magician", "to": "qr"}, "image/*;q=0", "image/svg+xml, image/png"),
    ],
)
def test_a_request_that_refuses_every_form_is_answered_406(
    client: httpx.Client, path: str, body: dict[str, object] | None, accept: str, forms: str
) -> None:
    headers = {"Accept": accept}
    answer = client.get(path, headers=headers) if body is None else client.post(path, json=body, headers=headers)
    assert (answer.status_code, answer.headers["content-type"]) == (406, "application/problem+json")
    assert answer.json()["errors"] == [
        {
            "loc": ["header", "accept"],
            "msg": f"Accept refuses every form this answer has: {forms}.",
            "type": "not_acceptable",
        }
    ]
