"""Prometheus metrics and the request log (game id and version, never a hand)."""
import logging
import os
import time

from flask import Flask, g, request
from prometheus_client import (CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram,
                               generate_latest, multiprocess)

REQUESTS = Counter("rummy_http_requests_total", "HTTP requests", ["endpoint", "method", "status"])
LATENCY = Histogram("rummy_http_request_seconds", "HTTP request latency", ["endpoint", "method"])
ACTIONS = Counter("rummy_actions_total", "Actions accepted through the API", ["type"])
log = logging.getLogger("api.requests")


def init_app(app: Flask) -> None:
    """Time and count every request and log one line per request."""

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
    worker process are aggregated.
    """
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return generate_latest(registry), CONTENT_TYPE_LATEST
    return generate_latest(), CONTENT_TYPE_LATEST
