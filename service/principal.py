"""Who is calling a game: a seat, the game's admin, the server admin, or the public (DESIGN
§2.3: seat identity comes from the token, never from the request body; docs/threat-model.md)."""
from __future__ import annotations

from dataclasses import dataclass

from service.errors import Unauthorized
from service.records import GameRecord
from service.tokens import is_admin_key, matches


@dataclass(frozen=True)
class Principal:
    """`seat`: the seat the caller acts for (None: no seat); `admin`: the game's admin token or
    the server admin key (manages the game); `server`: the server admin key, which alone sees
    the hidden cards of a live game (issue 7 item 8). `Principal()` is the public. Trusted
    code (workers) may build `Principal(seat=s)` for a bot seat, which has no token."""

    seat: int | None = None
    admin: bool = False
    server: bool = False


def authenticate(record: GameRecord, bearer: str | None, admin_key: str | None,
                 given_key: str | None = None) -> Principal:
    """The principal of `bearer` (and of `given_key`, an X-Admin-Key header) for the game of
    `record`.

    No bearer -> the server admin when `given_key` is the server admin key (`admin_key`,
    RUMMY_ADMIN_KEY), else the public. The server admin key as bearer -> the server admin. A
    seat token of this game -> that seat. The game's admin token -> the game's admin. Raises
    Unauthorized for any other token (another game's included)."""
    if bearer is None:
        return Principal(admin=True, server=True) if is_admin_key(given_key, admin_key) else Principal()
    if is_admin_key(bearer, admin_key):
        return Principal(admin=True, server=True)
    if matches(bearer, record.admin_hash):
        return Principal(admin=True)
    for seat, digest in record.seat_hashes.items():
        if matches(bearer, digest):
            return Principal(seat=seat)
    raise Unauthorized("The token is not valid for this game.")
