"""gzip for JSON responses over 1 KB (flask-compress, pinned), when the client accepts it.

A whole game's event page or record is 0.1-0.5 MB of JSON that compresses about tenfold. Only
gzip is offered (every HTTP client reads it). flask-compress rewrites a strong ETag of a
compressed response to ``"<version>:gzip"`` and answers a conditional GET itself; the API reads
that tag as the same version in ``If-Match`` and ``If-None-Match`` (api/preconditions.py). The
SSE stream (text/event-stream) is never compressed: its events must reach the client as they
are written.
"""
from flask import Flask, request
from flask_compress import Compress

SETTINGS = {
    "COMPRESS_MIMETYPES": ["application/json", "application/problem+json"],
    "COMPRESS_ALGORITHM": ["gzip"],
    "COMPRESS_MIN_SIZE": 1024,  # bytes; smaller bodies gain less than the header costs
    "COMPRESS_STREAMS": False,
}


def init_app(app: Flask) -> None:
    """Compress ``app``'s JSON responses. Call it before the other ``after_request`` hooks are
    registered: Flask runs those hooks last-registered first, so this one runs last and sees
    the final body."""
    for key, value in SETTINGS.items():
        app.config.setdefault(key, value)
    Compress(app)
    app.before_request(_without_refused_codings)


def _without_refused_codings() -> None:
    """Drop the codings the request refuses (``gzip;q=0``: "not acceptable", RFC 9110
    §12.4.2) from its Accept-Encoding before flask-compress reads it: flask-compress 1.25
    ranks them as choices of quality 0, and with nothing else acceptable it chose one, so
    ``Accept-Encoding: gzip;q=0`` got gzip."""
    given = request.environ.get("HTTP_ACCEPT_ENCODING")
    if given and "q=" in given:
        kept = [part for part in given.split(",") if not _refused(part)]
        request.environ["HTTP_ACCEPT_ENCODING"] = ",".join(kept)


def _refused(coding: str) -> bool:
    """Whether one Accept-Encoding member (``gzip;q=0.000``) has the quality 0."""
    for param in coding.split(";")[1:]:
        name, _, value = param.strip().partition("=")
        if name.strip().lower() == "q":
            try:
                return float(value) == 0
            except ValueError:
                return False
    return False
