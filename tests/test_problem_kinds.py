"""Every kind of problem an answer can be is in the one table (api/problems.py PROBLEM_KINDS), and the table holds no
kind that nothing answers: a walk of the code that answers problems (the API and the wire models) finds each kind it
names and each status it answers with no kind named, and the proxy's configuration is read for its own. The
OpenAPI document and the developers' guide list the table as it is."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from deckcheck.api.problems import DEFAULT_KINDS, PROBLEM_KINDS, STATUSES, ProblemKind
from tests.modules import MODULES

ROOT = Path(__file__).resolve().parent.parent
NGINX = ROOT / "deploy" / "nginx.conf"
GUIDE = ROOT / "docs" / "developers" / "api.md"
TYPE = re.compile(r"urn:deckcheck:problem:([a-z0-9-]+)")
# The functions that answer a problem, each with the position of its kind among its arguments.
MAKERS = {"problem": 3, "problem_body": 3, "_raw_problem": 2}
# The answers whose status is known only when they are sent, with every status each can be: an error of deckcheck's
# by its kind's status (the crash handler answers 500, not this one), and what the router raises (a 404 for a path
# no route takes; its 400 and 405 are answered above it with kinds of their own).
DYNAMIC = {
    "problem(status_of(exc), str(exc), exc.errors, headers=_headers_of(request, exc))": set(STATUSES.values()) - {500},
    "problem(exc.status_code, str(exc.detail), headers=exc.headers)": {404},
}


@dataclass
class Answered:
    """What a walk of code finds answered: the kinds it names, the statuses it answers with no kind named, the
    answers of a status not known before they are sent, and the answers whose kind it cannot tell."""

    kinds: set[str] = field(default_factory=set)
    statuses: set[int] = field(default_factory=set)
    dynamic: set[str] = field(default_factory=set)
    unknown: set[str] = field(default_factory=set)


def _bound(function: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, set[object] | None]:
    """The constants each name is assigned in `function`, alone or as an item of a tuple; None for a name also
    assigned something else."""
    bound: dict[str, set[object] | None] = {}
    for node in ast.walk(function):
        if not isinstance(node, ast.Assign):
            continue
        for target in node.targets:
            if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                pairs = list(zip(target.elts, node.value.elts, strict=True))
            else:
                pairs = [(target, node.value)]
            for name, value in pairs:
                if isinstance(name, ast.Name):
                    known = bound.setdefault(name.id, set())
                    if known is not None and isinstance(value, ast.Constant):
                        known.add(value.value)
                    else:
                        bound[name.id] = None
    return bound


def _values(node: ast.expr | None, bound: dict[str, set[object] | None]) -> set[object] | None:
    """The constants `node` may be (None for an argument not given); None where that is not known here."""
    if node is None or isinstance(node, ast.Constant):
        return {None if node is None else node.value}
    if isinstance(node, ast.IfExp):
        sides = [_values(node.body, bound), _values(node.orelse, bound)]
        return None if sides[0] is None or sides[1] is None else sides[0] | sides[1]
    if isinstance(node, ast.Name):
        return bound.get(node.id)
    return None


def _argument(call: ast.Call, position: int, keyword: str) -> ast.expr | None:
    named = [k.value for k in call.keywords if k.arg == keyword]
    return named[0] if named else call.args[position] if len(call.args) > position else None


def _calls(tree: ast.AST) -> Iterator[tuple[ast.Call, int, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """Each call of an answer maker in a function of `tree`, with the position of its kind and the function."""
    for function in ast.walk(tree):
        if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            for call in ast.walk(function):
                if isinstance(call, ast.Call):
                    name = getattr(call.func, "id", getattr(call.func, "attr", ""))
                    if name in MAKERS:
                        yield call, MAKERS[name], function


def _answered(tree: ast.AST) -> Answered:
    """What the code of `tree` answers. A kind or status that is a parameter of the function making the call is
    passed on from its callers, which the walk meets too."""
    found = Answered()
    for call, position, function in _calls(tree):
        bound = _bound(function)
        parameters = {a.arg for a in ast.walk(function.args) if isinstance(a, ast.arg)}
        kind_node, status_node = _argument(call, position, "kind"), _argument(call, 0, "status")
        kinds = _values(kind_node, bound)
        if kinds is None:
            if not (isinstance(kind_node, ast.Name) and kind_node.id in parameters):
                found.unknown.add(ast.unparse(call))
            continue
        found.kinds |= {kind for kind in kinds if isinstance(kind, str)}
        if None not in kinds:
            continue
        statuses = _values(status_node, bound)
        if statuses is not None:
            found.statuses |= {status for status in statuses if isinstance(status, int)}
        elif not (isinstance(status_node, ast.Name) and status_node.id in parameters):
            found.dynamic.add(ast.unparse(call))
    return found


def _walk() -> tuple[Answered, set[str]]:
    """What the API and the wire models answer, and the problem types their text names anywhere (examples)."""
    found, named = Answered(), set()
    for dotted, path in MODULES.items():
        if dotted.startswith(("deckcheck.api", "deckcheck.wire")):
            text = path.read_text(encoding="utf-8")
            answered = _answered(ast.parse(text))
            for part in ("kinds", "statuses", "dynamic", "unknown"):
                getattr(found, part).update(getattr(answered, part))
            named |= set(TYPE.findall(text))
    return found, named


def _by(who: str) -> set[str]:
    return {kind.name for kind in PROBLEM_KINDS if who in kind.by}


def test_the_service_answers_every_kind_of_its_table_and_no_other() -> None:
    found, named = _walk()
    assert found.unknown == set()
    assert found.dynamic == DYNAMIC.keys()
    statuses = found.statuses.union(*DYNAMIC.values())
    assert statuses - DEFAULT_KINDS.keys() == set(), "a status answered with no kind named has no default kind"
    answered = found.kinds | {DEFAULT_KINDS[status] for status in statuses}
    assert len(answered) > 15
    assert answered == _by("service")
    assert named - _by("service") == set()


def test_the_proxy_answers_every_kind_of_its_table_and_no_other() -> None:
    assert set(TYPE.findall(NGINX.read_text(encoding="utf-8"))) == _by("proxy")


def test_the_table_is_one_kind_a_name_at_most_one_default_a_status_by_status() -> None:
    names = [kind.name for kind in PROBLEM_KINDS]
    assert len(set(names)) == len(names)
    defaults = [kind.status for kind in PROBLEM_KINDS if kind.default]
    assert len(set(defaults)) == len(defaults)
    assert all("service" in kind.by for kind in PROBLEM_KINDS if kind.default)
    assert [kind.status for kind in PROBLEM_KINDS] == sorted(kind.status for kind in PROBLEM_KINDS)
    assert all(kind.meaning.endswith(".") and "|" not in kind.meaning for kind in PROBLEM_KINDS)


def test_the_walk_finds_kinds_named_defaults_and_answers_it_cannot_tell() -> None:
    source = """
