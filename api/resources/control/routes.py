"""Routes of seat control (docs/clock.md): POST .../seats/{seat}/reclaim, .../resign and
.../abort. Each honours Idempotency-Key like an action (a retry returns the first answer and
appends nothing)."""
import marshmallow as ma
from marshmallow import fields

from api.auth import ADMIN_KEY, BEARER, SEAT, admin_key, principal, service
from api.caching import PRIVATE_HEADERS
from api.preconditions import ETAG_HEADER, etag
from api.resources import Blueprint
from api.operations import idempotency_key
from api.resources.actions.schemas import ActionResultSchema
from service.errors import Forbidden
from service.principal import Principal
from service.tokens import is_admin_key

blp = Blueprint("control", __name__, url_prefix="/v1/games",
                description="Seat control: reclaim, resign, abort")
PRIVATE_ETAG = {**ETAG_HEADER, **PRIVATE_HEADERS}


class AbortResultSchema(ma.Schema):
    """The game's version after the abort and its public table (status `aborted`)."""

    version = fields.Integer(required=True)
    table = fields.Nested("TableSchema", required=True)


@blp.route("/<game_id>/seats/<int:seat>/reclaim", methods=["POST"])
@blp.operation("reclaim_seat", idempotent=True)
@blp.doc(security=SEAT)
@blp.response(200, ActionResultSchema, headers=PRIVATE_ETAG)
@blp.problems(401, 403, 404, 409, 422, 503)
def reclaim(game_id, seat):
    """Take the seat back from the bot that took it over after timeouts

    With the seat's token: `SeatReclaimed`; the seat is awaited from its human again. 422
    (rule T3) when the seat is not taken over or was resigned (final).
    """
    caller = principal(game_id)
    if caller.seat is not None and caller.seat != seat:
        raise Forbidden(f"This token is the token of seat {caller.seat}, not of seat {seat}.")
    return _result(service().control(game_id, caller, "reclaim", idempotency_key()))


@blp.route("/<game_id>/resign", methods=["POST"])
@blp.operation("resign_seat", idempotent=True)
@blp.doc(security=SEAT)
@blp.response(200, ActionResultSchema, headers=PRIVATE_ETAG)
@blp.problems(401, 403, 404, 409, 422, 503)
def resign(game_id):
    """Leave the game: a bot plays the caller's seat to the end (final)

    With a seat token: `SeatTakenOver` with reason `resigned`; the seat cannot be reclaimed.
    422 (rule T4) when resigned already, R9.4 when the game is over, T1 when aborted.
    """
    caller = principal(game_id)
    return _result(service().control(game_id, caller, "resign", idempotency_key()))


@blp.route("/<game_id>/abort", methods=["POST"])
@blp.operation("abort_game", idempotent=True)
@blp.doc(security=[BEARER, ADMIN_KEY])
@blp.response(200, AbortResultSchema, headers=PRIVATE_ETAG)
@blp.problems(401, 403, 404, 409, 422, 503)
def abort(game_id):
    """Stop the game for good (the game's admin token or the server admin key)

    `GameAborted`: status `aborted`; every later action is refused (422, rule T1) and the
    workers stop. 422: T1 when aborted already, R9.4 when the game is over, L1 when it is a
    lobby that expired.
    """
    caller = principal(game_id)
    if is_admin_key(admin_key(), service().admin_key):
        caller = Principal(admin=True)
    version, table = service().abort(game_id, caller, idempotency_key())
    return {"version": version, "table": {**table, "version": version}}, 200, {"ETag": etag(version)}


def _result(outcome):
    version, view = outcome
    return {"version": version, "view": {**view, "version": version}}, 200, {"ETag": etag(version)}
