"""Route of POST /v1/games/{game_id}/actions: parse, call the GameService, return."""
from api import metrics
from api.caching import PRIVATE_HEADERS
from api.links import game_links, links
from api.auth import SEAT, principal, service
from api.preconditions import ETAG_HEADER, IF_MATCH, etag, if_match_version
from api.resources import Blueprint
from api.operations import idempotency_key
from api.resources.actions.schemas import ActionResultSchema, ActionSchema

blp = Blueprint("actions", __name__, url_prefix="/v1/games", description="Playing a seat")

@blp.route("/<game_id>/actions", methods=["POST"])
@blp.operation("post_action", idempotent=True, parameters=(IF_MATCH,))
@blp.doc(security=SEAT)
@blp.arguments(ActionSchema, example={"type": "draw", "from": "stock"})
@blp.response(200, ActionResultSchema, headers={**ETAG_HEADER, **PRIVATE_HEADERS})
@blp.problems(400, 401, 403, 404, 409, 413, 503)
@blp.doc(**links(200, **game_links("$request.path.game_id", "$response.body#/version")))
def act(action, game_id):
    """Play one action for the caller's seat (FORMAT.md vocabulary)"""
    version, view = service().act(game_id, principal(game_id), action,
                                  idempotency_key=idempotency_key(), if_match=if_match_version(),
                                  appended=metrics.ACTIONS.labels(action["type"]).inc)
    return {"version": version, "view": {**view, "version": version}}, 200, {"ETag": etag(version)}
