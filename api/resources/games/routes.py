"""Routes of /v1/games: parse, call the GameService, return."""
from flask import url_for
from werkzeug.routing import BaseConverter

from api.caching import PRIVATE_HEADERS
from api.links import GAME, game_links, link, links
from api.auth import ADMIN_KEY, BEARER, SEAT, admin_key, principal, server_admin_key, service
from api.player_auth import INTEGRATION_KEY, PLAYER_ID_HEADER, PLAYER_JWT
from api.operations import idempotency_key
from api.resources.players.creation import check_creator, creator_scope
from api.preconditions import ETAG_HEADER, IF_NONE_MATCH, view_or_not_modified
from api.resources import Blueprint
from api.resources.games import schemas as s
from api.resources.games import tables as t
from service.clock import parse_rfc3339
from service.tokens import is_admin_key

LOCATION = {"Location": {"description": "The game's URL", "schema": {"type": "string"}},
            **PRIVATE_HEADERS}
PRIVATE_ETAG = {**ETAG_HEADER, **PRIVATE_HEADERS}
# How long an import holds its Idempotency-Key before its answer: a 4 MiB record replays in
# about 6 s (1.5 s a MiB), far longer on a loaded host; a retry meanwhile waits or gets 409.
IMPORT_CLAIM_MS = 120_000
blp = Blueprint("games", __name__, url_prefix="/v1/games", description="Games and their views")


class GameIdConverter(BaseConverter):
    """A game id in a path: any segment but ``import`` and ``join``, so that
    ``/v1/games/import`` and ``/v1/games/join`` are only the import and the lobby's join (a GET
    or OPTIONS there answers 405 / ``Allow: POST``, never "No game 'import'")."""

    regex = r"(?!(?:import|join)$)[^/]+"


# Registered before the routes below are added to the app (deferred in this order).
blp.record_once(lambda state: state.app.url_map.converters.setdefault("game_id",
                                                                      GameIdConverter))


@blp.route("", methods=["POST"])
@blp.operation("create_game", sealed=True, parameters=(PLAYER_ID_HEADER,))
@blp.arguments(s.CreateGameSchema)
@blp.response(201, s.CreatedGameSchema, headers=LOCATION)
@blp.problems(400, 401, 403, 409, 413, 503)
@blp.doc(security=[{}, ADMIN_KEY, INTEGRATION_KEY, PLAYER_JWT])
@blp.doc(**links(201, **game_links("$response.body#/id", "$response.body#/version")))
def create_game(body):
    """Create a game

    With seats of kind `open` the game waits (status `waiting`, no card dealt) for people to
    join with its `join_code` (POST /v1/games/join) until the host starts it (POST
    /v1/games/{game_id}/start), or its last open seat is taken with `auto_start`; unstarted
    after `expires_at` it expires (docs/lobby.md).

    With `X-Admin-Key` (the server admin key) a game may start from a `position`, its `seed`
    is reproducible across games, and it may set a `webhook_url`; any other key is refused
    (403), not ignored.

    With `Idempotency-Key` a retry with the same body gets the first answer (the same game,
    the same tokens) and creates no second game; the answer is kept sealed with the key for
    24 h, per caller (anonymous, server admin key, integration key and player, player JWT).
    """
    key = server_admin_key()  # X-Admin-Key or the bearer; api.admin_keys refused another
    check_creator(body)

    def create() -> dict:
        return service().lobby.create(body["seats"], profile=body["profile"],
                                      seed=body.get("seed"), position=body.get("position"),
                                      admin_key=key, clock=body.get("clock"),
                                      visibility=body["visibility"],
                                      auto_start=body["auto_start"],
                                      webhook_url=body.get("webhook_url"))
    created = service().creations.create(creator_scope(), idempotency_key(), body, create)
    return _created(created)


@blp.route("", methods=["GET"])
@blp.operation("list_games")
@blp.arguments(s.GameListArgsSchema, location="query")
@blp.response(200, s.GameListSchema, headers={"Link": {"schema": {"type": "string"},
                                                       "description": 'rel="next" page'}})
@blp.problems(503)
@blp.doc(**links(200, GetTable=link(GAME, "get", "The first game of the page's table",
                                    {"path.game_id": "$response.body#/items/0/id"}),
                 NextPage=link("/v1/games", "get", "The next page",
                               {"query.cursor": "$response.body#/next_cursor"})))
