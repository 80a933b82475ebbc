"""QR codes of decks: POST /v1/decks/convert with `to: qr` over real HTTP, `deckcheck qr`, and the drawing itself.
Every code is read back with a real decoder (zxing-cpp; resvg renders an SVG to pixels first) into exactly the ydke
link `to: ydke` gives for the same deck, drawn black on white, 8 px a module, with a quiet zone of 4 modules."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import httpx
import numpy as np
import orjson
import pytest
import resvg_py
import segno
import zxingcpp
from PIL import Image

from deckcheck import Data
from deckcheck.cli import run
from deckcheck.formats import DeckTooLargeForQr
from deckcheck.formats.qr import QR_MAX_BYTES, qr_code
from tests.decks import EXTRA_15, MAIN_40, SIDE_15

CONVERT = "/v1/decks/convert"
SMALL = {"text": "3 Dark Magician\n1 Pot of Greed"}
FULL = {"main": MAIN_40, "extra": EXTRA_15, "side": SIDE_15}
TOO_LARGE = "the deck's ydke link has 2338 bytes; a QR code (version 40, error correction M) holds at most 2331"


class Scan(NamedTuple):
    """What a scan of an image finds: the text of each code, and of the first its version, error-correction level,
    where its top left corner is, the image's size, and the shades (0 black, 255 white) of the image's corner and of
    the code's first module."""

    texts: list[str]
    version: str
    level: str
    top_left: tuple[int, int]
    size: tuple[int, int]
    shades: tuple[int, int]


def scan(image: bytes, kind: str) -> Scan:
    """Read every QR code in a PNG or SVG image, dark on light only."""
    png = resvg_py.svg_to_bytes(svg_string=image.decode("utf-8")) if kind == "svg" else image
    picture = Image.open(io.BytesIO(png)).convert("L")
    only_qr = zxingcpp.BarcodeFormats(zxingcpp.BarcodeFormat.QRCode)
    codes = zxingcpp.read_barcodes(picture, formats=only_qr, try_invert=False)
    corner, extra, shades = codes[0].position.top_left, codes[0].extra, np.asarray(picture)
    assert isinstance(extra, dict)
    return Scan(
        [code.text for code in codes],
        str(extra["Version"]),
        codes[0].ec_level,
        (corner.x, corner.y),
        picture.size,
        (int(shades[0, 0]), int(shades[corner.y, corner.x])),
    )


def drawn(text: str, version: int, level: str) -> Scan:
    """The scan of a code of `text` at `version` and `level`, drawn black on white, 8 px a module, in a quiet zone
    of 4 modules."""
    side = (17 + 4 * version + 2 * 4) * 8
    return Scan([text], str(version), level, (32, 32), (side, side), (255, 0))


def distinct(data: Data, main: int, extra: int = 0, side: int = 0) -> dict[str, Any]:
    """A deck of all-different real cards, one copy each: main and side deck cards, and extra deck monsters."""
    cards = sorted({card.passcode: card for card in data.cards.by_passcode.values()}.values(), key=lambda c: c.passcode)
    mains = [{"passcode": c.passcode} for c in cards if c.extra_deck_type == "none"]
    extras = [{"passcode": c.passcode} for c in cards if c.extra_deck_type != "none"]
    return {"main": mains[:main], "extra": extras[:extra], "side": mains[main : main + side]}


def ydke(client: httpx.Client, deck: dict[str, Any]) -> str:
    """The ydke link `to: ydke` gives for `deck`."""
    answer = client.post(CONVERT, json={**deck, "to": "ydke"})
    assert answer.status_code == 200
    return str(answer.json()["content"])


# Each deck: its link's length, and the version and level of its code (segno raises M to Q or H when the data fits
# the same version).
DECKS: dict[str, tuple[Callable[[Data], dict[str, Any]], int, int, str]] = {
    "one-card": (lambda data: {"main": [{"passcode": 55144522}]}, 18, 2, "Q"),
    "small": (lambda data: SMALL, 34, 3, "M"),
    "full-40-15-15": (lambda data: FULL, 386, 15, "M"),
    "distinct-60-15-15": (lambda data: distinct(data, 60, 15, 15), 490, 17, "M"),
    "largest-405-15-15": (lambda data: distinct(data, 405, 15, 15), 2330, 40, "M"),
    "largest-435": (lambda data: distinct(data, 435), 2330, 40, "M"),
}


@pytest.mark.slow
@pytest.mark.parametrize(("accept", "kind"), [("image/svg+xml", "svg"), ("image/png", "png")])
@pytest.mark.parametrize("name", DECKS)
def test_a_code_reads_back_as_the_decks_ydke_link(
    client: httpx.Client, data: Data, name: str, accept: str, kind: str
) -> None:
    deck, length, version, level = DECKS[name]
    body = deck(data)
    link = ydke(client, body)
    answer = client.post(CONVERT, json={**body, "to": "qr"}, headers={"Accept": accept})
    headers = [answer.headers[name] for name in ("content-type", "content-disposition", "vary")]
    assert (answer.status_code, headers) == (200, [accept, f'inline; filename="deck.{kind}"', "Accept, Origin"])
    assert (len(link), scan(answer.content, kind)) == (length, drawn(link, version, level))


