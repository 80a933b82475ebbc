"""An install without the paper extra (Pillow, fpdf2, zxing-cpp, tesserocr, pypdf, rapidocr, ONNX Runtime): the
client imports, `deckcheck serve` serves every other route and answers paper with one problem that says what to
install, and `deckcheck sheet` says it in one line. The extra is taken away by an import hook that refuses its
modules, put in every Python process of the test through sitecustomize."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

import httpx
import orjson
import pytest

from tests.decks import EXTRA, MAIN_40, SIDE, request
from tests.served import Served, serving

pytestmark = pytest.mark.server

PAPER_MODULES = ("PIL", "fpdf", "zxingcpp", "tesserocr", "pypdf", "rapidocr", "onnxruntime", "cv2")
HOOK = f"""
import sys

class _WithoutPaper:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in {PAPER_MODULES!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None

sys.meta_path.insert(0, _WithoutPaper())
"""
INSTALL = "pip install 'deckcheck[paper]'"
MISSING = "pillow, zxing-cpp, rapidocr, onnxruntime, opencv-python-headless"
READING = f"reading paper needs the paper extra (missing: {MISSING}): {INSTALL}"
PRINTING = f"printing a registration sheet needs the paper extra (missing: fpdf2): {INSTALL}"
PNG = b"\x89PNG\r\n\x1a\n" + bytes(64)


@pytest.fixture(scope="module")
def without_paper(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment of a process in which no module of the paper extra can be imported."""
    hook = tmp_path_factory.mktemp("without-paper")
    (hook / "sitecustomize.py").write_text(HOOK, encoding="utf-8")
    return {"PYTHONPATH": os.pathsep.join(filter(None, [str(hook), os.environ.get("PYTHONPATH")]))}


def _python(env: Mapping[str, str], *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *argv], env={**os.environ, **env}, capture_output=True, text=True, timeout=120, check=False
    )


def test_the_client_imports_without_the_paper_extra(without_paper: dict[str, str]) -> None:
    code = (
        "import sys, deckcheck.client\n"
        f"print(sorted(m for m in sys.modules if m.partition('.')[0] in {PAPER_MODULES!r}))\n"
        "import PIL\n"
    )
    done = _python(without_paper, "-c", code)
    assert done.stdout == "[]\n"
    # The hook is live: the process that imported the client could not import Pillow.
    assert done.stderr.splitlines()[-1] == "ModuleNotFoundError: No module named 'PIL'"


@pytest.fixture(scope="module")
def served(without_paper: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with serving(tmp_path_factory.mktemp("log") / "server.log", without_paper) as server:
        yield server


def _problem(response: httpx.Response) -> dict[str, object]:
    assert response.headers["content-type"] == "application/problem+json"
    body: dict[str, object] = response.json()
    assert body.pop("request_id") == response.headers["x-request-id"]
    return body


def _unavailable(message: str) -> dict[str, object]:
    return {
        "type": "urn:deckcheck:problem:service-unavailable",
        "title": "Service Unavailable",
        "status": 503,
        "detail": message,
        "errors": [{"loc": ["body"], "msg": message, "type": "paper_unavailable"}],
    }


def test_a_server_without_the_paper_extra_answers_paper_with_what_to_install(served: Served) -> None:
    with httpx.Client(base_url=served.url, timeout=30) as client:
        read = client.post("/v1/decks/read", content=PNG, headers={"Content-Type": "image/png"})
        assert (read.status_code, _problem(read)) == (503, _unavailable(READING))
        sheet = client.post("/v1/decks/convert", json={"main": MAIN_40, "extra": EXTRA, "side": SIDE, "to": "sheet"})
        assert (sheet.status_code, _problem(sheet)) == (503, _unavailable(PRINTING))
        reads = [line for line in client.get("/metrics").text.splitlines() if line.startswith("deckcheck_paper_reads_")]
    assert 'deckcheck_paper_reads_total{outcome="paper_unavailable"} 1.0' in reads


def test_a_server_without_the_paper_extra_serves_everything_else(served: Served) -> None:
    with httpx.Client(base_url=served.url, timeout=30) as client:
        checked = client.post("/v1/validate", json=request())
        qr = client.post("/v1/decks/convert", json={"main": MAIN_40, "to": "qr"})
        documented = client.get("/openapi.json")
        wrong = client.post("/v1/decks/read", content=PNG, headers={"Content-Type": "text/plain"})
    assert (checked.status_code, checked.json()["legal"], checked.json()["violations"]) == (200, True, [])
    assert (qr.status_code, qr.headers["content-type"], qr.content[:5]) == (200, "image/svg+xml", b"<?xml")
    assert documented.status_code == 200
    assert "/v1/decks/read" in documented.json()["paths"]
    # What a request gets wrong is said before what the server lacks.
    assert (wrong.status_code, _problem(wrong)["type"]) == (415, "urn:deckcheck:problem:unsupported-media-type")


def test_the_sheet_command_without_the_paper_extra_says_what_to_install(
    without_paper: dict[str, str], tmp_path: Path
) -> None:
    deck = tmp_path / "deck.json"
    deck.write_bytes(orjson.dumps({"main": MAIN_40, "extra": EXTRA, "side": SIDE}))
    out = tmp_path / "sheet.pdf"
    printed = _python(without_paper, "-m", "deckcheck", "sheet", str(deck), "--out", str(out))
    assert (printed.returncode, printed.stdout, printed.stderr) == (2, "", f"deckcheck: {deck}: {PRINTING}\n")
    assert not out.exists()
    checked = _python(without_paper, "-m", "deckcheck", "validate", str(deck), "--date", "2008-06-01", "--json")
    assert (checked.returncode, orjson.loads(checked.stdout)[0]["legal"]) == (0, True)
