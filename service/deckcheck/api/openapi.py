"""The OpenAPI document as clients are generated from it: every refusal under application/problem+json, the
media type the server sends it with (RFC 9457), where FastAPI would put it under application/json, and every kind of
problem listed under the problem's `type`; the NDJSON lines of a recheck as schemas; and an example beside each
request and answer body, taken from its model."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import FastAPI
from pydantic import BaseModel, TypeAdapter

from deckcheck.api.problems import PROBLEM_JSON, PROBLEM_KINDS, PROXY, SERVICE
from deckcheck.wire import answers, event_requests, requests
from deckcheck.wire.answers.recheck import RECHECK_ANSWER_LINE
from deckcheck.wire.requests import RecheckLine

_REF = "#/components/schemas/{model}"
NDJSON = "application/x-ndjson"


def install_openapi(app: FastAPI) -> None:
    """Make `app.openapi()` answer the document as described above."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            document = generate()
            schemas = document["components"]["schemas"]
            _keep_nulls_in_examples(schemas)
            _list_problem_kinds(schemas["Problem"]["properties"]["type"])
            recheck = document["paths"]["/v1/rechecks"]["post"]
            lines_in = _schema(TypeAdapter(RecheckLine), "validation", schemas)
            lines_out = _schema(RECHECK_ANSWER_LINE, "serialization", schemas)
            recheck["requestBody"]["content"][NDJSON]["schema"] = lines_in
            recheck["responses"]["200"]["content"] = {NDJSON: {"schema": lines_out}}  # never application/json
            for operations in document["paths"].values():
                for operation in operations.values():
                    _problems_as_problem_json(operation["responses"])
                    bodies = [operation.get("requestBody", {}), *operation["responses"].values()]
                    for body in bodies:
                        for media in body.get("content", {}).values():
                            _example(media, schemas)
            app.openapi_schema = document
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]  # FastAPI's documented way to change the document


def _keep_nulls_in_examples(schemas: dict[str, Any]) -> None:
    """FastAPI drops the null values from the examples it copies into the document, so that `deck: null` goes
    missing from an answer that always has it: put each model's own examples back, and its properties'."""
    for module in (answers, requests, event_requests):
        for name in dir(module):
            model = getattr(module, name)
            if isinstance(model, type) and issubclass(model, BaseModel) and model.__name__ in schemas:
                own = model.model_json_schema()
                if (examples := own.get("examples")) is not None:
                    schemas[model.__name__]["examples"] = examples
                served = schemas[model.__name__].get("properties", {})
                for field, schema in own.get("properties", {}).items():
                    if "examples" in schema and field in served:
                        served[field]["examples"] = schema["examples"]


def _list_problem_kinds(described: dict[str, Any]) -> None:
    """Every kind of problem (api/problems.py) after the description of a problem's `type`: its status, who answers
    it where the service alone does not, and when."""
    by: dict[tuple[str, ...], str] = {SERVICE: "", PROXY: ", from the proxy"}
    kinds = (f"- `{k.name}` ({k.status}{by.get(k.by, ', also from the proxy')}): {k.meaning}" for k in PROBLEM_KINDS)
    lead = "The kinds, each with its status (and who answers it, where not the service alone) and when:"
    described["description"] = "\n".join([described["description"], "", lead, "", *kinds])


def _schema(
    adapter: TypeAdapter[Any], mode: Literal["validation", "serialization"], schemas: dict[str, Any]
) -> dict[str, Any]:
    """The schema of one NDJSON line, its models added to the document's components where not there yet, and
    referred to by name where the line is one model."""
    schema = adapter.json_schema(ref_template=_REF, mode=mode)
    for name, model in schema.pop("$defs", {}).items():
        schemas.setdefault(name, model)
    if "properties" not in schema:
        return schema
    schemas.setdefault(schema["title"], schema)
    return {"$ref": _REF.format(model=schema["title"])}


def _problems_as_problem_json(responses: dict[str, Any]) -> None:
    for answer in responses.values():
        content = answer.get("content", {})
        if content.get("application/json", {}).get("schema", {}).get("$ref") == _REF.format(model="Problem"):
            answer["content"] = {PROBLEM_JSON: content["application/json"]}


def _example(media: dict[str, Any], schemas: dict[str, Any]) -> None:
    """The first example of the body's model (or of its items' model, for a list) beside the body's schema."""
    schema = media.get("schema", {})
    many = schema.get("type") == "array"
    one = schema.get("items", {}) if many else schema
    ref = one.get("$ref") or one.get("oneOf", [{}])[0].get("$ref", "")  # of several kinds of line, the first
    examples = schemas.get(ref.rpartition("/")[2], {}).get("examples")
    if examples and "example" not in media:
        media["example"] = [examples[0]] if many else examples[0]
