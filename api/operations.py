"""What every operation of the document declares: its ``operationId`` (the name a generated
client gives its function), the headers it reads (``If-Match``, ``If-None-Match``), and, for
an operation that honours it, the ``Idempotency-Key`` header (validated here: 422 for an
empty or too long key).

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

MAX_KEY = 200  # characters of an Idempotency-Key
IDEMPOTENCY_KEY = {
    "name": "Idempotency-Key", "in": "header", "required": False,
    "description": f"Any unique string of 1 to {MAX_KEY} characters; a retry with the same key "
                   "and body returns the first response and appends nothing (422 when reused "
                   "for another body, or when empty or longer; 409 "
                   "idempotency-key-in-progress with Retry-After while the first request is "
                   "still carried out). Keys are per seat.",
    "schema": {"type": "string", "minLength": 1, "maxLength": MAX_KEY}}


def idempotency_key() -> str | None:
    """The request's ``Idempotency-Key`` (None when absent), already checked by the
    ``operation(idempotent=True)`` wrapper of the view."""
    return request.headers.get("Idempotency-Key")


def _check_idempotency_key() -> None:
    """Abort with the API's 422 validation problem when the key is empty or too long."""
    key = request.headers.get("Idempotency-Key")
    if key is not None and not 1 <= len(key) <= MAX_KEY:
        abort(422, messages={"headers": {"Idempotency-Key": [
            f"Length must be between 1 and {MAX_KEY}."]}})


def operation(operation_id: str, *, idempotent: bool = False, parameters: tuple = ()):
    """Decorator of a view: its ``operationId``, the header ``parameters`` it reads
    (OpenAPI parameter objects, added to those of its ``arguments``) and, when
    ``idempotent``, the ``Idempotency-Key`` header, checked before the view runs."""

    def decorator(func):
        if idempotent:
            inner = func

            @functools.wraps(inner)
            def func(*args, **kwargs):
                _check_idempotency_key()
                return inner(*args, **kwargs)

        func._apidoc = {**getattr(func, "_apidoc", {}), "operation": {
            "operationId": operation_id,
            "parameters": [*parameters, *([IDEMPOTENCY_KEY] if idempotent else [])]}}
        return func

    return decorator


def prepare_operation_doc(doc: dict, doc_info: dict, **kwargs) -> dict:
    """flask-smorest doc callback: the operationId and the declared header parameters."""
    declared = doc_info.get("operation")
    if declared:
        doc["operationId"] = declared["operationId"]
        doc.setdefault("parameters", []).extend(declared["parameters"])
    return doc
