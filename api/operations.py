"""What every operation of the document declares: its ``operationId`` (the name a generated
client gives its function), the headers it reads (``If-Match``, ``If-None-Match``), and, for
an operation that honours it, the ``Idempotency-Key`` header (validated here: 422 for an
empty or too long key, or, where the answer carries a token, one shorter than MIN_KEY_LENGTH).

A route declares them with ``@blp.operation(...)`` (``api.resources.Blueprint``)::

    @blp.route("/<game_id>/join", methods=["POST"])
    @blp.operation("join_game", idempotent=True)
    def join(game_id):
        key = idempotency_key()   # None when the client sent none
        ...

``tests/integration/test_openapi.py`` checks that every operation has a unique operationId
and that every POST declares ``Idempotency-Key`` unless it is listed there as not honouring it.
"""
from __future__ import annotations

import functools

from flask import request
from flask_smorest import abort

from api.player_auth import player_parameters
from service.sealed_answers import MIN_KEY_LENGTH

MAX_KEY = 200  # characters of an Idempotency-Key
KEY_DOC = (f"Any unique string of 1 to {MAX_KEY} characters; a retry with the same key and body "
           "returns the first response and appends nothing (422 when reused for another body, "
           "or when empty or longer; 409 idempotency-key-in-progress with Retry-After while the "
           "first request is still carried out). Keys are per seat.")
SEALED_KEY_DOC = (
    f"A unique random string of {MIN_KEY_LENGTH} to {MAX_KEY} characters (a UUID v4, 32 hex "
    "digits); a retry with the same key and body returns the first response, the same "
    "tokens, and does it once (422 when reused for another body, or shorter or longer; 409 "
    "idempotency-key-in-progress with Retry-After while the first request is still carried "
    "out). The answer carries tokens: it is kept for 24 h sealed with the key, so the key is "
    "the secret that reads it again: never reuse or log it. Keys are per caller "
    "(docs/service.md \"Sealed answers\").")


def idempotency_parameter(sealed: bool = False) -> dict:
    """The ``Idempotency-Key`` header parameter; `sealed`: of an operation whose answer
    carries a token (service.sealed_answers), whose key is at least MIN_KEY_LENGTH long."""
    return {"name": "Idempotency-Key", "in": "header", "required": False,
            "description": SEALED_KEY_DOC if sealed else KEY_DOC,
            "schema": {"type": "string", "minLength": MIN_KEY_LENGTH if sealed else 1,
                       "maxLength": MAX_KEY}}


def idempotency_key() -> str | None:
    """The request's ``Idempotency-Key`` (None when absent), already checked by the
    ``operation(idempotent=True)`` wrapper of the view."""
    return request.headers.get("Idempotency-Key")


def _check_idempotency_key(min_length: int) -> None:
    """Abort with the API's 422 validation problem when the key is shorter than
    `min_length` or longer than MAX_KEY."""
    key = request.headers.get("Idempotency-Key")
    if key is not None and not min_length <= len(key) <= MAX_KEY:
        abort(422, messages={"headers": {"Idempotency-Key": [
            f"Length must be between {min_length} and {MAX_KEY}."]}})


def operation(operation_id: str, *, idempotent: bool = False, sealed: bool = False,
              parameters: tuple = ()):
    """Decorator of a view: its ``operationId``, the header ``parameters`` it reads
    (OpenAPI parameter objects, added to those of its ``arguments``) and, when
    ``idempotent``, the ``Idempotency-Key`` header, checked before the view runs. ``sealed``
    (implies ``idempotent``): the answer carries a token, kept sealed with the key
    (service.sealed_answers), so the key must be at least MIN_KEY_LENGTH characters."""
    idempotent = idempotent or sealed

    def decorator(func):
        if idempotent:
            inner = func

            @functools.wraps(inner)
            def func(*args, **kwargs):
                _check_idempotency_key(MIN_KEY_LENGTH if sealed else 1)
                return inner(*args, **kwargs)

        func._apidoc = {**getattr(func, "_apidoc", {}), "operation": {
            "operationId": operation_id,
            "parameters": [*parameters, *([idempotency_parameter(sealed)] if idempotent else [])]}}
        return func

    return decorator


def prepare_operation_doc(doc: dict, doc_info: dict, **kwargs) -> dict:
    """flask-smorest doc callback: the operationId, the declared header parameters and the
    player headers its security implies (`api.player_auth.player_parameters`)."""
    declared = doc_info.get("operation")
    if declared:
        doc["operationId"] = declared["operationId"]
        doc.setdefault("parameters", []).extend(declared["parameters"])
    security = doc_info.get("manual_doc", {}).get("security", [])
    doc.setdefault("parameters", []).extend(player_parameters(security))
    return doc
