"""CORS (flask-cors, pinned) for the browsers of the origins in RUMMY_CORS_ORIGINS (a comma
list, e.g. ``https://table.example,http://localhost:5173``; unset or empty: no cross-origin
access, as before).

A preflight from an allowed origin may send ``Authorization`` (bearer tokens: no cookies, so
no credentials mode), ``If-Match``, ``If-None-Match``, ``Idempotency-Key``,
``Last-Event-ID`` and ``Content-Type``; responses expose the headers a client reads:
``ETag``, ``Server-Time``, ``Retry-After``, ``RateLimit-*``, ``Location`` and ``Link``. A
preflight is answered 204 with ``Allow`` (api.options); a request from another origin, or
without ``Origin``, gets no CORS header. A browser's EventSource, which sends no
Authorization, uses a stream ticket (service.tickets).
"""
from flask import Flask
from flask_cors import CORS

ALLOW_HEADERS = ["Authorization", "If-Match", "If-None-Match", "Idempotency-Key",
                 "Last-Event-ID", "Content-Type"]
EXPOSE_HEADERS = ["ETag", "Server-Time", "Retry-After", "RateLimit-Limit",
                  "RateLimit-Remaining", "RateLimit-Reset", "Location", "Link"]
PREFLIGHT_MAX_AGE_S = 600


def origins(value: str) -> list[str]:
    """The allowed origins of a RUMMY_CORS_ORIGINS value (scheme://host[:port], no path).
    Raises ValueError for an entry that is not an origin."""
    found = [o.strip().rstrip("/") for o in value.split(",") if o.strip()]
    for origin in found:
        scheme, sep, rest = origin.partition("://")
        if scheme not in ("http", "https") or not sep or not rest or "/" in rest:
            raise ValueError(f"RUMMY_CORS_ORIGINS: {origin!r} is not an origin "
                             "(scheme://host[:port])")
    return found


def init_app(app: Flask) -> None:
    """Allow the origins of the app's ``RUMMY_CORS_ORIGINS`` (service.config.Settings) on the
    API (/v1, /openapi.json); nothing when none is set. Raises ValueError for a bad origin."""
    allowed = origins(app.config["RUMMY_CORS_ORIGINS"])
    if allowed:
        CORS(app, resources={r"/v1/*": {}, r"/openapi.json": {}}, origins=allowed,
             allow_headers=ALLOW_HEADERS, expose_headers=EXPOSE_HEADERS,
             methods=["GET", "POST", "OPTIONS"], max_age=PREFLIGHT_MAX_AGE_S,
             always_send=False)  # no CORS headers for a request without Origin (not a browser's)
