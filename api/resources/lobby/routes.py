"""Routes of the lobby (docs/lobby.md): POST /v1/games/join, .../{id}/start, .../{id}/rematch
(POST creates, GET takes a seat's new token) and .../{id}/spectators. Each POST honours
Idempotency-Key: a retry returns the first answer and appends nothing."""
from api.auth import ADMIN_KEY, BEARER, admin_key, bearer_token, principal, service
from api.player_auth import INTEGRATION_KEY, PLAYER_ID_HEADER, PLAYER_JWT, acting_player
from api.caching import PRIVATE_HEADERS
from api.errors import problem
from api.operations import idempotency_key
from api.preconditions import ETAG_HEADER, etag
from api.resources import Blueprint
from api.resources.lobby import schemas as s
from service.lobby import JoinCodeNotFound, LobbyClosed
from service.principal import Principal
from service.rematch import NoRematch
from service.tokens import is_admin_key
from service.visibility import add_spectator

blp = Blueprint("lobby", __name__, url_prefix="/v1/games",
                description="The lobby: join by code, start, rematch, spectators")


@blp.route("/join", methods=["POST"])
@blp.operation("join_game", sealed=True, parameters=(PLAYER_ID_HEADER,))
@blp.arguments(s.JoinSchema, example={"code": "7K3QX9M2ZD", "name": "Ann"})
@blp.response(201, s.JoinedSchema, headers=PRIVATE_HEADERS)
@blp.problems(400, 401, 404, 409, 413, 503)
@blp.doc(security=[{}, INTEGRATION_KEY, PLAYER_JWT])
def join(body):
    """Take the first open seat of a waiting game by its join code

    201 with the seat's token. 404 when no waiting game has the code (unknown or expired),
    409 `lobby-closed` when the game started (rule L1) or every seat is taken (L2). With the
    integration key and X-Player-Id, or a player JWT, the seat is that player's
    (docs/players.md): its inbox lists the game, and it acts for the seat.
    """
    acting = acting_player(bearer_token())  # before joining: a bad key or JWT takes no seat
    player = None if acting is None else acting.player  # docs/players.md
    return service().lobby.join(body["code"], body["name"], idempotency_key(), player), 201


@blp.route("/<game_id>/start", methods=["POST"])
@blp.operation("start_game", idempotent=True)
@blp.doc(security=[BEARER, ADMIN_KEY])
@blp.response(200, s.StartedSchema, headers={**ETAG_HEADER, **PRIVATE_HEADERS})
@blp.problems(401, 403, 404, 409, 503)
def start(game_id):
    """Start a waiting game (its admin token): open seats become bots, the first deal

    `GameStarted` then `RoundDealt`. 409 `lobby-closed`: rule L1 when it started already or
    expired, T1 when it was aborted.
    """
    version, table = service().lobby.start(game_id, _caller(game_id), idempotency_key())
    body = {"version": version, "table": {**table, "version": version}}
    return body, 200, {"ETag": etag(version)}


@blp.route("/<game_id>/rematch", methods=["POST"])
@blp.operation("create_rematch", idempotent=True)
@blp.doc(security=[BEARER, ADMIN_KEY])
@blp.response(201, s.RematchSchema, headers=PRIVATE_HEADERS)
@blp.problems(401, 403, 404, 422, 503)
def create_rematch(game_id):
    """Create the follow-up game of a finished game (any seat token or its admin)

    One follow-up per game: every call (with or without Idempotency-Key) answers the same
    game, with the same seats, profile, clock, visibility and admin token. 422 (R9.4) when
    the game is not finished.
    """
    return service().rematches.create(game_id, _caller(game_id)), 201


@blp.route("/<game_id>/rematch", methods=["GET"])
@blp.operation("get_rematch_seat")
@blp.doc(security=[BEARER])
@blp.response(200, s.RematchSeatSchema, headers=PRIVATE_HEADERS)
@blp.problems(401, 403, 404, 422, 503)
def rematch_seat(game_id):
    """The caller's seat in the follow-up game, with a new token

    With the finished game's seat token. Each call mints a new token and revokes the one
    before. 404 `no-rematch` before the follow-up was created; 422 (R9.4) when the game is
    not finished (an aborted game has no rematch).
    """
    return service().rematches.seat_token(game_id, principal(game_id))


@blp.route("/<game_id>/spectators", methods=["POST"])
@blp.operation("add_spectator", sealed=True)
@blp.doc(security=[BEARER, ADMIN_KEY])
@blp.response(201, s.SpectatorSchema, headers=PRIVATE_HEADERS)
@blp.problems(401, 403, 404, 422, 503)
def spectators(game_id):
    """Add a spectator token (the game's admin token or the server admin key)

    It sees the public view, events and stream of the game, live, a private game's too.
    """
    return add_spectator(service(), game_id, _caller(game_id), idempotency_key()), 201


def _caller(game_id: str) -> Principal:
    """The caller, the server admin key counting as the game's admin."""
    if is_admin_key(admin_key(), service().admin_key):
        return Principal(admin=True, server=True)
    return principal(game_id)


@blp.app_errorhandler(JoinCodeNotFound)
def _no_code(error):
    return problem(404, "join-code-not-found", str(error))


@blp.app_errorhandler(NoRematch)
def _no_rematch(error):
    return problem(404, "no-rematch", str(error))


@blp.app_errorhandler(LobbyClosed)
def _closed(error):
    return problem(409, "lobby-closed", str(error), rule=error.rule)
