"""Prometheus metrics and the request log (game id and version, never a hand).

Besides the per-process request metrics, `StorageCollector` reports what an operator alerts
on (docs/retention.md "Metrics"): Redis up and its used memory, games per status, the
backlog of each RQ queue and the worker count, read from Redis at scrape time and cached a
few seconds, so many scrapes (or many gunicorn workers) cost Redis one read per interval.
"""
import logging
import os
import threading
import time
from typing import Callable, Iterator

from flask import Flask, current_app, g, request
from prometheus_client import (CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram,
                               generate_latest, multiprocess)
from prometheus_client.core import GaugeMetricFamily, Metric

REQUESTS = Counter("rummy_http_requests_total", "HTTP requests", ["endpoint", "method", "status"])
LATENCY = Histogram("rummy_http_request_seconds", "HTTP request latency", ["endpoint", "method"])
ACTIONS = Counter("rummy_actions_total", "Actions accepted through the API", ["type"])
log = logging.getLogger("api.requests")
STORAGE_CACHE_S = 5.0


class StorageCollector:
    """A Prometheus collector of `read_stats()` (service.stats.RedisStats), cached
    `cache_s` seconds. A read that fails (Redis down, no stats wired) gives
    `rummy_redis_up 0` and nothing else, never an error."""

    def __init__(self, read_stats: Callable[[], object] | None, cache_s: float = STORAGE_CACHE_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._read, self._cache_s, self._clock = read_stats, cache_s, clock
        self._lock = threading.Lock()
        self._cached: tuple[float, object | None] | None = None

    def _stats(self) -> object | None:
        with self._lock:
            now = self._clock()
            if self._cached is None or now - self._cached[0] >= self._cache_s:
                try:
                    stats = self._read() if self._read else None
                except Exception:  # noqa: BLE001 - a scrape reports Redis down, never fails
                    log.warning("storage metrics: Redis did not answer", exc_info=True)
                    stats = None
                self._cached = (now, stats)
            return self._cached[1]

    def collect(self) -> Iterator[Metric]:
        """The gauges: rummy_redis_up, rummy_redis_used_memory_bytes, rummy_games{status},
        rummy_queue_jobs{queue}, rummy_queue_oldest_job_age_seconds{queue}, rummy_workers,
        rummy_ready_games, rummy_ready_games_leased, rummy_ready_oldest_age_seconds."""
        stats = self._stats()
        yield GaugeMetricFamily("rummy_redis_up", "1 when Redis answered the last stats read",
                                value=0 if stats is None else 1)
        if stats is None:
            return
        yield GaugeMetricFamily("rummy_redis_used_memory_bytes", "Redis used_memory (INFO)",
                                value=stats.used_memory)
        games = GaugeMetricFamily("rummy_games", "Games in Redis by status", labels=["status"])
        for status, count in stats.games.items():
            games.add_metric([status], count)
        yield games
        jobs = GaugeMetricFamily("rummy_queue_jobs", "Jobs waiting in each RQ queue",
                                 labels=["queue"])
        oldest = GaugeMetricFamily("rummy_queue_oldest_job_age_seconds",
                                   "Seconds the oldest waiting job of each RQ queue has waited "
                                   "(0: none waits)", labels=["queue"])
        for name, queue in stats.queues.items():
            jobs.add_metric([name], queue.length)
            oldest.add_metric([name], queue.oldest_age_s)
        yield jobs
        yield oldest
        yield GaugeMetricFamily("rummy_workers", "RQ workers registered", value=stats.workers)
        yield GaugeMetricFamily("rummy_ready_games", "Games waiting in the bots' ready queue "
                                "for a worker's slice", value=stats.ready.queued)
        yield GaugeMetricFamily("rummy_ready_games_leased", "Games a worker plays now",
                                value=stats.ready.leased)
        yield GaugeMetricFamily("rummy_ready_oldest_age_seconds",
                                "Seconds the game at the head of the ready queue has waited "
                                "(0: none waits)", value=stats.ready.oldest_age_s)


def init_app(app: Flask) -> None:
    """Time and count every request, log one line per request, and collect the storage
    gauges of the app's service (`StorageCollector`)."""
    storage = CollectorRegistry(auto_describe=False)
    storage.register(StorageCollector(getattr(app.extensions.get("rummy"), "stats", None)))
    app.extensions["rummy_storage_metrics"] = storage

    @app.before_request
    def _start():
        g.started = time.perf_counter()

    @app.after_request
    def _record(response):
        elapsed = time.perf_counter() - g.get("started", time.perf_counter())
        endpoint = request.endpoint or "unmatched"
        LATENCY.labels(endpoint, request.method).observe(elapsed)
        REQUESTS.labels(endpoint, request.method, str(response.status_code)).inc()
        log.info("%s %s %s game=%s version=%s %.1fms", request.method, request.path,
                 response.status_code, (request.view_args or {}).get("game_id", "-"),
                 response.headers.get("ETag", "-").strip('"'), elapsed * 1000)
        return response


def exposition() -> tuple[bytes, str]:
    """Return the metrics in the Prometheus text format and its content type.

    With ``PROMETHEUS_MULTIPROC_DIR`` set (several gunicorn workers) the metrics of every
    worker process are aggregated. The storage gauges (read from Redis, the same for every
    process) follow, once.
    """
    storage = generate_latest(current_app.extensions["rummy_storage_metrics"])
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return generate_latest(registry) + storage, CONTENT_TYPE_LATEST
    return generate_latest() + storage, CONTENT_TYPE_LATEST
