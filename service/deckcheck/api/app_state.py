"""What the routes of one app share that is made with the app, not with the module: its admission queues, metrics,
lifecycle, the settings its answers depend on and its pages. The factory (api/factory.py) sets one `AppState` on
`app.state`; a route reaches it through the request it takes (`app_state`), so two apps made in one process (the
tests make many) never share any of it. The routers themselves are the modules' own, the same for every app."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fastapi import FastAPI, Request

from deckcheck.api.lifecycle import Lifecycle
from deckcheck.api.metrics import Metrics
from deckcheck.api.middleware.admission import Admission, Pool
from deckcheck.api.page_files import PageFiles
from deckcheck.events import EventStore


@dataclass(frozen=True, slots=True)
class AppState:
    """One app's shared state, as its routes read it."""

    admission: Admission
    """The check threads, their queue and the rechecks running."""
    paper: Pool
    """The threads that read paper, apart from the checks'."""
    metrics: Metrics
    lifecycle: Lifecycle
    watched: Mapping[str, Any]
    """The updates folder and how often it is looked at, as /healthz and /readyz name them."""
    retry_after: int
    """Seconds a 503 asks the client to wait (DECKCHECK_RETRY_AFTER)."""
    paper_seconds: float
    """Seconds one paper may take to read (DECKCHECK_PAPER_SECONDS)."""
    max_held_bytes: int
    """Result bytes one recheck may keep on disk (DECKCHECK_MAX_HELD_BYTES)."""
    pages: PageFiles
    """The files of the pages, and /docs made for this app's title and OpenAPI document."""
    events: EventStore
    """The events database (DECKCHECK_EVENTS_DB)."""

    def install(self, app: FastAPI) -> None:
        """Make this the state of `app`'s routes."""
        app.state.deckcheck = self


def app_state(request: Request) -> AppState:
    """The state of the app that `request` arrived at."""
    state: AppState = request.app.state.deckcheck
    return state
