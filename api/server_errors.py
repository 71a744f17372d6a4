"""Errors gunicorn answers itself, as problem+json (RFC 9457) like every error of the API.

gunicorn refuses some requests before the application sees them: a request line over
`limit_request_line` (414), a header field over `limit_request_field_size` or more than
`limit_request_fields` fields (431), a malformed request line, header or chunk (400), an
unsupported transfer coding (501). It writes those answers with `gunicorn.util.write_error`,
as text/html. `install()` (called by deploy/gunicorn.conf.py in each worker) puts
`write_problem` in its place, so a client meets the same problem+json body on these errors as
on the API's own. gunicorn is pinned (pyproject.toml); tests/e2e/test_http_limits.py checks
these answers through a real gunicorn, so an upgrade that moves the function is caught. They
carry `Server-Time` like every answer (api.server_time), read from the app's service clock.
"""
from __future__ import annotations

import http
import json
import logging
import time
from typing import Callable

from gunicorn import util

from api.errors import PROBLEM_JSON
from api.problems import slug_for_status, title, type_uri
from api.server_time import HEADER as SERVER_TIME
from service.clock import rfc3339

log = logging.getLogger(__name__)

DETAILS = {
    414: "The request line (method, path and query) is longer than this server reads.",
    431: "A request header field is too large, or there are too many of them.",
    501: "The request's Transfer-Encoding is not one this server reads (only chunked).",
}


def problem_body(status: int, message: str) -> bytes:
    """The problem+json body of a gunicorn error `status`; `message` is gunicorn's own text,
    shown (cut to 200 characters) for a 400, whose cause it names."""
    slug = slug_for_status(status)
    detail = DETAILS.get(status) or (f"The request cannot be read: {message[:200]}."
                                     if status == 400 and message else
                                     "The server could not read the request.")
    body = {"type": type_uri(slug), "title": title(slug), "status": status, "detail": detail}
    return json.dumps(body).encode()


def write_problem(sock, status_int: int, reason: str, mesg: str,
                  now_ms: Callable[[], int] | None = None) -> None:
    """`gunicorn.util.write_error` answering problem+json: the same status line and
    `Connection: close`, the body from `problem_body`, `Server-Time` from `now_ms` (ms since
    the epoch; the local clock when None or when it fails)."""
    reason = reason or http.HTTPStatus(status_int).phrase
    body = problem_body(status_int, mesg)
    head = (f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\n"
            f"Content-Type: {PROBLEM_JSON}\r\nContent-Length: {len(body)}\r\n"
            f"{SERVER_TIME}: {rfc3339(_now_ms(now_ms))}\r\n\r\n")
    util.write_nonblock(sock, head.encode("latin-1") + body)


def _now_ms(now_ms: Callable[[], int] | None) -> int:
    if now_ms is not None:
        try:
            return now_ms()
        except Exception:  # noqa: BLE001 (an error answer is written whatever the clock does)
            log.warning("Server-Time of a gunicorn error from the local clock", exc_info=True)
    return int(time.time() * 1000)


def install(app=None) -> None:
    """Make gunicorn write its own error answers with `write_problem`, their `Server-Time`
    from the service clock of `app` (the worker's Flask app; the local clock without one)."""
    clock = getattr((app.extensions.get("rummy") if app is not None else None), "clock", None)
    now_ms = clock.now_ms if clock is not None else None
    util.write_error = (lambda sock, status_int, reason, mesg:
                        write_problem(sock, status_int, reason, mesg, now_ms))
