"""Who is calling a game: a seat, the game's admin, the server admin, or the public (DESIGN
§2.3: seat identity comes from the token, never from the request body; docs/threat-model.md)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from service.errors import Unauthorized
from service.grants import Grants
from service.records import GameRecord
from service.tokens import is_admin_key, matches


@dataclass(frozen=True)
class Principal:
    """`seat`: the seat the caller acts for (None: no seat); `admin`: the game's admin token or
    the server admin key (manages the game); `server`: the server admin key, which alone sees
    the hidden cards of a live game (issue 7 item 8); `spectator`: a spectator token, which
    sees what the public sees, of a private game too (docs/lobby.md). `Principal()` is the
    public. Trusted code (workers) may build `Principal(seat=s)` for a bot seat, which has no
    token."""

    seat: int | None = None
    admin: bool = False
    server: bool = False
    spectator: bool = False

    @property
    def holds_token(self) -> bool:
        """Whether the caller showed a credential of the game (any but the public's): what a
        private game asks before it admits to existing."""
        return self.seat is not None or self.admin or self.spectator


def authenticate(record: GameRecord, bearer: str | None, admin_key: str | None,
                 given_key: str | None = None,
                 grants: Callable[[], Grants] = Grants) -> Principal:
    """The principal of `bearer` (and of `given_key`, an X-Admin-Key header) for the game of
    `record`.

    No bearer -> the server admin when `given_key` is the server admin key (`admin_key`,
    RUMMY_ADMIN_KEY), else the public. The server admin key as bearer -> the server admin. A
    seat token of this game -> that seat. The game's admin token -> the game's admin. A token
    granted later (`grants()`, read only when the record's own tokens do not match:
    service.grants) -> its seat, or a spectator. Raises Unauthorized for any other token
    (another game's included)."""
    if bearer is None:
        return Principal(admin=True, server=True) if is_admin_key(given_key, admin_key) else Principal()
    if is_admin_key(bearer, admin_key):
        return Principal(admin=True, server=True)
    if matches(bearer, record.admin_hash):
        return Principal(admin=True)
    for seat, digest in record.seat_hashes.items():
        if matches(bearer, digest):
            return Principal(seat=seat)
    return granted(grants(), bearer)


def granted(grants: Grants, bearer: str) -> Principal:
    """The principal of a token granted after the game's creation (a joined or rematch seat, a
    spectator: service.grants). Raises Unauthorized for a token it does not hold."""
    seat = grants.seat_of(bearer)
    if seat is not None:
        return Principal(seat=seat)
    if grants.spectates(bearer):
        return Principal(spectator=True)
    raise Unauthorized("The token is not valid for this game.")
