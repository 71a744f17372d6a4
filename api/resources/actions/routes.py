"""Route of POST /v1/games/{game_id}/actions: parse, call the GameService, return."""
from flask import request

from api import metrics
from api.caching import PRIVATE_HEADERS
from api.auth import BEARER, principal, service
from api.errors import ApiProblem
from api.preconditions import ETAG_HEADER, IF_MATCH, etag, if_match_version
from api.resources import Blueprint
from api.resources.actions.schemas import ActionResultSchema, ActionSchema

blp = Blueprint("actions", __name__, url_prefix="/v1/games", description="Playing a seat")

IDEMPOTENCY_KEY = {
    "name": "Idempotency-Key", "in": "header", "required": False,
    "schema": {"type": "string", "minLength": 1, "maxLength": 200},
    "description": "Any unique string; a retry with the same key and body returns the first "
                   "response and appends nothing (422 when reused for another body)",
}


@blp.route("/<game_id>/actions", methods=["POST"])
@blp.doc(parameters=[IDEMPOTENCY_KEY, IF_MATCH], security=[BEARER])
@blp.arguments(ActionSchema, example={"type": "draw", "from": "stock"})
@blp.response(200, ActionResultSchema, headers={**ETAG_HEADER, **PRIVATE_HEADERS})
@blp.problems(400, 401, 403, 404, 409, 413)
def act(action, game_id):
    """Play one action for the caller's seat (FORMAT.md vocabulary)"""
    key = request.headers.get("Idempotency-Key") or None
    if key is not None and len(key) > 200:
        raise ApiProblem(400, "bad-request", "Idempotency-Key is longer than 200 characters.")
    version, view = service().act(game_id, principal(game_id), action,
                                  idempotency_key=key, if_match=if_match_version())
    metrics.ACTIONS.labels(action["type"]).inc()
    return {"version": version, "view": {**view, "version": version}}, 200, {"ETag": etag(version)}
