"""`Server-Time` on every response (docs/clock.md): the server's time as RFC 3339 UTC with ms
(`2026-11-30T20:36:49.123Z`), the format of `awaiting.deadline`, so a client shows a countdown
(deadline - Server-Time) without trusting its own clock. A header, not a body field, so the
ETag of a view (its version) and its 304s stay valid as time passes."""
from flask import Flask

from service.clock import rfc3339

HEADER = "Server-Time"
SERVER_TIME_HEADER = {HEADER: {"description": "The server's time, RFC 3339 UTC with ms",
                               "schema": {"type": "string", "format": "date-time"}}}


def init_app(app: Flask) -> None:
    """Add `Server-Time` to every response of `app` (errors and 304s too)."""

    @app.after_request
    def _server_time(response):
        service = app.extensions.get("rummy")
        clock = getattr(service, "clock", None)
        if clock is not None:
            response.headers[HEADER] = rfc3339(clock.now_ms())
        return response
