"""Route of POST /v1/games/{game_id}/actions: the caller, then the body, then the GameService.

The caller is checked before the body is validated (`_caller_first`): a request that no
credential of the game may send is a 401 (404 for no such game), never a 422 about a body it
could not have played, and costs a token check, not a validation."""
from flask import g, request

from api import metrics
from api.caching import PRIVATE_HEADERS
from api.links import game_links, links
from api.auth import SEAT, principal, service
from api.preconditions import ETAG_HEADER, IF_MATCH, etag, if_match_version
from api.resources import Blueprint
from api.operations import idempotency_key
from api.ratelimits import spend_on_refusal
from api.resources.actions.schemas import ActionResultSchema, ActionSchema
from service.errors import ServiceError

blp = Blueprint("actions", __name__, url_prefix="/v1/games", description="Playing a seat")


@blp.before_request
def _caller_first() -> None:
    """The caller of a POST (`g.actor`, api.auth.principal), before the view validates the body.
    A refusal spends the caller's general rate budget first (api.ratelimits.spend_on_refusal):
    the view, whose limits count a request, never runs for it."""
    if request.method != "POST":
        return
    try:
        g.actor = principal(request.view_args["game_id"])
        service().seat_of(g.actor)  # 401 without a token, 403 with one that has no seat
    except ServiceError:  # Unauthorized (401), Forbidden (403), GameNotFound (404)
        spend_on_refusal()  # RateLimitExceeded (429) once the budget is spent
        raise


@blp.route("/<game_id>/actions", methods=["POST"])
@blp.operation("post_action", idempotent=True, parameters=(IF_MATCH,))
@blp.doc(security=SEAT)
@blp.arguments(ActionSchema, example={"type": "draw", "from": "stock"})
@blp.response(200, ActionResultSchema, headers={**ETAG_HEADER, **PRIVATE_HEADERS})
@blp.problems(400, 401, 403, 404, 409, 413, 503)
@blp.doc(**links(200, **game_links("$request.path.game_id", "$response.body#/version")))
def act(action, game_id):
    """Play one action for the caller's seat (the vocabulary of /docs/format)"""
    version, view = service().act(game_id, g.actor, action,
                                  idempotency_key=idempotency_key(), if_match=if_match_version(),
                                  appended=metrics.ACTIONS.labels(action["type"]).inc)
    return {"version": version, "view": {**view, "version": version}}, 200, {"ETag": etag(version)}
