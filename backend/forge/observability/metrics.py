"""Prometheus metrics of one process: runs, phase durations, model calls, SSE listeners.

Invariants:
    - Each container has its own CollectorRegistry (tests build many apps; nothing is global).
    - Counters and histograms are fed by the runs (`RunObserver`: committed `context_usage` events
      give calls, tokens and cost by provider; a run's end gives its phase's duration). Gauges are
      read when scraped: runs held by this process's registry, SSE followers of its broadcaster.
    - Thin: no metric is computed in the core, and recording never raises into a run.

Series: forge_runs_active, forge_sse_listeners, forge_phase_run_seconds{phase},
forge_model_calls_total{provider}, forge_model_tokens_total{provider,kind} (kind: context,
cache_read, cache_creation), forge_model_cost_usd_total{provider}; with workers (FORGE_RUNNER=workers),
read from the run queue at each scrape: forge_queue_jobs{state} (state: waiting, running) and
forge_queue_live_workers (absent without workers; -1 when the queue could not be read).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from forge.core.domain_types import Phase
from forge.core.session.events import EventType
from forge.core.session.record import StoredEvent

log = logging.getLogger(__name__)

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
# Phase runs take from seconds (offline) to many minutes (a real model with research).
PHASE_BUCKETS = (1, 5, 15, 30, 60, 120, 300, 600, 1200, 1800, 3600)
TOKEN_KINDS = (
    ("context", "tokens_used"),
    ("cache_read", "cache_read_tokens"),
    ("cache_creation", "cache_creation_tokens"),
)


class _LiveGauges(Collector):
    def __init__(self, runs_active: Callable[[], int], sse_listeners: Callable[[], int]) -> None:
        self._runs_active = runs_active
        self._sse_listeners = sse_listeners

    def collect(self) -> Iterator[GaugeMetricFamily]:
        yield GaugeMetricFamily("forge_runs_active", "Agent runs this process holds now.", value=self._runs_active())
        yield GaugeMetricFamily(
            "forge_sse_listeners", "Event-stream followers in this process now.", value=self._sse_listeners()
        )


class ForgeMetrics:
    """The process's metrics; also the RunObserver the phase-run driver reports to."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self._phase_seconds = Histogram(
            "forge_phase_run_seconds",
            "Duration of a phase run.",
            ["phase"],
            registry=self.registry,
            buckets=PHASE_BUCKETS,
        )
        self._calls = Counter("forge_model_calls", "Model calls.", ["provider"], registry=self.registry)
        self._tokens = Counter("forge_model_tokens", "Model tokens.", ["provider", "kind"], registry=self.registry)
        self._cost = Counter("forge_model_cost_usd", "Model cost in USD.", ["provider"], registry=self.registry)
        self._queue_jobs: Gauge | None = None
        self._queue_workers: Gauge | None = None

    def queue_read(self, waiting: int, running: int, live_workers: int) -> None:
        """The run queue as read for this scrape (workers only; -1 everywhere = it could not be read)."""
        if self._queue_jobs is None or self._queue_workers is None:
            self._queue_jobs = Gauge(
                "forge_queue_jobs", "Run jobs in the task engine's queue.", ["state"], registry=self.registry
            )
            self._queue_workers = Gauge(
                "forge_queue_live_workers", "Workers with a recent heartbeat.", registry=self.registry
            )
        self._queue_jobs.labels("waiting").set(waiting)
        self._queue_jobs.labels("running").set(running)
        self._queue_workers.set(live_workers)

    def watch(self, runs_active: Callable[[], int], sse_listeners: Callable[[], int]) -> None:
        """Read these when scraped (called once, by the composition root)."""
        self.registry.register(_LiveGauges(runs_active, sse_listeners))

    def events_committed(self, provider: str, events: Sequence[StoredEvent]) -> None:
        for event in events:
            if event.type != EventType.CONTEXT_USAGE:
                continue
            try:
                self._calls.labels(provider).inc()
                for kind, key in TOKEN_KINDS:
                    self._tokens.labels(provider, kind).inc(max(0, int(event.data.get(key, 0))))
                self._cost.labels(provider).inc(max(0.0, float(event.data.get("cost_usd", 0.0))))
            except (TypeError, ValueError):
                log.warning("context_usage event %s has malformed numbers; not counted", event.seq)

    def run_ended(self, phase: Phase, seconds: float) -> None:
        self._phase_seconds.labels(phase.value).observe(max(0.0, seconds))

    def exposition(self) -> bytes:
        """The Prometheus text format of every series."""
        return generate_latest(self.registry)
