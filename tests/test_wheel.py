"""The package as a user installs it: a wheel built from this checkout's sdist, installed into a fresh virtual
environment outside the checkout, and used from another folder: import, the command line, and the API served both
ways. And the checkout itself, installed editable, reads the repository's data."""

from __future__ import annotations

import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import deckcheck
from deckcheck import Data
from deckcheck.data import DEFAULT_DATA_DIR
from tests.golden import run_case
from tests.served import free_port, wait_until_healthy

pytestmark = pytest.mark.packaging

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "pot-of-greed-2008.json"


class Installed:
    """A fresh virtual environment holding the wheel and its dependencies, and an empty folder to work in."""

    def __init__(self, wheel: Path, venv: Path, cwd: Path) -> None:
        self.wheel = wheel
        self.bin = venv / "bin"
        self.cwd = cwd

    def env(self, **extra: str) -> dict[str, str]:
        """The environment of a user who has nothing of this checkout: no data folder, no import path."""
        env = {k: v for k, v in os.environ.items() if k not in {"DECKCHECK_DATA_DIR", "PYTHONPATH", "VIRTUAL_ENV"}}
        return env | {"PATH": f"{self.bin}{os.pathsep}{env.get('PATH', '')}"} | extra

    def run(self, *argv: str, **extra: str) -> subprocess.CompletedProcess[str]:
        """Run a program of the environment in the empty folder."""
        command = [str(self.bin / argv[0]), *argv[1:]]
        env = self.env(**extra)
        return subprocess.run(command, check=False, cwd=self.cwd, env=env, capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """Build the sdist and, from it, the wheel, as a release does; install the wheel where the checkout cannot be
    seen."""
    work = tmp_path_factory.mktemp("wheel")
    built = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(work / "dist"), str(ROOT)],
        check=False,
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = (work / "dist").glob("deckcheck-*.whl")
    venv = work / "venv"
    # The environment gets no pip of its own (ensurepip is most of a venv's making): this suite's pip installs into
    # it, running as its interpreter (`--python`), so the wheel's dependencies resolve as they would inside it.
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    pip = ["-m", "pip", "--python", str(venv / "bin" / "python"), "--disable-pip-version-check", "--quiet"]
    subprocess.run([sys.executable, *pip, "install", str(wheel)], check=True)
    cwd = work / "elsewhere"
    cwd.mkdir()
    return Installed(wheel, venv, cwd)


def test_sdist_holds_the_sources_and_the_data(installed: Installed) -> None:
    (sdist,) = installed.wheel.parent.glob("deckcheck-*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert {
        "pyproject.toml",
        "README.md",
        "LICENSE",
        "CHANGELOG.md",
        "cards/cards.csv",
        "cards/printings.json",
        "provenance/imports.ndjson",
        "service/deckcheck/rules/catalogue.toml",
    } <= names
    for fmt, count in (("ocg", 86), ("tcg", 47)):
        assert len([n for n in names if n.startswith(f"banlists/{fmt}/") and n.endswith(".json")]) == count
    assert not [n for n in names if n.startswith(("tests/", "scripts/", "bench/", "openapi/", ".venv/"))]


def test_a_checkout_reads_the_repository_data() -> None:
    # The suite runs against the checkout, installed editable by scripts/check: code and data are the repository's,
    # and the install put no copy of the data beside it.
    assert Path(deckcheck.__file__).is_relative_to(ROOT / "service")
    assert DEFAULT_DATA_DIR == ROOT
    installed = importlib.metadata.distribution("deckcheck")
    assert json.loads(installed.read_text("direct_url.json") or "{}")["dir_info"] == {"editable": True}
    assert [str(f) for f in installed.files or [] if f.parts[0] == "deckcheck"] == []


def test_wheel_carries_the_data(installed: Installed) -> None:
    with zipfile.ZipFile(installed.wheel) as wheel:
        names = set(wheel.namelist())
        for name in ("cards/cards.csv", "cards/printings.json", "provenance/imports.ndjson"):
            assert wheel.read(f"deckcheck/bundled/{name}") == (ROOT / name).read_bytes()
    lists = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "banlists").glob("*/*.json"))
    bundled = [n.removeprefix("deckcheck/bundled/") for n in names if n.startswith("deckcheck/bundled/banlists/")]
    assert sorted(bundled) == lists
    assert len(lists) == 133  # 86 OCG and 47 TCG lists
    assert not [n for n in names if n.startswith(("tests/", "scripts/", "bench/", "service/"))]


def test_the_wheel_says_it_is_mit_licensed_and_carries_the_licence(installed: Installed) -> None:
    with zipfile.ZipFile(installed.wheel) as wheel:
        (metadata,) = [n for n in wheel.namelist() if n.endswith(".dist-info/METADATA")]
        (licence,) = [n for n in wheel.namelist() if n.endswith(".dist-info/licenses/LICENSE")]
        assert "License-Expression: MIT" in wheel.read(metadata).decode().splitlines()
        assert wheel.read(licence) == (ROOT / "LICENSE").read_bytes()


def test_a_fresh_install_judges_december_2026_by_the_october_list(installed: Installed) -> None:
    result = installed.run("deckcheck", "data", "status", "--date", "2026-12-01", "--json")
    assert result.returncode == 0, result.stderr
    status = json.loads(result.stdout)
    assert [(n["id"], n["may_be_outdated"]) for n in status["newest_lists"]] == [
        ("ocg-2026-10-01", False),
        ("tcg-2026-05-18", True),
    ]
    assert [(u["action"], u["source"]) for u in status["updates"]] == [("add-list", "ocg-2026-10.lflist.conf")]


