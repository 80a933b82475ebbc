"""The package's shape: the core never reaches for the edges, no modules import each other in a circle, the core
loads no web framework, modules stay small, and each front door exports what it imports."""

from __future__ import annotations

import ast
import graphlib
import subprocess
import sys
from pathlib import Path

import pytest

import deckcheck
from tests.modules import MODULES

# The core: the rules and everything they stand on, and batch rechecks. The edges: HTTP, the command line and the
# client of the HTTP API.
CORE = (
    "rules",
    "data",
    "formats",
    "batch",
    "wire",
    "model",
    "errors",
    "config",
    "origins",
    "limits",
    "deck_limits",
    "input_files",
    "encoding",
    "versions",
    "paper",
    "logs",
    "sentences",
    "days",
    "events",
    "spreadsheet",
)
EDGES = ("deckcheck.api", "deckcheck.cli", "deckcheck.app", "deckcheck.client")
FRAMEWORKS = ("fastapi", "starlette", "uvicorn")


def _imports(path: Path) -> set[str]:
    """The deckcheck modules `path` imports anywhere in it (type-checking blocks and functions too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path}: relative import"
            base = node.module or ""
            found.update(f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names)
    return {name for name in found if name.split(".")[0] == "deckcheck"}


def _ancestors(name: str) -> set[str]:
    parts = name.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts))}


def _edges(name: str, targets: set[str]) -> set[str]:
    """What importing `targets` from module `name` runs: each target, and the packages around it that are not
    already being imported around `name` (importing deckcheck.rules.registry runs deckcheck/rules/__init__.py)."""
    around = _ancestors(name) | {name}
    return targets | {package for target in targets for package in _ancestors(target) - around}


GRAPH = {name: _edges(name, _imports(path)) for name, path in MODULES.items()}


def test_the_layout_is_the_one_described() -> None:
    packages = sorted(name for name, path in MODULES.items() if path.name == "__init__.py" and "." in name)
    assert packages == [
        "deckcheck.api",
        "deckcheck.api.middleware",
        "deckcheck.batch",
        "deckcheck.cli",
        "deckcheck.client",
        "deckcheck.data",
        "deckcheck.events",
        "deckcheck.formats",
        "deckcheck.paper",
        "deckcheck.rules",
        "deckcheck.wire",
        "deckcheck.wire.answers",
        "deckcheck.wire.judge",
    ]


def test_the_core_never_imports_the_edges() -> None:
    core = [name for name in GRAPH if name == "deckcheck" or name.split(".")[1] in CORE]
    assert len(core) > 25
    reaching = {name: sorted(t for t in GRAPH[name] if t.startswith(EDGES)) for name in core}
    assert {name: targets for name, targets in reaching.items() if targets} == {}


def test_no_modules_import_each_other_in_a_circle() -> None:
    graphlib.TopologicalSorter(GRAPH).prepare()  # raises CycleError naming the circle


@pytest.mark.parametrize(
    ("module", "imports"),
    [
        ("deckcheck.data.names", "deckcheck.data.cards"),  # a circle of modules
        ("deckcheck.wire.enums", "deckcheck.wire.answers.verdict"),  # a circle through wire/answers/__init__.py
    ],
)
def test_the_circle_test_sees_a_circle(module: str, imports: str) -> None:
    with pytest.raises(graphlib.CycleError):
        graphlib.TopologicalSorter({**GRAPH, module: GRAPH[module] | _edges(module, {imports})}).prepare()


@pytest.mark.parametrize(
    ("modules", "forbidden"),
    [
        ("deckcheck, deckcheck.rules, deckcheck.data, deckcheck.formats, deckcheck.model", (*FRAMEWORKS, "pydantic")),
        ("deckcheck.logs", (*FRAMEWORKS, "pydantic")),  # data/ logs through it
        ("deckcheck.batch, deckcheck.wire, deckcheck.config, deckcheck.events", FRAMEWORKS),
        ("deckcheck.client", FRAMEWORKS),  # a website's backend reads answers without the server's framework
        # A command that meets no event loads no database layer (0.3 s and more of every start).
        ("deckcheck.cli.main, deckcheck.events", ("sqlalchemy", "alembic", "psycopg")),
    ],
)
def test_the_core_loads_no_web_framework(modules: str, forbidden: tuple[str, ...]) -> None:
    code = f"import sys, {modules}; print(sorted({{m.split('.')[0] for m in sys.modules}} & {set(forbidden)!r}))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("front_door", [name for name, path in MODULES.items() if path.name == "__init__.py"])
def test_each_front_door_exports_what_it_imports(front_door: str) -> None:
    tree = ast.parse(MODULES[front_door].read_text(encoding="utf-8"))
    # What it imports at once, and what it names for the type checker and loads when first asked (PEP 562).
    typing_only = [n.body for n in tree.body if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING"]
    statements = [*tree.body, *(n for block in typing_only for n in block)]
    imported = {
        a.asname or a.name
        for n in statements
        if isinstance(n, ast.ImportFrom) and n.module not in ("__future__", "typing")
        for a in n.names
    }
    module = sys.modules.get(front_door) or __import__(front_door, fromlist=["__all__"])
    exported = set(getattr(module, "__all__", ()))
    assert exported - {"__version__"} == imported
    assert all(hasattr(module, name) for name in exported)


def test_the_public_surface() -> None:
    assert deckcheck.__all__ == [
        "Context",
        "Data",
        "Deck",
        "Entry",
        "Protectors",
        "Report",
        "Violation",
        "__version__",
        "load_data",
        "validate",
    ]


def test_the_client_loads_no_engine() -> None:
    """A website's code that imports the client pays for httpx, pydantic and the wire models, nothing more: no
    numpy, no name search, no card data, no rules (0.56 s and 548 modules before; 0.155 s and 367 now, of which
    httpx and pydantic take 0.108 s and 328 modules)."""
    code = "import sys, deckcheck.client; print(' '.join(sorted(sys.modules)))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    heavy = ("numpy", "rapidfuzz", "pyarrow", *FRAMEWORKS)
    assert [m for m in loaded if m.split(".")[0] in heavy] == []
    ours = {m for m in loaded if m.startswith("deckcheck.")}
    assert {m.split(".")[1] for m in ours} == {"client", "limits", "wire"}
    assert {m for m in ours if m.startswith("deckcheck.wire.")} == {
        f"deckcheck.wire.{name}"
        for name in (
            *("answers", "answers.cards", "answers.decks", "answers.examples", "answers.paper", "answers.recheck"),
            *("answers.events", "answers.event_examples"),
            *("answers.service", "answers.verdict", "base", "enums", "judge", "judge.answers"),
            *("judge.enums", "judge.examples", "request_values"),
        )
    }
