"""Prometheus metrics: what an operator watches (docs/operators/service.md).

Each app has its own registry, so several apps in one process (the tests) never share counts. Under
`deckcheck serve --workers N` the worker processes write to PROMETHEUS_MULTIPROC_DIR and /metrics adds them up.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest, multiprocess

# Latency buckets from 1 ms to 10 s: a check takes milliseconds, a large recheck seconds.
_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class Metrics:
    """Every metric the service keeps."""

    def __init__(self, data_version: str, version: str) -> None:
        self.registry = CollectorRegistry()
        self.requests = Counter(
            "deckcheck_requests",
            "Requests answered, by route, method and status.",
            ["route", "method", "status"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "deckcheck_request_duration_seconds",
            "Time from the request head to the end of the answer, by route and status.",
            ["route", "status"],
            buckets=_BUCKETS,
            registry=self.registry,
        )
        self.violations = Counter(
            "deckcheck_violations", "Violations reported, by rule code.", ["code"], registry=self.registry
        )
        self.recheck_lines = Counter(
            "deckcheck_recheck_lines", "Recheck lines checked, by outcome.", ["outcome"], registry=self.registry
        )
        self.paper_reads = Counter(
            "deckcheck_paper_reads",
            "Papers read (POST /v1/decks/read), by outcome: qr, ocr, or the error's type.",
            ["outcome"],
            registry=self.registry,
        )
        self.paper_lines = Counter(
            "deckcheck_paper_lines",
            "Card lines read from paper, by whether they were read for sure or left to review.",
            ["read"],
            registry=self.registry,
        )
        self.rejected = Counter(
            "deckcheck_admission_rejections",
            "Requests refused with 503: every thread busy and the queue full, or waited past the queue's deadline.",
            registry=self.registry,
        )
        self.checks = Gauge(
            "deckcheck_checks_admitted",
            "Checks running or waiting for a thread.",
            multiprocess_mode="livesum",
            registry=self.registry,
        )
        self.reloads = Counter(
            "deckcheck_data_reloads",
            "Reloads of the data (SIGHUP, or a change of the updates folder), by outcome: ok, or failed with the "
            "data before kept.",
            ["outcome"],
            registry=self.registry,
        )
        self._info = Gauge(
            "deckcheck_data_info",
            "The data and ruleset version served (value 1; 0 for one served before a reload, under several workers).",
            ["data_version", "version"],
            multiprocess_mode="max",
            registry=self.registry,
        )
        self._version = version
        self._info.labels(data_version, version).set(1)
        # The request counter's and latency histogram's series of each route, method and status, found once: finding
        # them (labels) costs more than counting.
        self._answered: dict[tuple[str, str, int], tuple[Counter, Histogram]] = {}

    def answered(self, route: str, method: str, status: int, seconds: float) -> None:
        """Count a request of `route` answered with `status`, and the `seconds` it took."""
        series = self._answered.get((route, method, status))
        if series is None:
            series = (self.requests.labels(route, method, str(status)), self.latency.labels(route, str(status)))
            self._answered[route, method, status] = series
        series[0].inc()
        series[1].observe(seconds)

    def data_swapped(self, old: str, new: str) -> None:
        """Say that the data version `new` is served from now on instead of `old`."""
        if "PROMETHEUS_MULTIPROC_DIR" in os.environ:  # a worker's file keeps every series it wrote
            self._info.labels(old, self._version).set(0)
        else:
            self._info.remove(old, self._version)
        self._info.labels(new, self._version).set(1)

    def count_codes(self, codes: Mapping[str, int]) -> None:
        """Count the violations of a report or a recheck chunk."""
        for code, count in codes.items():
            self.violations.labels(code).inc(count)

    def exposition(self) -> bytes:
        """The metrics in the Prometheus text format: this process's, or every worker's under multiprocess mode."""
        if "PROMETHEUS_MULTIPROC_DIR" not in os.environ:
            return generate_latest(self.registry)
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]  # the library has no hints here
        return generate_latest(registry)
