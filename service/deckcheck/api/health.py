"""Liveness, readiness and metrics: answered on the event loop, never behind the checks, so they answer while
every check thread is busy."""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from deckcheck import __version__
from deckcheck.api.app_state import app_state
from deckcheck.api.live_data import Served, served
from deckcheck.api.responses import BAD_QUERY, json_response
from deckcheck.data.status import data_status
from deckcheck.days import today
from deckcheck.wire.answers import Health, Readiness

router = APIRouter(tags=["health"])
"""/healthz, /readyz and /metrics, of the app's admission and metrics, over the data each request arrived to."""


@router.get("/healthz", operation_id="getHealth", response_model=Health, responses=BAD_QUERY)
async def healthz(request: Request) -> Response:
    """Liveness: the process answers. With the size of the loaded data, the data version that validates every
    cached answer (and changes with the data, the ruleset or the code), the package version, when the data were
    loaded, the updates folder watched, whether the data are stale (a reload failed), the newest list of each
    format and what may be out of date today."""
    now = served(request)
    loaded = dt.datetime.fromtimestamp(now.loaded, dt.UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
    body = {"status": "ok", **data_status(now.data, today()), "data_version": now.version, "loaded": loaded}
    body |= {**app_state(request).watched, **_stale(now)}
    return json_response(body | {"version": __version__})


@router.get(
    "/readyz",
    operation_id="getReadiness",
    response_model=Readiness,
    responses={
        **BAD_QUERY,
        503: {"model": Readiness, "description": "Not ready: shutting down, or every check thread busy."},
    },
)
async def readyz(request: Request) -> Response:
    """Readiness: the data are loaded, the server is not shutting down and a new check would be admitted. With
    the data version served, the updates folder watched, whether the data are stale (a reload failed; they are
    still served) and the newest list of each format."""
    state, now = app_state(request), served(request)
    admission = state.admission
    reasons = (["shutting_down"] if state.lifecycle.draining else []) + (["saturated"] if admission.saturated else [])
    body: dict[str, Any] = {
        "status": "not_ready" if reasons else "ready",
        "reasons": reasons,
        "checks": admission.admitted,
        "data_version": now.version,
        "newest_lists": data_status(now.data, today())["newest_lists"],
        **state.watched,
        **_stale(now),
    }
    response = json_response(body)
    if reasons:
        response.status_code = 503
        response.headers["Retry-After"] = str(state.retry_after)
    return response


@router.get(
    "/metrics",
    response_class=Response,
    operation_id="getMetrics",
    responses={
        **BAD_QUERY,
        200: {
            "description": "The metrics, in the Prometheus text exposition format 0.0.4.",
            "content": {"text/plain": {"schema": {"type": "string"}}},
        },
    },
)
async def prometheus(request: Request) -> Response:
    """Prometheus metrics in the text exposition format."""
    return Response(app_state(request).metrics.exposition(), media_type="text/plain; version=0.0.4; charset=utf-8")


def _stale(now: Served) -> dict[str, Any]:
    return {"stale": None if now.stale is None else asdict(now.stale)}
