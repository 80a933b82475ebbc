"""The committed OpenAPI document is exactly what the app serves."""

from __future__ import annotations

import httpx

from scripts.export_openapi import OPENAPI_PATH, render


def test_committed_document_equals_served(client: httpx.Client) -> None:
    served = client.get("/openapi.json").json()
    committed = OPENAPI_PATH.read_text(encoding="utf-8")
    assert committed == render(), "run `python -m scripts.export_openapi` and commit openapi/openapi.json"
    assert httpx.Response(200, content=committed).json() == served
