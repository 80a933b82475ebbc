"""The documentation site (docs/): it builds strictly, a broken link fails it, the README stays short and links to
pages that exist, and the examples the docs give answer what the docs say they answer: every `sh` block that calls
the service with curl runs against a real server, and every Python client example of the site developers' guide
runs as written."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import orjson
import pytest
from pypdf import PdfReader

from bench.corpus import Corpus
from deckcheck import Data

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
README = ROOT / "README.md"
SERVICE = re.compile(r"(?:http://127\.0\.0\.1|http://localhost|localhost):8000")
# A block of the operator's whole path (data commands beside a running service) is run by its own test.
RUN_ELSEWHERE = {
    ("docs/operators/data.md", "# 1. Preview: what changes against the list in force the day before."): (
        "tests/test_operator_path.py"
    ),
}


@dataclass(frozen=True)
class Block:
    """A fenced block of a page: where it is, its language and text, and the answer or output the page gives it."""

    page: str
    line: int
    lang: str
    text: str
    stated: str | None

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"


def _pages() -> list[Path]:
    return [README, *sorted(DOCS.rglob("*.md"))]


def _blocks(path: Path) -> list[Block]:
    """Every fenced block of `path`; a `json` or `text` block under `<!-- answer -->`, `<!-- example-answer -->` or
    `<!-- output -->` is what the code block before it answers or prints."""
    page = path.relative_to(ROOT).as_posix()
    lines = path.read_text(encoding="utf-8").split("\n")
    found: list[Block] = []
    index = 0
    while index < len(lines):
        opening = re.fullmatch(r"```(\w+)", lines[index])
        if opening is None:
            index += 1
            continue
        end = lines.index("```", index + 1)
        text = "\n".join(lines[index + 1 : end]) + "\n"
        marked = index > 0 and lines[index - 1] in ("<!-- answer -->", "<!-- example-answer -->", "<!-- output -->")
        if marked and found and found[-1].stated is None:
            previous = found[-1]
            found[-1] = Block(previous.page, previous.line, previous.lang, previous.text, text)
        else:
            found.append(Block(page, index + 1, opening.group(1), text, None))
        index = end + 1
    return found


BLOCKS = [block for path in _pages() for block in _blocks(path)]
CALLS = [b for b in BLOCKS if b.lang == "sh" and SERVICE.search(b.text) and b.text.startswith("curl ")]
CLIENT = [
    b for b in BLOCKS if b.lang == "python" and b.page.startswith("docs/developers/") and "deckcheck.client" in b.text
]


def _build(source: Path, out: Path) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-n", "-q", "-b", "html", str(source), str(out)]
    return subprocess.run(argv, check=False, capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_the_site_builds_strictly(tmp_path: Path) -> None:
    built = _build(DOCS, tmp_path / "html")
    assert (built.returncode, built.stderr) == (0, "")
    for page in ("index", "desk/index", "desk/en", "developers/api", "judges/index", "benchmarks"):
        assert (tmp_path / "html" / f"{page}.html").is_file(), page
    # The README's example is the API page's, included, not copied.
    assert "「強欲な壺」はOCG 2008.03で禁止カードです。" in (tmp_path / "html" / "developers" / "api.html").read_text()


@pytest.mark.slow
def test_a_broken_link_or_anchor_fails_the_build(tmp_path: Path) -> None:
    shutil.copytree(DOCS, tmp_path / "docs")
    shutil.copy(README, tmp_path / "README.md")
    index = tmp_path / "docs" / "index.md"
    text = index.read_text(encoding="utf-8")
    broken = text.replace("(developers/limits.md)", "(developers/limit.md)", 1)
    broken = broken.replace("(operators/data.md)", "(operators/data.md#no-such-section)", 1)
    assert broken.count("no-such-section") == broken.count("limit.md)") == 1
    index.write_text(broken, encoding="utf-8")
    built = _build(tmp_path / "docs", tmp_path / "html")
    assert built.returncode != 0
    assert "cross-reference target not found: 'developers/limit.md'" in built.stderr
    assert "local id not found in doc 'operators/data': 'no-such-section'" in built.stderr


def test_the_readme_is_short_and_links_every_guide() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 200
    linked = re.findall(r"\]\((docs/[^)#\s]+)(?:#[^)]*)?\)", text)
    missing = [link for link in linked if not (ROOT / link).is_file()]
    assert missing == []
    section_fronts = {"docs/index.md", *(f"docs/{part}/index.md" for part in ("developers", "operators", "organisers"))}
    pages = {path.relative_to(ROOT).as_posix() for path in DOCS.rglob("*.md")}
    assert pages - section_fronts - set(linked) == set()


def _named(page: Path) -> set[str]:
    prose = [line for line in page.read_text(encoding="utf-8").splitlines() if not line.startswith("```")]
    return set(re.findall(r"`([^`]+)`", "\n".join(prose)))


def test_the_contributors_guide_names_every_part_of_the_package() -> None:
    """Every folder and top-level module of the package is in the architecture, every module of paper/ in the
    paper pipeline's page: a part added without a word there fails here."""
    package = ROOT / "service" / "deckcheck"
    parts = {f"{path.name}/" for path in package.iterdir() if path.is_dir() and path.name != "__pycache__"}
    parts |= {path.name for path in package.glob("*.py") if path.name != "__init__.py"}
    assert sorted(parts - _named(DOCS / "contributors" / "index.md")) == []
    paper = {path.name for path in (package / "paper").glob("*.py") if path.name != "__init__.py"}
    assert sorted(paper - _named(DOCS / "contributors" / "paper.md")) == []


