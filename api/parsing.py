"""Reading JSON request bodies: strict JSON (RFC 8259) within bounds.

A body nested deeper than MAX_DEPTH levels is a 400 (never a RecursionError); ``NaN``,
``Infinity`` and numbers out of range are not JSON numbers this API reads. An integer with more
digits than Python converts is a 422 naming where it is (``meld: a number of 5000 digits…``),
never Python's own message. The body size is capped (413) on the bytes read, whatever the
framing (``BoundedRequest``): SMALL_BODY_BYTES on every route but those of LARGE_BODY_ENDPOINTS,
which keep Flask's MAX_CONTENT_LENGTH (``body_limit``).
"""
from __future__ import annotations

import json
import math
import sys

from flask import Request, request
from gunicorn.http.errors import NoMoreData, ParseException
from werkzeug.exceptions import BadRequest, RequestEntityTooLarge
from webargs import core
from webargs.flaskparser import FlaskParser, abort, is_json_request

from api.auth import admin_key, service
from api.errors import ApiProblem
from api.ratelimits import spend_on_refusal
from service.errors import Forbidden
from service.tokens import is_admin_key

MAX_DEPTH = 32
# An action, a join, a spectator request are a few hundred bytes; a game creation with a
# `position` at most a few KB (the largest conformance position is 1,227 bytes of JSON). Read
# and validated, a body costs server CPU in proportion to its size (a 4 MiB body of unknown
# fields took 5.7-7.3 s before it was refused, load 8-12), so every route reads at most 64 KiB...
SMALL_BODY_BYTES = 64 * 1024
# ...but an import, whose exported record is 0.1-0.5 MB (api.MAX_BODY_BYTES); it needs the
# server admin key, checked before its body is read (``init_app``).
LARGE_BODY_ENDPOINTS = frozenset({"games.import_game"})
MAX_DIGITS = sys.get_int_max_str_digits() or 4300


class _Huge:
    """Stands for an integer too long to convert while the body is parsed."""

    def __init__(self, digits: int) -> None:
        self.digits = digits


class _NotJson(Exception):
    """A token Python's json module reads but RFC 8259 does not allow."""


def _parse_int(text: str) -> int | _Huge:
    digits = len(text.lstrip("-"))
    return _Huge(digits) if digits > MAX_DIGITS else int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _NotJson(f"the number {text[:20]}{'…' if len(text) > 20 else ''} is out of range")
    return value


def _parse_constant(name: str) -> float:
    raise _NotJson(f"{name} is not a JSON value")


def _invalid(detail: str) -> ApiProblem:
    return ApiProblem(400, "invalid-json", detail)


def load_json(data: bytes) -> object:
    """The JSON value of a request body. Raises ApiProblem 400 for a body that is not JSON or is
    nested too deeply, and aborts with a 422 (field errors) for an integer too long to read."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise _invalid("The body is not UTF-8 text.") from None
    try:
        value = json.loads(text, parse_int=_parse_int, parse_float=_parse_float,
                           parse_constant=_parse_constant)
    except RecursionError:
        raise _invalid(f"The JSON body is nested more than {MAX_DEPTH} levels deep.") from None
    except _NotJson as error:
        raise _invalid(f"The body is not valid JSON: {error}.") from None
    except json.JSONDecodeError as error:
        raise _invalid(f"The body is not valid JSON: {error.msg} (line {error.lineno}, "
                       f"column {error.colno}).") from None
    _check(value)
    return value


def _check(value: object) -> None:
    """Walk the parsed body without recursion: depth, and integers too long to read."""
    stack: list[tuple[object, tuple, int]] = [(value, (), 1)]
    while stack:
        node, path, depth = stack.pop()
        if isinstance(node, _Huge):
            where = ".".join(str(p)[:40] for p in path) or "body"
            message = (f"A number of {node.digits} digits is too large "
                       f"(at most {MAX_DIGITS} digits).")
            abort(422, messages={"json": {where: [message]}})
        if isinstance(node, (dict, list)):
            if depth > MAX_DEPTH:
                raise _invalid(f"The JSON body is nested more than {MAX_DEPTH} levels deep.")
            items = node.items() if isinstance(node, dict) else enumerate(node)
            stack.extend((child, (*path, key), depth + 1) for key, child in items)


def body_limit(endpoint: str | None, configured: int | None) -> int | None:
    """The body cap in bytes of a request to ``endpoint``: ``configured`` (Flask's
    MAX_CONTENT_LENGTH) on LARGE_BODY_ENDPOINTS, else SMALL_BODY_BYTES (or ``configured`` if
    lower)."""
    if endpoint in LARGE_BODY_ENDPOINTS:
        return configured
    return SMALL_BODY_BYTES if configured is None else min(SMALL_BODY_BYTES, configured)


def init_app(app) -> None:
    """Cap each request's body (``body_limit``), and check the body of every request that
    sends JSON, on the routes that read none too (start, abort, spectators, stream tickets): a
    body that is not JSON is a 400 problem before the route acts, so a malformed request
    changes nothing. An import without the server admin key is refused (403) before its body
    is read."""
    @app.before_request
    def _json_body_is_json() -> None:
        request.max_content_length = body_limit(request.endpoint,
                                                app.config.get("MAX_CONTENT_LENGTH"))
        if request.endpoint in LARGE_BODY_ENDPOINTS and request.method == "POST":
            _admin_key_first()
        if request.method in ("POST", "PUT", "PATCH", "DELETE") and request.is_json:
            data = request.get_data(cache=True)
            if data.strip():
                load_json(data)


def _admin_key_first() -> None:
    """Raise Forbidden (403) for a request without the server admin key, before its body is
    read: only the key may send a large body (LARGE_BODY_ENDPOINTS). The refusal spends the
    caller's general rate budget first (api.ratelimits.spend_on_refusal), as the view would."""
    if not is_admin_key(admin_key(), service().admin_key):
        spend_on_refusal()  # RateLimitExceeded (429) once the budget is spent
        raise Forbidden("Importing a game needs the server admin key.")


