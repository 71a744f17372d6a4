"""CORS (flask-cors, pinned) for the browsers of the origins in RUMMY_CORS_ORIGINS (a comma
list, e.g. ``https://table.example,http://localhost:5173``; unset or empty: no cross-origin
access, as before).

A preflight from an allowed origin may send ``Authorization`` (bearer tokens: no cookies, so
no credentials mode), ``If-Match``, ``If-None-Match``, ``Idempotency-Key``,
``Last-Event-ID`` and ``Content-Type``; responses expose the headers a client reads:
``ETag``, ``Server-Time``, ``Retry-After``, ``RateLimit-*``, ``Location`` and ``Link``. A
preflight is answered 204 with ``Allow`` (api.options); a request from another origin, or
without ``Origin``, gets no CORS header. Every response of those paths carries ``Vary:
Origin`` (RFC 9110 §12.5.5; the Fetch standard's advice for a server that answers CORS
conditionally): flask-cors sends it only beside an allowed origin's headers, and only when more
than one origin is configured, so a shared cache could otherwise serve a response stored for
one caller (with, or without, ``Access-Control-Allow-Origin``) to a caller of another origin.
A browser's EventSource, which sends no Authorization, uses a stream ticket (service.tickets).
"""
import re
from urllib.parse import unquote

from flask import Flask, Response, request
from flask_cors import CORS

ALLOW_HEADERS = ["Authorization", "If-Match", "If-None-Match", "Idempotency-Key",
                 "Last-Event-ID", "Content-Type"]
EXPOSE_HEADERS = ["ETag", "Server-Time", "Retry-After", "RateLimit-Limit",
                  "RateLimit-Remaining", "RateLimit-Reset", "Location", "Link"]
PREFLIGHT_MAX_AGE_S = 600
RESOURCES = (r"/v1/*", r"/openapi.json")  # flask-cors's resource patterns (re.match on the path)


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
    API (RESOURCES: /v1, /openapi.json), with ``Vary: Origin`` on every response there;
    nothing when none is set. Raises ValueError for a bad origin."""
    allowed = origins(app.config["RUMMY_CORS_ORIGINS"])
    if not allowed:
        return
    app.after_request(_vary_on_origin)
    CORS(app, resources={pattern: {} for pattern in RESOURCES}, origins=allowed,
         allow_headers=ALLOW_HEADERS, expose_headers=EXPOSE_HEADERS,
         methods=["GET", "POST", "OPTIONS"], max_age=PREFLIGHT_MAX_AGE_S,
         always_send=False,  # no CORS headers for a request without Origin (not a browser's)
         vary_header=False)  # _vary_on_origin sends it, on every response of RESOURCES


def _vary_on_origin(response: Response) -> Response:
    """Add ``Origin`` to the response's ``Vary`` when the path is one of RESOURCES (the same
    match as flask-cors's), whatever the request's Origin: allowed, another or none."""
    path = unquote(request.path)
    if any(re.match(pattern, path) for pattern in RESOURCES):
        response.vary.add("Origin")
    return response
