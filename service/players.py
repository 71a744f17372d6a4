"""Players: the integrator's opaque `player_id` on seats, and which seat a player acts for
(docs/players.md, issue 8 "Players, inbox, webhooks").

A seat may carry a `player_id` given at creation by the integrator (the integration key or the
server admin key; a JWT caller only its own `sub`). It names the player to the integration key
and to JWTs: either acts for that player's seats. It is never shown to the public (the public
seats and an export leave it out)."""
from __future__ import annotations

import re

from service.errors import Forbidden

MAX_PLAYER_ID = 128
# Letters, digits and . _ ~ @ : - : safe in a URL path segment, a header and a Redis hash tag
# (no braces), and no whitespace or control character to spoof a log line.
PLAYER_ID_PATTERN = rf"^[A-Za-z0-9._~@:-]{{1,{MAX_PLAYER_ID}}}$"
PLAYER_ID_RULE = (f"1 to {MAX_PLAYER_ID} characters among letters, digits and . _ ~ @ : -")
_PLAYER_ID = re.compile(PLAYER_ID_PATTERN)


def player_id(value: object) -> str:
    """`value` when it is a valid player id (PLAYER_ID_RULE), else ValueError."""
    if not isinstance(value, str) or not _PLAYER_ID.fullmatch(value):
        raise ValueError(f"a player_id is {PLAYER_ID_RULE}")
    return value


def with_player(spec: dict, entry: dict) -> dict:
    """The seat `spec` (service.seating) with the `player_id` of the request's `entry`, when it
    has one. Raises ValueError for an invalid id or one on a seat that is not a human's."""
    given = entry.get("player_id")
    if given is None:
        return spec
    try:
        given = player_id(given)
    except ValueError as error:
        raise ValueError(f"seat {spec['seat']}: {error}") from None
    if spec["kind"] != "human":
        raise ValueError(f"seat {spec['seat']}: only a human seat has a player_id (a bot or "
                         "an open seat has none)")
    return {**spec, "player_id": given}


def check_assignment(seats: object, integrator: bool, acting_player: str | None) -> None:
    """Whether the caller may put the `player_id`s of `seats` (the creation's seat list):
    the integrator (`integrator`: the integration key or the server admin key) any, a JWT
    caller (`acting_player`, its `sub`) only its own. Raises Forbidden otherwise, so that
    nobody fills another player's inbox or receives webhooks about them."""
    if integrator or not isinstance(seats, list):
        return
    for number, entry in enumerate(seats):
        given = entry.get("player_id") if isinstance(entry, dict) else None
        if given is not None and given != acting_player:
            raise Forbidden(f"Seat {number}: a player_id needs the integration key, the server "
                            "admin key, or a JWT of that player.")


def player_seat(seats_players: dict[int, str], player: str, named: int | None = None) -> int:
    """The seat `player` acts for in a game whose seats have the players `seats_players` (seat
    -> player id, service.seat_players.JoinedPlayers.of): its only seat, or the seat `named`
    (the X-Seat header) among its seats. Raises Forbidden when the player has no seat there
    (or not the one named), ValueError when it holds several and none is named."""
    seats = sorted(seat for seat, held in seats_players.items() if held == player)
    if named is not None:
        if named not in seats:
            raise Forbidden(f"Seat {named} is not a seat of this player in this game.")
        return named
    if not seats:
        raise Forbidden("This player has no seat in this game.")
    if len(seats) > 1:
        listed = ", ".join(map(str, seats))
        raise ValueError(f"This player holds seats {listed} of this game: name the one to act "
                         "for with the X-Seat header.")
    return seats[0]
