"""Content negotiation (RFC 9110 §12.5): the one helper every negotiating route uses, held to the RFC's own
examples, and the routes over real HTTP."""

from __future__ import annotations

import httpx
import pytest

from deckcheck.api.negotiation import choose_language, choose_media

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
    ],
)
def test_languages(header: str | None, chosen: str) -> None:
    assert choose_language(header, ("ja", "en"), "en") == chosen


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