HEAVY = ("pillow", "fpdf2", "zxing-cpp", "tesserocr", "pypdf", "rapidocr", "onnxruntime", "dask", "pyarrow")


@pytest.fixture(scope="module")
def imported(installed: Installed) -> subprocess.CompletedProcess[str]:
    """One interpreter of the environment that imports the package, its client (first, as a site that only calls
    the API imports it) and its app, then prints where the package and its data are, its versions, and which of
    HEAVY are installed: the tests below read it."""
    code = "import deckcheck, deckcheck.client, deckcheck.app, importlib.metadata as m; "
    code += "from deckcheck.config import load_settings; "
    code += "print(deckcheck.__file__, load_settings().data_dir, m.version('deckcheck'), deckcheck.__version__); "
    code += "names = {x.name.lower().replace('_', '-') for x in m.distributions()}; "
    code += f"print(sorted(names & {set(HEAVY)!r}))"
    return installed.run("python", "-c", code)


def test_package_imports_from_the_environment(installed: Installed, imported: subprocess.CompletedProcess[str]) -> None:
    assert imported.returncode == 0, imported.stderr
    package, data_dir, version, own_version = imported.stdout.splitlines()[0].split()
    assert version == own_version == deckcheck.__version__
    site = installed.bin.parent / "lib"
    assert Path(package).is_relative_to(site)
    assert Path(data_dir) == Path(package).parent / "bundled"


def test_without_extras_the_package_is_light_and_the_client_imports(imported: subprocess.CompletedProcess[str]) -> None:
    """`pip install deckcheck` with no extra, as a site that only calls the API installs it: none of the OCR and PDF
    stack (the `paper` extra) nor Dask's, and the client and the server import."""
    assert (imported.returncode, imported.stdout.splitlines()[1:], imported.stderr) == (0, ["[]"], "")


def _validate_json(installed: Installed, *command: str, **env: str) -> tuple[int, list[dict[str, Any]]]:
    deck = installed.cwd / "deck.json"
    shutil.copyfile(EXAMPLE, deck)
    result = installed.run(*(command or ("deckcheck",)), "validate", "--json", deck.name, **env)
    assert result.stderr == ""
    return result.returncode, json.loads(result.stdout)


def test_command_validates_a_file(installed: Installed, data: Data) -> None:
    code, results = _validate_json(installed)
    assert code == 1  # illegal: Pot of Greed is Forbidden
    expected = run_case(json.loads(EXAMPLE.read_text(encoding="utf-8")), data)
    assert results == [{"file": "deck.json", "encoding": "utf-8", **expected}]
    assert _validate_json(installed, "python", "-m", "deckcheck") == (code, results)


def test_data_dir_overrides_the_bundled_data(installed: Installed, tmp_path: Path) -> None:
    shutil.copytree(ROOT / "banlists", tmp_path / "banlists")
    (tmp_path / "cards").mkdir()
    cards = (ROOT / "cards" / "cards.csv").read_text(encoding="utf-8")
    assert cards.count(",Pot of Greed,") == 1
    (tmp_path / "cards" / "cards.csv").write_text(cards.replace(",Pot of Greed,", ",Pot of Greed (override),"), "utf-8")
    _code, results = _validate_json(installed, DECKCHECK_DATA_DIR=str(tmp_path))
    assert [v["message"] for v in results[0]["violations"]] == ["Pot of Greed (override) is Forbidden on OCG 2008.03."]


@pytest.fixture(scope="module", params=["deckcheck serve", "uvicorn deckcheck.app:app"])
def server(request: pytest.FixtureRequest, installed: Installed) -> Iterator[str]:
    """The API served from the environment by the command a user would type, one server a command for the tests
    that only read from it."""
    port = free_port()
    argv = [*str(request.param).split(), "--host", "127.0.0.1", "--port", str(port)]
    argv[0] = str(installed.bin / argv[0])
    process = subprocess.Popen(argv, cwd=installed.cwd, env=installed.env(), stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        assert wait_until_healthy(url, process), "the installed server did not start"
        yield url
    finally:
        process.terminate()
        process.communicate(timeout=30)


def test_server_serves_one_validation(server: str, data: Data) -> None:
    body = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    answer = httpx.post(f"{server}/v1/validate", json=body, headers={"Accept-Language": "ja"}, timeout=30)
    assert answer.status_code == 200
    assert answer.json() == run_case(body, data, "ja")
    assert answer.json()["violations"][0]["code"] == "forbidden_card"


def test_installed_server_serves_the_desk_and_the_docs_from_the_package(server: str) -> None:
    static = ROOT / "service" / "deckcheck" / "static"
    bundle = "/static/vendor/swagger-ui-5.35.0/swagger-ui-bundle.js"
    for path, local in [
        ("/desk", static / "desk" / "index.html"),
        ("/desk/desk.js", static / "desk" / "desk.js"),
        ("/elements/deck-check.js", static / "elements" / "deck-check.js"),
        ("/static/vendor/jsqr-1.4.0/jsQR.js", static / "vendor" / "jsqr-1.4.0" / "jsQR.js"),
        (bundle, static / "vendor" / "swagger-ui-5.35.0" / "swagger-ui-bundle.js"),
    ]:
        answer = httpx.get(f"{server}{path}", timeout=30)
        assert (answer.status_code, answer.content) == (200, local.read_bytes()), path
    docs = httpx.get(f"{server}/docs", timeout=30).text
    assert bundle in docs
