"""Callers acting for a player (docs/players.md): the integration key with `X-Player-Id`, or
a bearer JWT of the integrator's identity provider whose `sub` is the player. Either acts for
that player's seats (the seat named by `X-Seat` when the player holds several in one game) and
reads that player's inbox. Keys are compared in constant time and never logged."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass

from flask import current_app, g, request

from service.errors import ServiceError, Unauthorized
from service.jwt_identity import looks_like_jwt
from service.players import player_id, player_seat
from service.principal import Principal
from service.store import StoreError
from service.tokens import is_admin_key

INTEGRATION_KEY = {"integrationKey": []}
PLAYER_JWT = {"playerJwt": []}
SECURITY_SCHEMES = {
    "integrationKey": {
        "type": "apiKey", "in": "header", "name": "X-Integration-Key",
        "description": "The server-level integration key (RUMMY_INTEGRATION_KEY): acts for the "
                       "player named by the X-Player-Id header (that player's seat of the game; "
                       "X-Seat names it when the player holds several) and reads any player's "
                       "inbox (docs/players.md).",
    },
    "playerJwt": {
        "type": "http", "scheme": "bearer", "bearerFormat": "JWT",
        "description": "A JWT of the integrator's identity provider (RUMMY_JWT_PUBLIC_KEY, "
                       "RUMMY_JWT_ISSUER, RUMMY_JWT_AUDIENCE): its `sub` is a player_id; acts "
                       "for that player's seats and reads that player's inbox.",
    },
}


@dataclass(frozen=True)
class ActingPlayer:
    """The player a request acts for (`player`: None for the integration key without
    X-Player-Id) and whether it came with the integration key (`integrator`: any player)
    rather than a JWT (its own `sub` only)."""

    player: str | None
    integrator: bool


# The headers of a call acting for a player, as OpenAPI header parameters: generated clients
# send only what the document declares.
PLAYER_ID_HEADER = {
    "name": "X-Player-Id", "in": "header", "required": False, "schema": {"type": "string"},
    "description": "With X-Integration-Key: the player the call acts for (docs/players.md)"}
SEAT_HEADER = {
    "name": "X-Seat", "in": "header", "required": False,
    "schema": {"type": "integer", "minimum": 0, "maximum": 7},
    "description": "With the integration key or a player JWT: which of the player's seats of "
                   "the game the call acts for, when the player holds several (422 without it "
                   "then)"}


def player_parameters(security: list[dict]) -> list[dict]:
    """The player headers an operation of `security` (its OpenAPI security requirements)
    reads: both where a player's seat of the game may act (bearer seat tokens beside the
    integration key), none where no integration key is accepted."""
    schemes = {name for requirement in security for name in requirement}
    if "integrationKey" in schemes and "bearerAuth" in schemes:
        return [PLAYER_ID_HEADER, SEAT_HEADER]
    return []


def _service():
    return current_app.extensions["rummy"]


def acting_player(bearer: str | None) -> ActingPlayer | None:
    """The player of this request: an `X-Integration-Key` (with `X-Player-Id`, optional here),
    or, when JWTs are configured, a `bearer` JWT. None when neither is sent. Raises
    Unauthorized for a wrong integration key or an invalid JWT, ValueError (422) for an
    X-Player-Id that is not a player id. Computed once per request."""
    if "acting_player" not in g:
        g.acting_player = _acting_player(bearer)
    return g.acting_player


def _acting_player(bearer: str | None) -> ActingPlayer | None:
    svc = _service()
    given = request.headers.get("X-Integration-Key")
    if given is not None:
        if not is_admin_key(given, svc.integration.integration_key):
            raise Unauthorized("The integration key is not valid.")
        named = request.headers.get("X-Player-Id")
        if named is None:
            return ActingPlayer(None, True)
        try:
            return ActingPlayer(player_id(named), True)
        except ValueError as error:
            raise ValueError(f"X-Player-Id: {error}") from None
    if (bearer is not None and svc.identity is not None and looks_like_jwt(bearer)
            and not is_admin_key(bearer, svc.admin_key)):
        return ActingPlayer(svc.identity.player(bearer), False)
    return None


def named_seat() -> int | None:
    """The `X-Seat` header as a seat number, or None. Raises ValueError (422) otherwise."""
    raw = request.headers.get("X-Seat")
    if raw is None:
        return None
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 2 and raw == str(int(raw))):
        raise ValueError("X-Seat must be a seat number of the game (0 to its seats - 1, R1.1, "
                         "R11.1)")
    return int(raw)


def player_principal(game_id: str, bearer: str | None) -> Principal | None:
    """The seat principal of a request acting for a player in `game_id`
    (service.players.player_seat), or None when the request acts for no player. Raises
    Unauthorized (bad key or JWT, or the integration key without X-Player-Id), Forbidden
    (no seat of the player there), ValueError (several seats and no X-Seat), GameNotFound."""
    acting = acting_player(bearer)
    if acting is None:
        return None
    if acting.player is None:
        raise Unauthorized("The integration key acts for a player: name it in X-Player-Id.")
    svc = _service()
    return Principal(seat=player_seat(svc.joined.of(svc.record(game_id)), acting.player,
                                      named_seat()))


def acts_in_game(game_id: str, bearer: str | None) -> bool:
    """Whether the request acts for a player holding a seat of `game_id` (a private game is
    then visible to it: api.visibility). Never raises: a bad key or JWT, or a player without
    a seat there, is False; a player of several seats is True (the route asks for X-Seat)."""
    try:
        return player_principal(game_id, bearer) is not None
    except ValueError:
        return True
    except (ServiceError, StoreError):
        return False


def rate_credential(bearer: str | None) -> str | None:
    """The rate budget's owner of a request acting for a player: "player:<SHA-256 prefix of
    the id>", so a backend relaying many players from one address is counted per player;
    "integration" for the integration key naming no player (e.g. creating games): its own
    budget, not its client address's. None otherwise; never raises."""
    try:
        acting = acting_player(bearer)
    except (ValueError, ServiceError, StoreError):
        return None
    if acting is None:
        return None
    if acting.player is None:
        return "integration" if acting.integrator else None
    return "player:" + hashlib.sha256(acting.player.encode()).hexdigest()[:32]
