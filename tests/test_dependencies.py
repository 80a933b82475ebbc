"""What the package says it needs is what it imports: every distribution the code imports is declared, in the
dependencies or in the extra of the part that imports it, nothing declared goes unused, the lock file satisfies every
declaration, the paper extra adds the distributions docs/developers/paper.md weighs and no others, and the uvicorn
internals api/server.py builds on are where it expects them."""

from __future__ import annotations

import ast
import functools
import importlib.metadata
import inspect
import re
import sys
import tomllib
from collections import defaultdict
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import NormalizedName, canonicalize_name
from packaging.version import Version
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.supervisors import Multiprocess
from uvicorn.supervisors.multiprocess import Process

from tests.modules import MODULES, PACKAGE

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
LOCK = ROOT / "requirements" / "dev.txt"
PAPER_DOC = ROOT / "docs" / "developers" / "paper.md"

# The parts of the package that only an extra installs: a module under one of these imports what that extra
# declares, and nothing else may import it.
EXTRA_PARTS = {"paper": ("paper/",), "dask": ("batch/cluster.py", "batch/partition.py")}


def _declared(requirements: list[str]) -> dict[NormalizedName, Requirement]:
    parsed = (Requirement(line) for line in requirements)
    return {canonicalize_name(req.name): req for req in parsed if canonicalize_name(req.name) != "deckcheck"}


def _imports() -> dict[str, set[str]]:
    """Each distribution the package imports (outside the standard library), with the modules that import it."""
    owners = importlib.metadata.packages_distributions()
    found: dict[str, set[str]] = defaultdict(set)
    for path in MODULES.values():
        module = path.relative_to(PACKAGE).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.partition(".")[0]
                if top in sys.stdlib_module_names or top == "deckcheck":
                    continue
                assert top in owners, f"{module} imports {top}, which no installed distribution provides"
                for distribution in owners[top]:
                    found[canonicalize_name(distribution)].add(module)
    return found


def test_every_imported_distribution_is_declared_where_its_importers_are_installed() -> None:
    core = _declared(PROJECT["dependencies"])
    extras = {name: _declared(lines) for name, lines in PROJECT["optional-dependencies"].items()}
    misplaced = {}
    for distribution, modules in _imports().items():
        if distribution in core:
            continue
        homes = [extra for extra in EXTRA_PARTS if distribution in extras[extra]]
        parts = {extra: EXTRA_PARTS[extra] for extra in homes}
        outside = sorted(m for m in modules if not any(m.startswith(p) for ps in parts.values() for p in ps))
        if not homes or outside:
            misplaced[distribution] = outside or sorted(modules)
    assert misplaced == {}


def test_nothing_is_declared_that_the_code_does_not_import() -> None:
    imported = set(_imports())
    declared = set(_declared(PROJECT["dependencies"])) | {
        name for extra in EXTRA_PARTS for name in _declared(PROJECT["optional-dependencies"][extra])
    }
    assert sorted(declared - imported) == []


def test_the_lock_file_satisfies_every_declaration() -> None:
    pinned = {}
    for line in LOCK.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith((" ", "#")):
            name, _, version = line.partition("==")
            pinned[canonicalize_name(name)] = Version(version.split(";")[0].strip())
    requirements = [*PROJECT["dependencies"], *(r for rs in PROJECT["optional-dependencies"].values() for r in rs)]
    unmet = {
        str(req): str(pinned.get(name))
        for name, req in _declared(requirements).items()
        if name not in pinned or not req.specifier.contains(pinned[name], prereleases=True)
    }
    assert unmet == {}, "run `bash scripts/lock` after changing pyproject.toml's dependencies"


# What `pip install 'deckcheck[paper]'` installs over the package alone, as the lock file resolves it; each one's
# installed size and what it buys the reader are in docs/developers/paper.md (What the install weighs).
PAPER_ADDS = {
    # The extra's own.
    *("fpdf2", "onnxruntime", "opencv-python-headless", "pillow", "pypdf", "rapidocr", "tesserocr", "zxing-cpp"),
    # What fpdf2 needs, and what ONNX Runtime does.
    *("defusedxml", "fonttools", "flatbuffers", "packaging", "protobuf"),
    # What rapidocr needs for the pipeline the reader does not use, with requests' own.
    *("colorlog", "omegaconf", "pyclipper", "pyyaml", "requests", "shapely", "six", "tqdm"),
    *("charset-normalizer", "urllib3"),
}