class BoundedRequest(Request):
    """Flask's request whose body is never cut short at MAX_CONTENT_LENGTH.

    A body without ``Content-Length`` (``Transfer-Encoding: chunked``) is read through
    werkzeug's LimitedStream, whose ``read()`` stops at the limit and returns the first
    ``limit`` bytes as if they were the whole body (werkzeug 3.1 ``LimitedStream.readall``):
    a 6 MiB chunked body would be acted on as its first 4 MiB. Here a body that reaches the
    limit is probed for one more byte on the server's input stream (gunicorn sets
    ``wsgi.input_terminated``: it ends the stream at the last chunk); if there is one, the
    body is over the limit: RequestEntityTooLarge (413), before anything acts on it. A body
    whose chunks gunicorn cannot read (a chunk size that is no number, a chunk without its
    CRLF, a connection closed mid-body) is a BadRequest (400), not a 500.
    """

    def get_data(self, cache: bool = True, as_text: bool = False,
                 parse_form_data: bool = False) -> bytes | str:
        """See ``werkzeug.Request.get_data``; raises RequestEntityTooLarge (413) for a body
        over ``max_content_length`` whatever its framing."""
        try:
            data = super().get_data(cache=False, parse_form_data=parse_form_data)
            limit = self.max_content_length
            if limit is not None and len(data) >= limit and self.input_stream.read(1):
                raise RequestEntityTooLarge()
        except (ParseException, NoMoreData):  # gunicorn's reader of the body's framing
            raise BadRequest("The request's body could not be read: its chunked framing is "
                             "broken (RFC 9112 §7.1).") from None
        if cache:
            self._cached_data = data
        return data.decode(errors="replace") if as_text else data


class JsonParser(FlaskParser):
    """webargs' Flask parser reading JSON bodies with ``load_json``."""

    def _raw_load_json(self, req: Request) -> object:
        """The body's JSON value; missing when there is no body. Raises ApiProblem 415 for a
        body sent without a JSON ``Content-Type`` (RFC 9110 §15.5.16): read as missing, its
        fields would be refused as absent, naming neither the header nor the body."""
        if not is_json_request(req):
            if _has_body(req):
                given = req.headers.get("Content-Type", "")[:80]
                raise ApiProblem(415, "unsupported-media-type", _NOT_JSON.format(
                    f"Content-Type: {given}" if given else "no Content-Type"))
            return core.missing
        return load_json(req.get_data(cache=True))


_NOT_JSON = ("The body must be sent with the header Content-Type: application/json (this "
             "request has {}).")


def _has_body(req: Request) -> bool:
    """Whether the request carries a body: a positive Content-Length, or a chunked one."""
    return bool(req.content_length) or "chunked" in req.headers.get("Transfer-Encoding", "")


PARSER = JsonParser()
