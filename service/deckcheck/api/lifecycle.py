"""Whether the server is shutting down: the signals that stop it, and the time /readyz is given to say so first
(DECKCHECK_DRAIN_SECONDS)."""

from __future__ import annotations

import asyncio
import signal
import threading
from collections.abc import Callable
from functools import partial
from types import FrameType
from typing import Any


class Lifecycle:
    """Whether the server is shutting down. On SIGTERM or SIGINT it marks itself draining (/readyz answers 503) and,
    `drain_seconds` later (at once when 0, or on a second signal), hands the signal on to the server's own handler,
    which closes the port and gives running requests the shutdown timeout to finish."""

    def __init__(self, drain_seconds: float = 0.0) -> None:
        self.drain_seconds = drain_seconds
        self.draining = False
        self._loop: asyncio.AbstractEventLoop | None = None

    def watch_signals(self) -> None:
        """Put this in front of the server's SIGTERM and SIGINT handlers (uvicorn installs them before the app
        starts). Called from the app's start-up, on the event loop."""
        if threading.current_thread() is not threading.main_thread():
            return  # signals reach only the main thread's handlers; a server in a thread is stopped directly
        self._loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            previous = signal.getsignal(sig)
            if callable(previous):
                signal.signal(sig, partial(self._on_signal, previous))

    def _on_signal(
        self, previous: Callable[[int, FrameType | None], Any], signum: int, frame: FrameType | None
    ) -> None:
        again, self.draining = self.draining, True
        if again or not self.drain_seconds or self._loop is None:
            previous(signum, frame)
        else:  # the handler runs on the loop's thread between two steps: hand the delay to the loop
            self._loop.call_soon_threadsafe(self._loop.call_later, self.drain_seconds, previous, signum, None)
