"""After `deckcheck data` changes a folder, or is told to reload: the services of this machine watching that folder
(data/watchers.py), waited for until each serves the change, or has said it could not load it, or the wait ends."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import IO

from deckcheck.cli.output import words
from deckcheck.data.folder import path_text
from deckcheck.data.watchers import Watcher, watchers

_LOOK = 0.2  # seconds between looks at the services' records


def await_services(
    before: list[Watcher],
    folder: Path,
    seconds: float,
    lang: str,
    out: IO[str],
    *,
    done: Callable[[Watcher, Watcher], bool] = lambda old, new: new.data_version != old.data_version,
    taken: str = "data_taken",
    told: bool = False,
) -> bool:
    """Wait up to `seconds` until each service of `before` (as it was before the change) serves the change (`done`),
    saying which took it; whether all did. No service: say that none watches `folder`. Unless the services were
    `told` to reload (SIGHUP), one that never looks at the folder (DECKCHECK_UPDATES_POLL=0) is not waited for: it is
    said at once what makes it take the change."""
    if not before:
        print(words(lang, "data_unwatched", folder=path_text(folder)), file=out)
        return False
    began = time.monotonic()
    unpolled = [] if told else [watcher for watcher in before if watcher.poll_seconds == 0]
    for watcher in unpolled:
        print(words(lang, "data_not_polled", service=watcher.describe()), file=out)
    pending = {watcher.pid: watcher for watcher in before if watcher not in unpolled}
    all_took = not unpolled
    while pending:
        now = {watcher.pid: watcher for watcher in watchers(folder)}
        for pid, old in list(pending.items()):
            waited = round(time.monotonic() - began, 1)
            heard = _heard(old, now.get(pid), done=done, taken=taken, lang=lang, waited=waited)
            if heard is not None:
                said, took = heard
                print(said, file=out)
                all_took = all_took and took
                del pending[pid]
        if pending and time.monotonic() - began >= seconds:
            for old in pending.values():
                print(
                    words(lang, "data_not_taken", service=old.describe(), seconds=seconds, poll=old.poll_seconds),
                    file=out,
                )
            return False
        if pending:
            time.sleep(_LOOK)
    return all_took


def _heard(
    old: Watcher, new: Watcher | None, *, done: Callable[[Watcher, Watcher], bool], taken: str, lang: str, waited: float
) -> tuple[str, bool] | None:
    """What a service waited for (`old` before the change, `new` now, None when gone) has come to, `waited` seconds
    in: the sentence that says so, and whether it did not refuse the change; None while it has not come to either."""
    if new is None:
        return words(lang, "data_service_gone", service=old.describe()), True
    if done(old, new) and new.reload_outcome == "ok":
        return words(lang, taken, service=new.describe(), version=new.data_version, seconds=waited), True
    if new.reload_outcome == "failed" and new.reloaded != old.reloaded:
        problem = new.reload_problem
        return words(lang, "data_refused", service=new.describe(), version=new.data_version, problem=problem), False
    return None


def reload_services(folder: Path, seconds: float, lang: str, out: IO[str]) -> bool:
    """Send SIGHUP to each service watching `folder` (to the supervisor of workers, once, and only while it is the
    process its record names), and wait until each has loaded the data again; whether all did (False where none
    watches it)."""
    before: list[Watcher] = []
    signalled: set[int] = set()
    for watcher in watchers(folder):
        if watcher.signal_pid not in signalled and watcher.signallable():
            with suppress(ProcessLookupError):  # it ended since: the wait below says it is gone
                os.kill(watcher.signal_pid, signal.SIGHUP)
            signalled.add(watcher.signal_pid)
        if watcher.signal_pid in signalled:
            before.append(watcher)
        else:  # a worker whose supervisor is gone: a signal to its pid could reach another process
            print(words(lang, "data_service_gone", service=watcher.describe()), file=out)
    return await_services(
        before,
        folder,
        seconds,
        lang,
        out,
        done=lambda old, new: new.reloaded != old.reloaded,
        taken="data_reloaded",
        told=True,
    )