def test_every_service_call_in_the_docs_is_run_here() -> None:
    """A block that talks to the service is either a curl example run below or run by a test of its own."""
    talking = [b for b in BLOCKS if b.lang == "sh" and SERVICE.search(b.text)]
    others = {(b.page, b.text.split("\n", 1)[0]) for b in talking if b not in CALLS}
    assert others == set(RUN_ELSEWHERE)
    assert {b.page for b in CALLS} == {
        "README.md",
        "docs/developers/paper.md",
        "docs/judges/index.md",
        "docs/organisers/rechecks.md",
    }
    assert len(CALLS) == 5
    assert len(CLIENT) == 1


def _stored_decks(data: Data, folder: Path) -> list[dict[str, object]]:
    decks: list[dict[str, object]] = [{"id": n, "ydke": deck.ydke()} for n, deck in enumerate(Corpus(data).decks(40))]
    decks.append({"id": "unreadable", "main": "not a list of cards"})
    (folder / "stored-decks.ndjson").write_bytes(b"".join(orjson.dumps(deck) + b"\n" for deck in decks))
    return decks


def _check_recheck(answer: str, decks: list[dict[str, object]]) -> None:
    """What the batch guide says a recheck with `previous` answers: one line per deck in input order, an error line
    for the line that cannot be read, each result with its verdict before and after, then the summary."""
    *results, last = [json.loads(line) for line in answer.splitlines()]
    assert [(r["line"], r["id"]) for r in results] == [(n + 1, deck["id"]) for n, deck in enumerate(decks)]
    assert set(results[-1]) == {"line", "id", "error"}
    checked = results[:-1]
    assert all(
        {"legal", "verdict", "penalty", "counts", "violations", "legal_before", "newly_illegal"} <= set(r)
        for r in checked
    )
    newly = [r["id"] for r in checked if r["newly_illegal"]]
    assert newly
    assert all(r["verdict"] == "newly_illegal" for r in checked if r["newly_illegal"])
    summary = last["summary"]
    assert (summary["lines"], summary["errors"], summary["legal"] + summary["illegal"]) == (41, 1, 40)
    assert (summary["newly_illegal"]["count"], summary["newly_illegal"]["ids"]) == (len(newly), newly)


def _check_sheet(folder: Path) -> None:
    """The paper guide's sheet: a PDF with the player's name and the deck's names as printed."""
    pdf = (folder / "sheet.pdf").read_bytes()
    assert pdf.startswith(b"%PDF-")
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    assert all(words in text for words in ("デッキ登録用紙", "山田 太郎", "ブラック・マジシャン", "強欲な壺"))


@pytest.mark.parametrize("block", CALLS, ids=[b.id for b in CALLS])
def test_the_curl_examples_answer_what_the_docs_say(block: Block, base_url: str, data: Data, tmp_path: Path) -> None:
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    decks = _stored_decks(data, tmp_path)
    command = SERVICE.sub(base_url, block.text)
    run = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", command],
        check=False,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (run.returncode, run.stderr) == (0, "")
    if block.stated is not None:
        assert json.loads(run.stdout) == json.loads(block.stated)
    elif "/v1/rechecks" in block.text:
        _check_recheck(run.stdout, decks)
    elif '"to": "sheet"' in block.text:
        _check_sheet(tmp_path)
    else:
        pytest.fail(f"{block.id}: give this example the answer it gives, under <!-- answer -->")


@pytest.mark.parametrize("block", CLIENT, ids=[b.id for b in CLIENT])
def test_the_client_examples_print_what_the_docs_say(block: Block, base_url: str) -> None:
    assert block.stated is not None, f"{block.id}: give this example what it prints, under <!-- output -->"
    env = {**os.environ, "DECKCHECK_URL": base_url}
    run = subprocess.run(
        [sys.executable, "-c", block.text], check=False, env=env, capture_output=True, text=True, timeout=120
    )
    assert (run.returncode, run.stderr, run.stdout) == (0, "", block.stated)