def test_one_card_more_than_the_largest_deck_is_refused(client: httpx.Client, data: Data) -> None:
    for deck in (distinct(data, 406, 15, 15), distinct(data, 436)):
        answer = client.post(CONVERT, json={**deck, "to": "qr"}, headers={"X-Request-ID": "qr-too-large"})
        assert (answer.status_code, answer.headers["content-type"]) == (422, "application/problem+json")
        assert answer.json() == {
            "type": "urn:deckcheck:problem:invalid-request",
            "title": "Unprocessable Entity",
            "status": 422,
            "detail": TOO_LARGE,
            "errors": [{"loc": ["body"], "msg": TOO_LARGE, "type": "deck_too_large_for_qr"}],
            "request_id": "qr-too-large",
        }


def test_a_deck_of_500_entries_is_refused_in_any_form(client: httpx.Client, data: Data) -> None:
    deck = distinct(data, 500)
    link = ydke(client, deck)
    for form in (deck, {"ydke": link}, {"ydk": "#main\n" + "\n".join(str(e["passcode"]) for e in deck["main"])}):
        answer = client.post(CONVERT, json={**form, "to": "qr"})
        assert answer.json()["errors"] == [
            {
                "loc": ["body"],
                "msg": "the deck's ydke link has 2678 bytes; a QR code (version 40, error correction M) holds at "
                "most 2331",
                "type": "deck_too_large_for_qr",
            }
        ]
    assert len(link) == 2678


def test_an_unknown_card_is_refused_as_for_a_ydke_link(client: httpx.Client) -> None:
    deck = {"text": "3 Dark Magician\n1 Pot of Gred\nSide\n2 Nonesuch"}
    headers = {"X-Request-ID": "qr-unknown"}
    as_ydke = client.post(CONVERT, json={**deck, "to": "ydke"}, headers=headers)
    as_qr = client.post(CONVERT, json={**deck, "to": "qr"}, headers=headers)
    assert (as_qr.status_code, as_qr.json()) == (422, as_ydke.json())
    assert as_qr.json()["errors"] == [
        {
            "loc": ["body", "main", 1],
            "msg": "'Pot of Gred' is not the name of an official card; it cannot be written",
            "type": "unknown_name",
            "line": 2,
        },
        {
            "loc": ["body", "side", 0],
            "msg": "'Nonesuch' is not the name of an official card; it cannot be written",
            "type": "unknown_name",
            "line": 4,
        },
    ]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("accept", "kind"),
    [
        (None, "svg"),
        ("*/*", "svg"),
        ("image/*", "svg"),
        ("image/svg+xml", "svg"),
        ("image/png", "png"),
        ("IMAGE/PNG", "png"),
        ("image/png, image/svg+xml", "svg"),
        ("image/png, image/svg+xml;q=0.9", "png"),
        ("image/svg+xml;q=0.5, image/png;q=0.8", "png"),
        ("image/svg+xml, image/png;q=0.9", "svg"),
        ("image/png;q=0.5, */*;q=0.1", "png"),
        ("image/png;q=0, */*", "svg"),
        ("image/svg+xml;q=0, image/*", "png"),
        ("image/svg+xml;q=0, image/*;q=0.2, */*", "png"),
        ("image/png;q=high", "svg"),
        ("text/html, application/json", "svg"),
        ("image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8", "svg"),  # a browser's <img>
    ],
)
def test_accept_picks_the_image(client: httpx.Client, accept: str | None, kind: str) -> None:
    headers = {} if accept is None else {"Accept": accept}
    answer = client.post(CONVERT, json={**SMALL, "to": "qr"}, headers=headers)
    media = {"svg": "image/svg+xml", "png": "image/png"}[kind]
    assert (answer.headers["content-type"], scan(answer.content, kind).texts) == (media, [ydke(client, SMALL)])


def test_the_capacity_is_segnos_own() -> None:
    assert drawn_code("x" * QR_MAX_BYTES) == (40, "M")
    with pytest.raises(segno.DataOverflowError):
        segno.make_qr("x" * (QR_MAX_BYTES + 1), error="M")
    with pytest.raises(DeckTooLargeForQr) as caught:
        qr_code("x" * (QR_MAX_BYTES + 1), "png")
    assert (str(caught.value), caught.value.size) == (
        "the deck's ydke link has 2332 bytes; a QR code (version 40, error correction M) holds at most 2331",
        2332,
    )