@functools.cache
def _needs(parent: NormalizedName) -> set[NormalizedName]:
    """What the installed `parent` needs itself, and not for one of its extras (urllib3 needs PySocks for the `socks`
    that selenium asks of it), which the lock file's `# via` lines do not tell apart."""
    declared = (Requirement(line) for line in importlib.metadata.requires(parent) or [])
    return {canonicalize_name(req.name) for req in declared if not req.marker or req.marker.evaluate({"extra": ""})}


def _locked_parents() -> dict[NormalizedName, set[NormalizedName]]:
    """Each package of the lock file, with the packages its `# via` lines say it is there for."""
    parents: dict[NormalizedName, set[NormalizedName]] = {}
    current: NormalizedName | None = None
    for line in LOCK.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith((" ", "#")):
            current = canonicalize_name(line.partition("==")[0])
            parents[current] = set()
        elif current is not None:
            words = line.strip().removeprefix("#").split()
            named = words[1:2] if words[:1] == ["via"] else words[:1]  # "# via fastapi", or "# via" then "#   fastapi"
            parents[current].update(map(canonicalize_name, named))
    return parents


def _closure(roots: set[NormalizedName], parents: dict[NormalizedName, set[NormalizedName]]) -> set[NormalizedName]:
    """`roots` and every locked package that one of them needs itself, however indirectly."""
    found = set(roots)
    while grown := {
        child
        for child, theirs in parents.items()
        if child not in found and any(child in _needs(p) for p in theirs & found)
    }:
        found |= grown
    return found


def test_the_paper_extra_adds_what_the_docs_weigh() -> None:
    """A distribution that the paper extra brings in or stops bringing, through its own declarations or through a
    new release of one of its packages, fails here until the table of docs/developers/paper.md is measured again."""
    parents = _locked_parents()
    base = set(_declared(PROJECT["dependencies"]))
    paper = base | set(_declared(PROJECT["optional-dependencies"]["paper"]))
    adds = _closure(paper, parents) - _closure(base, parents)
    assert sorted(adds) == sorted(PAPER_ADDS), "measure it again: docs/developers/paper.md, What the install weighs"
    section = PAPER_DOC.read_text(encoding="utf-8").partition("## What the install weighs")[2].partition("\n## ")[0]
    assert sorted(re.findall(r"^\| `([^`]+)` \|", section, re.MULTILINE)) == sorted(PAPER_ADDS)


def test_the_uvicorn_internals_the_server_builds_on() -> None:
    """api/server.py overrides these methods of uvicorn's httptools protocol (the parser's callbacks among them)
    and its supervisor, and reads these attributes; pyproject.toml holds uvicorn below the next release, and this
    test says what to look at in it."""
    hooks = ("connection_made", "data_received", "on_response_complete", "connection_lost", "pause_writing")
    callbacks = ("on_message_begin", "on_url", "on_header", "on_headers_complete", "on_message_complete")
    methods = (*hooks, *callbacks, "resume_writing", "send_400_response", "timeout_keep_alive_handler")
    assert [name for name in methods if not hasattr(HttpToolsProtocol, name)] == []
    assert list(inspect.signature(HttpToolsProtocol.send_400_response).parameters) == ["self", "msg"]
    setup = inspect.getsource(HttpToolsProtocol.__init__)
    attributes = ("self.parser =", "self.connections =", "self.loop =", "self.transport:")
    assert [name for name in attributes if name not in setup] == []
    # ProblemProtocol.data_received is uvicorn's, with one more answer: what uvicorn's does must be all it does.
    reading = inspect.getsource(HttpToolsProtocol.data_received)
    steps = ("self._unset_keepalive_if_required()", "self.parser.feed_data(data)", "except httptools.HttpParserError:")
    assert [step for step in (*steps, "self.send_400_response(msg)", "except httptools.HttpParserUpgrade:")
            if step not in reading] == []  # fmt: skip
    assert "ws_protocol_class" in inspect.getsource(HttpToolsProtocol._should_upgrade_to_ws)
    assert hasattr(Multiprocess, "handle_hup")
    assert "self.processes" in inspect.getsource(Multiprocess)
    assert list(inspect.signature(Process.is_ready).parameters)[:2] == ["self", "timeout"]