def list_games(args):
    """List games, newest first

    By creation time (ms), then by id (descending) among games of the same millisecond: a
    fixed order, so following ``next_cursor`` never skips nor repeats a game.
    """
    page = service().list_games(status=args.get("status"), limit=args["limit"],
                                cursor=args.get("cursor"))
    headers = {}
    if page["next_cursor"]:
        nxt = url_for("games.list_games", limit=args["limit"], cursor=page["next_cursor"],
                      status=args.get("status"))
        headers["Link"] = f'<{nxt}>; rel="next"'
    return page, 200, headers


@blp.route("/<game_id:game_id>", methods=["GET"])
@blp.operation("get_table", parameters=(IF_NONE_MATCH,))
@blp.response(200, t.TableSchema, headers=ETAG_HEADER)
@blp.alt_response(304, description="Not modified", headers=ETAG_HEADER)
@blp.problems(404, 503)
@blp.doc(**links(200, **game_links("$request.path.game_id", "$response.body#/version")))
def get_game(game_id):
    """The public table: no hidden card"""
    version, view = service().public_view(game_id)
    return view_or_not_modified(version, view)


@blp.route("/<game_id>/view", methods=["GET"])
@blp.operation("get_seat_view", parameters=(IF_NONE_MATCH,))
@blp.doc(security=SEAT)
@blp.response(200, t.SeatViewSchema, headers=PRIVATE_ETAG)
@blp.alt_response(304, description="Not modified", headers=PRIVATE_ETAG)
@blp.problems(401, 403, 404, 422, 503)
@blp.doc(**links(200, Act=link(
    f"{GAME}/actions", "post", "Play the first legal action, expecting this version",
    {"path.game_id": "$request.path.game_id", "header.If-Match": "$response.header.ETag"},
    body="$response.body#/legal_actions/0")))
def get_view(game_id):
    """The caller's seat view with its legal actions"""
    version, view = service().seat_view(game_id, principal(game_id))
    return view_or_not_modified(version, view)


@blp.route("/<game_id>/replay", methods=["GET"])
@blp.operation("get_replay")
@blp.arguments(t.ReplayArgsSchema, location="query")
@blp.response(200, t.ReplaySchema, headers=PRIVATE_HEADERS)
@blp.problems(401, 404, 503)
@blp.doc(security=[{}, *SEAT, ADMIN_KEY])
def replay(args, game_id):
    """The table after event N, or at a time: full when finished or for the server admin key, else the caller's view

    `?version=N`, or `?at=<RFC 3339>`: the last version recorded at or before that time. A
    live game's admin token gets the public table (docs/threat-model.md).
    """
    at = args.get("at")
    return service().replay(game_id, principal(game_id), args.get("version"),
                            None if at is None else parse_rfc3339(at))


@blp.route("/<game_id>/export", methods=["GET"])
@blp.operation("export_game")
@blp.response(200, s.GameRecordSchema, headers=PRIVATE_HEADERS)
@blp.problems(401, 403, 404, 503)
@blp.doc(security=[BEARER, ADMIN_KEY])
def export_game(game_id):
    """The full record of a finished game (of any game with the server admin key)"""
    return service().export(game_id, principal(game_id))


@blp.route("/import", methods=["POST"])
@blp.operation("import_game", sealed=True)
@blp.arguments(s.GameRecordSchema)
@blp.response(201, s.CreatedGameSchema, headers=LOCATION)
@blp.problems(400, 403, 409, 413, 503)
@blp.doc(security=[ADMIN_KEY])
@blp.doc(**links(201, **game_links("$response.body#/id", "$response.body#/version")))
def import_game(record):
    """Re-create a game from an exported record (server admin key)

    The record is checked before anything is written: events of this server's types and
    schemas that follow one from another (the fold), nothing played after the game's end
    (R9.4), the cards of the deck each in one place after every event (R1.2, R1.4), every
    round that ended scored next as the rules score it, the next round dealt only then, and
    the game ended only by the scoring of its last round (R2.2, R9.1-R9.4). A record that
    fails a check is a 422 naming its first failing event; nothing is created.

    With `Idempotency-Key` a retry with the same record gets the first answer (the same game,
    the same tokens) and imports no second game, as for `create_game`.
    """
    key = admin_key()

    def imported() -> dict:
        return service().import_game(record, key)
    if not is_admin_key(key, service().admin_key):
        return _created(imported())  # refused (403) before the key's answer is looked up
    return _created(service().creations.create("admin:import", idempotency_key(), record,
                                               imported, claim_ms=IMPORT_CLAIM_MS))


def _created(created: dict):
    """The 201 of a created or imported game, with its Location."""
    return created, 201, {"Location": url_for("games.get_game", game_id=created["id"])}