def drawn_code(text: str) -> tuple[int, str]:
    """The version and level of the code `qr_code` draws of `text`, as a scan finds them."""
    found = scan(qr_code(text, "png"), "png")
    assert found.texts == [text]
    return int(found.version), found.level


# The command line: `deckcheck qr FILE [--out PATH]`.


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def files(tmp_path: Path, data: Data) -> dict[str, Path]:
    """The full deck as a .ydk file, as JSON, and as a validate request whose event is all wrong (a QR code takes
    only its deck); the small deck as text; a deck one card too large for a code; a text list and a JSON deck naming
    cards that are no official card's."""
    ydk = ["#main"] + [str(e["passcode"]) for e in MAIN_40 for _ in range(e.get("count", 1))]
    ydk += ["#extra"] + [str(e["passcode"]) for e in EXTRA_15 for _ in range(e["count"])]
    ydk += ["!side"] + [str(e["passcode"]) for e in SIDE_15 for _ in range(e["count"])]
    texts = {
        "full.ydk": "\n".join(ydk) + "\n",
        "full.json": orjson.dumps({**FULL, "date": "2008-06-01"}).decode(),
        "full-request.json": orjson.dumps(
            {**FULL, "date": "2008-02-30", "banlist": "no-such-list", "duel": 4}
        ).decode(),
        "small.txt": SMALL["text"],
        "large.json": orjson.dumps(distinct(data, 406, 15, 15)).decode(),
        "unknown.txt": "1 Pot of Greed\n2 存在しないカード\nSide\n1 Pot of Gred",
        "unknown.json": orjson.dumps({"main": [{"passcode": 55144522}, {"name": "Pot of Gred"}]}).decode(),
    }
    for name, text in texts.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return {name: tmp_path / name for name in texts}


@pytest.mark.slow
@pytest.mark.parametrize("name", ["full.ydk", "full.json", "full-request.json", "small.txt"])
def test_the_command_writes_svg_to_standard_output(client: httpx.Client, files: dict[str, Path], name: str) -> None:
    link = ydke(client, FULL if name.startswith("full") else SMALL)
    code, out, err = _run("qr", str(files[name]))
    assert (code, err, scan(out.encode(), "svg").texts) == (0, "", [link])


@pytest.mark.slow
@pytest.mark.parametrize(("out", "kind"), [("deck.png", "png"), ("DECK.PNG", "png"), ("deck.svg", "svg")])
def test_the_command_writes_png_or_svg_by_the_name(client: httpx.Client, tmp_path: Path, out: str, kind: str) -> None:
    link = ydke(client, FULL)
    code, stdout, err = _run("qr", link, "--out", str(tmp_path / out))
    assert (code, stdout, err) == (0, "", "")
    assert scan((tmp_path / out).read_bytes(), kind) == drawn(link, 15, "M")


@pytest.mark.parametrize("out", ["deck.jpg", "deck", "deck.svg.txt"])
def test_the_command_refuses_an_image_it_cannot_write(client: httpx.Client, tmp_path: Path, out: str) -> None:
    code, stdout, err = _run("qr", ydke(client, SMALL), "--out", str(tmp_path / out))
    assert (code, stdout, err) == (
        2,
        "",
        f"deckcheck qr: argument --out: not a name ending in .svg or .png: {str(tmp_path / out)!r}\n",
    )
    assert list(tmp_path.iterdir()) == []


def test_the_command_refuses_a_deck_too_large(files: dict[str, Path], tmp_path: Path) -> None:
    large = str(files["large.json"])
    assert _run("qr", large, "--out", str(tmp_path / "large.png")) == (2, "", f"deckcheck: {large}: {TOO_LARGE}\n")
    assert not (tmp_path / "large.png").exists()


@pytest.mark.slow
def test_the_command_refuses_what_it_cannot_draw(files: dict[str, Path], tmp_path: Path) -> None:
    unknown, unknown_json, missing = (
        str(files["unknown.txt"]),
        str(files["unknown.json"]),
        str(tmp_path / "missing.ydk"),
    )
    assert _run("qr", unknown) == (
        2,
        "",
        f"deckcheck: {unknown}: line 2: main.1: '存在しないカード' is not the name of an official card; it cannot be "
        "written; line 4: side.0: 'Pot of Gred' is not the name of an official card; it cannot be written\n",
    )
    assert _run("qr", unknown_json) == (
        2,
        "",
        f"deckcheck: {unknown_json}: main.1: 'Pot of Gred' is not the name of an official card; it cannot be written\n",
    )
    assert _run("qr", missing) == (
        2,
        "",
        f"deckcheck: {missing}: [Errno 2] No such file or directory: '{missing}'\n",
    )
    assert _run("qr", "ydke://AAAA!!") == (
        2,
        "",
        "deckcheck: ydke://AAAA!!: ydke.main: main: 3 bytes is not a whole number of passcodes\n",
    )
