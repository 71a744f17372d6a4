"""Problem details (RFC 9457): every error the API gives is ``application/problem+json``.

One handler per exception family maps it to a stable ``type`` URI, a ``title``, the
``status``, a ``detail`` a client can show, and extension members where they help
(``rule`` for a rule violation, ``current_version`` for a conflict, ``errors`` for
field validation). Nothing internal (tracebacks, Redis errors) ever reaches a client.
"""
import http
import logging

import marshmallow as ma
from flask import Flask, current_app, json, request
from flask_smorest import Api
from flask_smorest.utils import prepare_response
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from api import field_errors
from api.problems import PROBLEM_TYPES, listing, rule_url, slug_for_status, title, type_uri
from domain.errors import MalformedAction, RuleViolation
from domain.profile import UnsupportedProfile
from service.errors import Forbidden, GameNotFound, Unauthorized
from service.store import (ConcurrencyError, IdempotencyInProgress, IdempotencyKeyReused,
                           StoreUnavailable)

PROBLEM_JSON = "application/problem+json"
# Documented on the 429 problem response (a cap or a limit was reached: RFC 9110 §10.2.3).
RETRY_AFTER_HEADER = {"Retry-After": {"description": "Seconds to wait before trying again",
                                      "schema": {"type": "integer", "minimum": 0}}}
log = logging.getLogger(__name__)


class ProblemSchema(ma.Schema):
    """A problem details object (RFC 9457) with this API's extension members."""

    type = ma.fields.String(required=True, metadata={
        "description": "The problem's type: a URI reference to its entry on the service's page "
                       "(`/docs/problems#<slug>`, relative to the request's URL), one of "
                       "the types listed with each response's status",
        "enum": [type_uri(slug) for slug in PROBLEM_TYPES]})
    title = ma.fields.String(required=True, metadata={"description": "Short summary of the type"})
    status = ma.fields.Integer(required=True, metadata={"description": "HTTP status code"})
    detail = ma.fields.String(required=True, metadata={"description": "What went wrong here"})
    rule = ma.fields.String(metadata={"description": "The rule id (docs/rules.md) the problem "
                                                     "cites: rule violations, malformed "
                                                     "actions, lobby and profile refusals"})
    rule_url = ma.fields.String(metadata={"description": "The rule's entry on the service's "
                                                         "rules page (`/docs/rules#r2-4`)"})
    current_version = ma.fields.Integer(metadata={"description": "The game's version (409)"})
    errors = ma.fields.Dict(metadata={"description": "Field errors by location (422): the "
                                                    "first 20 fields"})
    errors_omitted = ma.fields.Integer(metadata={"description": "Fields with errors left out "
                                                                "of `errors` (422)"})

    class Meta:
        unknown = ma.INCLUDE


class ApiProblem(Exception):
    """An HTTP-level problem raised by the API itself (bad header, unavailable backend)."""

    def __init__(self, status: int, slug: str, detail: str, headers: dict | None = None):
        super().__init__(detail)
        self.status, self.slug, self.detail, self.headers = status, slug, detail, headers or {}


class ProblemApi(Api):
    """flask-smorest ``Api`` whose documented and actual errors are problem+json."""

    ERROR_SCHEMA = ProblemSchema

    def _register_responses(self):
        """Register a problem+json response component per error status, named ``Problem<code>``.

        Names are by number, not ``HTTPStatus`` name, so the document is the same on every
        Python (3.13 renamed 422 to UNPROCESSABLE_CONTENT).
        """
        for status in http.HTTPStatus:
            if status >= 400:
                headers = RETRY_AFTER_HEADER if status == 429 else None
                self._problem_response(problem_ref(status), _described(status), headers)
        self._problem_response(self.DEFAULT_ERROR_RESPONSE_NAME, "Any other error")

    def _problem_response(self, name: str, description: str, headers: dict | None = None) -> None:
        response = {"description": description, "schema": ProblemSchema}
        if headers:
            response["headers"] = headers
        prepare_response(response, self.spec, PROBLEM_JSON)
        self.spec.components.response(name, response, lazy=True)

    def handle_http_exception(self, error: HTTPException):
        """Render a werkzeug/webargs HTTP error (404, 405, 422 validation, ...) as a problem."""
        data = getattr(error, "data", None) or {}
        headers = {k: v for k, v in error.get_headers() if k.lower() != "content-type"}
        headers.update(data.get("headers") or {})
        extra, detail = {}, error.description
        if "messages" in data:  # field errors: the first few (api.field_errors)
            errors, omitted, detail = field_errors.bounded(data["messages"])
            extra = {"errors": errors, **({"errors_omitted": omitted} if omitted else {})}
        if error.code == 413:
            limit = request.max_content_length
            detail = f"The request body is larger than the limit of {limit} bytes."
        if error.code >= 500:
            detail = "The server could not complete the request."
        return problem(error.code, _slug(error.code, bool(extra)), detail, headers, **extra)

    def _register_pagination_header(self):
        """No pagination header component: the game list pages with its own cursor."""


