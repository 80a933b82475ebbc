"""Liveness, readiness and metrics: answered on the event loop, never behind the checks, so they answer while
every check thread is busy."""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from types import FrameType
from typing import Any

from fastapi import APIRouter
from fastapi.responses import Response

from deckcheck.api.admission import Admission
from deckcheck.api.metrics import Metrics
from deckcheck.api.responses import json_response
from deckcheck.data import Data


@dataclass(slots=True)
class Lifecycle:
    """Whether the server is shutting down: set when it is told to stop (SIGTERM, SIGINT)."""

    draining: bool = False

    def watch_signals(self) -> None:
        """Mark the server as draining when the server's own SIGTERM and SIGINT handlers run (uvicorn installs them
        before the app starts; they stay in charge of stopping)."""
        if threading.current_thread() is not threading.main_thread():
            return  # signals reach only the main thread's handlers; a server in a thread is stopped directly
        for sig in (signal.SIGTERM, signal.SIGINT):
            previous = signal.getsignal(sig)
            if callable(previous):
                signal.signal(sig, partial(self._on_signal, previous))

    def _on_signal(
        self, previous: Callable[[int, FrameType | None], Any], signum: int, frame: FrameType | None
    ) -> None:
        self.draining = True
        previous(signum, frame)


def build_health_router(data: Data, admission: Admission, metrics: Metrics, lifecycle: Lifecycle) -> APIRouter:
    """/healthz, /readyz and /metrics, bound to the app's data, admission and metrics."""
    router = APIRouter(tags=["health"])

    @router.get("/healthz")
    async def healthz() -> Response:
        """Liveness: the process answers. With the size of the loaded data."""
        return json_response({"status": "ok", "cards": len(data.cards), "banlists": len(data.banlists.by_id)})

    @router.get("/readyz", responses={503: {"description": "Not ready: shutting down, or every check thread busy."}})
    async def readyz() -> Response:
        """Readiness: the data are loaded, the server is not shutting down and a new check would be admitted."""
        reasons = (["shutting_down"] if lifecycle.draining else []) + (["saturated"] if admission.saturated else [])
        body = {"status": "not_ready" if reasons else "ready", "reasons": reasons, "checks": admission.admitted}
        response = json_response(body)
        if reasons:
            response.status_code = 503
            response.headers["Retry-After"] = "1"
        return response

    @router.get("/metrics", response_class=Response)
    async def prometheus() -> Response:
        """Prometheus metrics in the text exposition format."""
        return Response(metrics.exposition(), media_type="text/plain; version=0.0.4; charset=utf-8")

    return router