def answer(status, kind):
    return problem(status, "passed on", kind=kind)

def route(exc):
    if exc:
        status, detail, kind = 431, "big", "head-too-large"
    else:
        status, detail, kind = 400, "bad", "malformed-head"
    _raw_problem(status, detail, kind)
    problem(405, "no")
    problem(503, "busy", kind="overloaded" if exc else None)
    problem(exc.status, "later")
    problem(500, "odd", kind=exc.kind)
"""
    found = _answered(ast.parse(source))
    assert found.kinds == {"head-too-large", "malformed-head", "overloaded"}
    assert found.statuses == {405, 503}
    assert found.dynamic == {"problem(exc.status, 'later')"}
    assert found.unknown == {"problem(500, 'odd', kind=exc.kind)"}


def _rows(kinds: tuple[ProblemKind, ...]) -> str:
    """The table of the developers' guide, as it must read."""
    lines = ["| type | status | from | when |", "|---|---|---|---|"]
    lines += [f"| `{k.name}` | {k.status} | {' and '.join(k.by)} | {k.meaning} |" for k in kinds]
    return "\n".join(lines) + "\n"


def test_the_guide_lists_the_table() -> None:
    section = GUIDE.read_text(encoding="utf-8").partition("\n## Problem types\n")[2].partition("\n## ")[0]
    assert _rows(PROBLEM_KINDS) in section


def test_the_document_lists_the_table(client: httpx.Client) -> None:
    described = client.get("/openapi.json").json()["components"]["schemas"]["Problem"]["properties"]["type"]
    listed = [line for line in described["description"].splitlines() if line.startswith("- `")]
    assert [line.split("`")[1] for line in listed] == [kind.name for kind in PROBLEM_KINDS]
    found = next(index for index, kind in enumerate(PROBLEM_KINDS) if kind.name == "not-found")
    assert listed[found] == "- `not-found` (404, also from the proxy): " + PROBLEM_KINDS[found].meaning