def problem_ref(status: int) -> str:
    """Name of the documented problem+json response component for ``status``."""
    return f"Problem{int(status)}"


def _described(status: http.HTTPStatus) -> str:
    """A problem response's description: the status and the problem types it may carry."""
    return f"{status.phrase}{listing(status)}"


def problem(status: int, slug: str, detail: str, headers: dict | None = None, **extra) -> Response:
    """Build a problem+json response; ``extra`` members are added to the body, and a ``rule``
    among them brings its ``rule_url`` (its entry on the rules page). ``slug`` must be one of
    api.problems.PROBLEM_TYPES (KeyError otherwise)."""
    if extra.get("rule") is not None:
        extra["rule_url"] = rule_url(extra["rule"])
    body = {"type": type_uri(slug), "title": title(slug), "status": status,
            "detail": detail, **extra}
    return Response(json.dumps(body), status, headers=headers, mimetype=PROBLEM_JSON)


def _slug(status: int, validation: bool) -> str:
    if validation and status == 422:
        return "validation-error"
    return slug_for_status(status)


def register_error_handlers(app: Flask) -> None:
    """Install one problem+json handler per exception family on ``app``."""

    @app.errorhandler(MalformedAction)
    def _malformed(e):
        return problem(422, "malformed-action", e.message, rule=e.rule)

    @app.errorhandler(RuleViolation)
    def _rule(e):
        return problem(422, "rule-violation", e.message, rule=e.rule)

    @app.errorhandler(UnsupportedProfile)
    def _profile(e):
        return problem(422, "unsupported-profile", e.message, rule=e.rule, option=e.option)

    @app.errorhandler(ValueError)
    def _invalid(e):
        return problem(422, "invalid-request", str(e) or "The request cannot be carried out.")

    @app.errorhandler(ConcurrencyError)
    def _conflict(e):
        return problem(409, "version-conflict", f"The game is at version {e.actual}, "
                       f"not {e.expected}; reload the view and retry.", current_version=e.actual)

    @app.errorhandler(IdempotencyKeyReused)
    def _key_reused(e):
        return problem(422, "idempotency-key-reused",
                       "This Idempotency-Key was already used with a different request.")

    @app.errorhandler(IdempotencyInProgress)
    def _key_in_progress(e):
        return problem(409, "idempotency-key-in-progress",
                       "A request with this Idempotency-Key is still being carried out; send "
                       "the same request again shortly to get its answer.",
                       {"Retry-After": str(e.retry_after_s)})

    @app.errorhandler(Unauthorized)
    def _unauthorized(e):
        headers = {"WWW-Authenticate": 'Bearer realm="contract-rummy"'}
        return problem(401, "unauthorized", str(e) or "A valid bearer token is required.", headers)

    @app.errorhandler(Forbidden)
    def _forbidden(e):
        return problem(403, "forbidden", str(e) or "This token may not do that.")

    @app.errorhandler(GameNotFound)
    def _not_found(e):
        if current_app.extensions["rummy"].archived(e.game_id):
            return problem(410, "game-archived", f"Game {e.game_id!r} was archived by the "
                           "retention policy and is no longer served; the server's operator "
                           "can import its record again.")
        return problem(404, "game-not-found", str(e) or "No such game.")

    @app.errorhandler(StoreUnavailable)
    def _unavailable(e):
        log.warning("503: the event store is not reachable: %s", e)  # never the caller's data
        return problem(503, "unavailable", "The event store is not reachable; retry later.")

    @app.errorhandler(ApiProblem)
    def _api_problem(e):
        return problem(e.status, e.slug, e.detail, e.headers)

    @app.errorhandler(Exception)
    def _unexpected(e):
        log.exception("unhandled %s", type(e).__name__)
        return problem(500, "internal-server-error", "The server could not complete the request.")
