"""The OpenAPI document as clients are generated from it: every refusal under application/problem+json, the
media type the server sends it with (RFC 9457), where FastAPI would put it under application/json."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from deckcheck.api.problems import PROBLEM_JSON


def install_openapi(app: FastAPI) -> None:
    """Make `app.openapi()` answer the document with each problem answer's schema under problem+json."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            document = generate()
            for operations in document["paths"].values():
                for operation in operations.values():
                    _problems_as_problem_json(operation["responses"])
            app.openapi_schema = document
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]  # FastAPI's documented way to change the document


def _problems_as_problem_json(responses: dict[str, Any]) -> None:
    for status, answer in responses.items():
        content = answer.get("content", {})
        if int(status) >= 400 and "application/json" in content:
            answer["content"] = {PROBLEM_JSON: content["application/json"]}
