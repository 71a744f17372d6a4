"""Routes of /v1/players: a player's games (docs/players.md "Inbox")."""
from flask import url_for

from api.auth import ADMIN_KEY, admin_key, bearer_token, service
from api.caching import PRIVATE_HEADERS
from api.player_auth import INTEGRATION_KEY, PLAYER_JWT, acting_player
from api.resources import Blueprint
from api.resources.players import schemas as s
from service.errors import Forbidden, Unauthorized
from service.player_index import inbox
from service.players import player_id as valid_player_id
from service.tokens import is_admin_key

blp = Blueprint("players", __name__, url_prefix="/v1/players",
                description="Players: the games of a player (the integrator's inbox)")
LINK = {"Link": {"schema": {"type": "string"}, "description": 'rel="next" page'}}


@blp.route("/<player_id>/games", methods=["GET"])
@blp.operation("list_player_games")
@blp.arguments(s.InboxArgsSchema, location="query")
@blp.response(200, s.InboxSchema, headers={**LINK, **PRIVATE_HEADERS})
@blp.problems(401, 403, 503)
@blp.doc(security=[INTEGRATION_KEY, PLAYER_JWT, ADMIN_KEY])
def player_games(args, player_id):
    """A player's games, newest first: which seat, the status, whether it must act now and by when

    With the integration key (any player), a JWT whose `sub` is this player, or the server
    admin key. `?status=playing&awaiting=me`: the live games waiting on this player. No card
    is ever shown here.
    """
    _authorize(player_id)
    page = inbox(service(), player_id, status=args.get("status"),
                 awaiting_me=args.get("awaiting") == "me", limit=args["limit"],
                 cursor=args.get("cursor"))
    headers = {}
    if page["next_cursor"]:
        nxt = url_for("players.player_games", player_id=player_id, limit=args["limit"],
                      cursor=page["next_cursor"], status=args.get("status"),
                      awaiting=args.get("awaiting"))
        headers["Link"] = f'<{nxt}>; rel="next"'
    return page, 200, headers


def _authorize(player: str) -> None:
    """The caller may read `player`'s inbox. Raises ValueError (422, not a player id),
    Unauthorized (no credential for it), Forbidden (a JWT of another player)."""
    valid_player_id(player)
    acting = acting_player(bearer_token())
    if acting is not None and (acting.integrator or acting.player == player):
        return
    if acting is not None:
        raise Forbidden("A player's JWT reads only that player's games.")
    if is_admin_key(admin_key() or bearer_token(), service().admin_key):
        return
    raise Unauthorized("A player's games need the integration key, a JWT of that player or "
                       "the server admin key.")
