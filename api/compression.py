"""gzip for JSON responses over 1 KB (flask-compress, pinned), when the client accepts it.

A whole game's event page or record is 0.1-0.5 MB of JSON that compresses about tenfold. Only
gzip is offered (every HTTP client reads it). flask-compress rewrites a strong ETag of a
compressed response to ``"<version>:gzip"`` and answers a conditional GET itself; the API reads
that tag as the same version in ``If-Match`` and ``If-None-Match`` (api/preconditions.py). The
SSE stream (text/event-stream) is never compressed: its events must reach the client as they
are written.
"""
from flask import Flask
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
