"""The OpenAPI document: the committed one is what the app serves, it is valid, every property and parameter is
described with an example that fits it, the closed sets of values equal the tables the service takes them from,
every model's examples fit it, and every operation is named and documents its refusals as problems. That the
examples are what the service really sends: tests/test_openapi_examples.py."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, get_args

import httpx
import pytest
from openapi_schema_validator import OAS31Validator
from openapi_spec_validator import validate
from pydantic import BaseModel

from deckcheck.data import STATUS_NAMES
from deckcheck.data.banlists import FORMATS as LIST_FORMATS
from deckcheck.data.cards import EXTRA_DECK_TYPES, KINDS
from deckcheck.formats.dispatch import DECK_SUFFIXES
from deckcheck.model import FORMATS, SECTIONS, Phase
from deckcheck.rules import PENALTIES, RULES
from deckcheck.rules.assess import AppliesTo
from deckcheck.rules.eras import LATER_TYPES, OCG_LANGUAGES, RULES_TYPES, TCG_LANGUAGES
from deckcheck.rules.infractions import FAMILIES, INFRACTIONS
from deckcheck.rules.infractions import Timing as AssessTiming
from deckcheck.rules.registry import BASES
from deckcheck.rules.timelimit import Procedure, StepCode
from deckcheck.wire import answers, event_requests, requests
from scripts.export_openapi import OPENAPI_PATH, render

Document = dict[str, Any]
PROBLEM_REF = {"$ref": "#/components/schemas/Problem"}
MODELS = sorted(
    {
        model
        for module in (answers, requests, event_requests)
        for name, model in vars(module).items()
        if isinstance(model, type)
        and issubclass(model, BaseModel)
        and model.__module__.startswith(module.__name__)
        and not name.startswith("_")
    },
    key=lambda model: model.__name__,
)


@pytest.fixture(scope="module")
def document(base_url: str) -> Document:
    """The document the app serves."""
    return dict(httpx.get(f"{base_url}/openapi.json").json())


def test_committed_document_equals_served(client: httpx.Client) -> None:
    served = client.get("/openapi.json").json()
    committed = OPENAPI_PATH.read_text(encoding="utf-8")
    assert committed == render(), "run `python -m scripts.export_openapi` and commit openapi/openapi.json"
    assert httpx.Response(200, content=committed).json() == served


def test_the_document_is_valid_openapi(document: Document) -> None:
    validate(document)


# The walk: every property of every component schema, however deep (objects in objects, in arrays, in anyOf, oneOf
# and allOf), and every parameter, must say what it is and show a value.


def _has_example(schema: Any, schemas: Document, seen: frozenset[str] = frozenset()) -> bool:
    """Whether `schema` shows a value: its own examples, or those of the schema it refers to or wraps."""
    if not isinstance(schema, dict):
        return False
    if schema.get("examples") or "example" in schema:
        return True
    ref = schema.get("$ref", "").rpartition("/")[2]
    if ref and ref not in seen and _has_example(schemas.get(ref), schemas, seen | {ref}):
        return True
    return any(_has_example(part, schemas, seen) for key in ("anyOf", "oneOf", "allOf") for part in schema.get(key, []))


def _walk(schema: Any, where: str, schemas: Document) -> Iterator[str]:
    if not isinstance(schema, dict):
        return
    for name, prop in schema.get("properties", {}).items():
        path = f"{where}.{name}"
        if not prop.get("description"):
            yield f"{path}: no description"
        if not _has_example(prop, schemas):
            yield f"{path}: no example"
        yield from _walk(prop, path, schemas)
    for key in ("anyOf", "oneOf", "allOf"):
        for part in schema.get(key, []):
            yield from _walk(part, where, schemas)
    for part in [schema.get("items"), schema.get("additionalProperties"), *schema.get("prefixItems", [])]:
        yield from _walk(part, f"{where}[]", schemas)


def undocumented(document: Document) -> list[str]:
    """Every component schema, `Schema.property` (nested: `Schema.property[].inner`) and parameter without a
    description or an example."""
    schemas = document.get("components", {}).get("schemas", {})
    found = []
    for name, schema in schemas.items():
        found += [f"{name}: no {what}" for what in ("description", "examples") if not schema.get(what)]
        found += _walk(schema, name, schemas)
    for path, operations in document.get("paths", {}).items():
        for method, operation in operations.items():
            for param in operation.get("parameters", []):
                where, schema = f"{method.upper()} {path} {param['in']} {param['name']}", param.get("schema", {})
                if not (param.get("description") or schema.get("description")):
                    found.append(f"{where}: no description")
                if not (param.get("examples") or "example" in param or _has_example(schema, schemas)):
                    found.append(f"{where}: no example")
    return found


def test_the_walk_reports_every_gap_at_once() -> None:
    shown = {"description": "d", "examples": [1]}
    inner = {"type": "object", "properties": {"z": {"description": "z"}, "ok": shown}}
    schemas = {
        "A": {
            "description": "A",
            "examples": [{}],
            "properties": {
                "x": {"type": "string"},
                "y": {**shown, "anyOf": [inner, {"type": "null"}]},
                "w": {**shown, "items": {"properties": {"v": {"examples": [1]}}}},
                "r": {"description": "r", "$ref": "#/components/schemas/B"},
            },
        },
        "B": {"description": "B", "examples": ["b"], "enum": ["b"]},
        "C": {"properties": {}},
    }
    paths = {"/p": {"get": {"parameters": [{"in": "query", "name": "q", "schema": {"type": "string"}}]}}}
    assert undocumented({"components": {"schemas": schemas}, "paths": paths}) == [
        "A.x: no description",
        "A.x: no example",
        "A.y.z: no example",
        "A.w[].v: no description",
        "C: no description",
        "C: no examples",
        "GET /p query q: no description",
        "GET /p query q: no example",
    ]


def test_every_schema_property_and_parameter_has_a_description_and_an_example(document: Document) -> None:
    assert undocumented(document) == []


def _example_misfits(schema: Any, where: str, schemas: Document) -> Iterator[str]:
    if not isinstance(schema, dict):
        return
    checker = OAS31Validator({**schema, "components": {"schemas": schemas}})
    for index, example in enumerate(schema.get("examples", [])):
        yield from (f"{where} example {index}: {error.message}" for error in checker.iter_errors(example))
    for name, prop in schema.get("properties", {}).items():
        yield from _example_misfits(prop, f"{where}.{name}", schemas)
    for part in [*schema.get("anyOf", []), *schema.get("oneOf", []), *schema.get("allOf", []), schema.get("items")]:
        yield from _example_misfits(part, where, schemas)


def test_every_example_in_the_document_fits_its_schema(document: Document) -> None:
    schemas = document["components"]["schemas"]
    assert [misfit for name, schema in schemas.items() for misfit in _example_misfits(schema, name, schemas)] == []


# The closed sets of values: each equals the table the service takes its values from.


def values(named: Any) -> tuple[object, ...]:
    """The values of a named type `Name = TypeAliasType("Name", Annotated[Literal[...], Field(...)])`."""
    return get_args(get_args(named.__value__)[0])


@pytest.mark.parametrize(
    ("named", "source"),
    [
        (answers.RuleCode, tuple(RULES)),  # the registry, in the catalogue's order
        (answers.Penalty, PENALTIES),  # PR 1, least to most severe
        (answers.PenaltyBasis, BASES),
        (answers.Section, SECTIONS),
        (answers.Format, FORMATS),
        (answers.Phase, get_args(Phase)),
        (answers.Status, tuple(STATUS_NAMES.values())),
        (answers.CardKind, tuple(sorted(KINDS))),
        (answers.ExtraDeckType, ("fusion", "synchro", "xyz", "link", "none")),
        (answers.CardType, RULES_TYPES + LATER_TYPES),
        (answers.CardLanguage, OCG_LANGUAGES),
        (answers.BanlistFormat, LIST_FORMATS),
        (answers.InfractionCode, tuple(INFRACTIONS)),  # the deck rules, then PR 4 to PR 10
        (answers.AssessCode, (*INFRACTIONS, *(family for family in FAMILIES if family not in INFRACTIONS))),
        (answers.PenaltyTarget, get_args(AppliesTo)),
        (answers.Timing, get_args(AssessTiming)),
        (answers.StepCode, get_args(StepCode)),
        (answers.Procedure, get_args(Procedure)),
    ],
    ids=lambda value: getattr(value, "__name__", ""),
)
def test_a_closed_set_of_values_equals_its_source(named: Any, source: tuple[str, ...]) -> None:
    assert values(named) == source


def test_the_sets_without_a_tuple_hold_what_the_service_knows() -> None:
    assert set(values(answers.ExtraDeckType)) == EXTRA_DECK_TYPES
    assert set(values(answers.DeckFormat)) == set(DECK_SUFFIXES.values())
    assert set(TCG_LANGUAGES) < set(values(answers.CardLanguage))


def test_the_named_types_are_components_with_their_values(document: Document) -> None:
    schemas = document["components"]["schemas"]
    named = [answers.RuleCode, answers.Penalty, answers.PenaltyBasis, answers.Section, answers.Status, answers.Format]
    assert {n.__name__: schemas[n.__name__]["enum"] for n in named} == {n.__name__: list(values(n)) for n in named}
    violation = schemas["ViolationOut"]["properties"]
    assert violation["code"]["$ref"] == "#/components/schemas/RuleCode"
    assert violation["penalty"]["$ref"] == "#/components/schemas/Penalty"


# Every model: a description, and examples that fit it exactly (no key it would drop).


@pytest.mark.parametrize("model", MODELS, ids=lambda model: model.__name__)
def test_each_model_is_described_and_its_examples_fit_it(model: type[BaseModel]) -> None:
    schema = model.model_json_schema()
    assert model.__doc__
    assert schema["description"]
    assert schema["examples"], f"{model.__name__} has no example"
    for example in schema["examples"]:
        read = model.model_validate(example)
        assert read.model_dump(mode="json", by_alias=True, exclude_unset=True) == example


# The operations: named for generated clients, described, and every refusal documented as a problem.


def _operations(document: Document) -> Iterator[tuple[str, dict[str, Any]]]:
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            yield f"{method.upper()} {path}", operation


def test_every_operation_has_a_camel_case_id_and_a_description(document: Document) -> None:
    camel = re.compile(r"[a-z]+(?:[A-Z0-9][a-z0-9]*)*")
    ids = [operation.get("operationId", "") for _where, operation in _operations(document)]
    assert [
        f"{where}: {operation.get('operationId')}"
        for where, operation in _operations(document)
        if not (camel.fullmatch(operation.get("operationId", "")))
    ] == []
    assert [where for where, operation in _operations(document) if not operation.get("description")] == []
    assert len(set(ids)) == len(ids)


def test_every_refusal_is_declared_as_a_problem(document: Document) -> None:
    wrong = []
    for where, operation in _operations(document):
        for status, answer in operation["responses"].items():
            if status[0] not in "45" or where == "GET /readyz":  # a 503 from /readyz is its readiness answer
                continue
            content = answer.get("content", {})
            schema = content.get("application/problem+json", {}).get("schema")
            if list(content) != ["application/problem+json"] or schema != PROBLEM_REF:
                wrong.append(f"{where} {status}: {sorted(content)}")
    assert wrong == []


def test_every_json_answer_names_its_model(document: Document) -> None:
    unnamed = []
    for where, operation in _operations(document):
        for status, answer in operation["responses"].items():
            schema = answer.get("content", {}).get("application/json", {}).get("schema")
            if status.startswith("2") and schema is not None and "$ref" not in schema.get("items", schema):
                unnamed.append(f"{where} {status}")
    assert unnamed == []
