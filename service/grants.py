"""Credentials granted after a game's creation (docs/lobby.md): the seat tokens of people who
joined by code or were handed a rematch seat, and spectator tokens. Kept apart from the game's
record (service.records), which never changes and may be cached by every process: these are
read from Redis on every check that needs them, so a token granted or revoked by one process
holds at once in all (issue 8 "Game records stop being immutable").

Redis: the hash `rummy:{<game>}:grants`, fields `seat:<n>` -> SHA-256 of that seat's current
token (a new grant replaces, so revokes, the previous one) and `spectator:<sha256>` -> "1".
"""
from __future__ import annotations

import hmac
from dataclasses import dataclass, field

import redis

from service.keys import PREFIX
from service.redis_store import backend_errors
from service.sealed_answers import keep, kept, spectator_slot
from service.tokens import token_hash

SEAT, SPECTATOR = "seat:", "spectator:"


def grants_key(game_id: str) -> str:
    """The game's hash of granted credentials."""
    return f"{PREFIX}:{{{game_id}}}:grants"


@dataclass(frozen=True)
class Grants:
    """What a game granted: `seats` seat -> token hash, `spectators` the spectator token
    hashes."""

    seats: dict[int, str] = field(default_factory=dict)
    spectators: frozenset[str] = frozenset()

    def seat_of(self, token: str) -> int | None:
        """The seat whose current token is `token`, or None (constant time per seat)."""
        digest = token_hash(token)
        for seat, stored in self.seats.items():
            if hmac.compare_digest(digest, stored):
                return seat
        return None

    def spectates(self, token: str) -> bool:
        """Whether `token` is a spectator token of the game (a set lookup of its hash: the
        hash of a 256-bit random token tells nothing that could be timed)."""
        return token_hash(token) in self.spectators


class GrantStore:
    """The granted credentials of games, in Redis, never cached."""

    def __init__(self, client: redis.Redis) -> None:
        self._client = client

    def get(self, game_id: str) -> Grants:
        """The game's grants now (one HGETALL). Raises StoreUnavailable."""
        with backend_errors():
            raw = self._client.hgetall(grants_key(game_id))
        seats, spectators = {}, set()
        for name, value in ((k.decode(), v.decode()) for k, v in raw.items()):
            if name.startswith(SEAT):
                seats[int(name[len(SEAT):])] = value
            elif name.startswith(SPECTATOR):
                spectators.add(name[len(SPECTATOR):])
        return Grants(seats, frozenset(spectators))

    def grant_seat(self, game_id: str, seat: int, token: str) -> None:
        """Make `token` the token of `seat`, revoking the seat's previous granted token."""
        with backend_errors():
            self._client.hset(grants_key(game_id), f"{SEAT}{seat}", token_hash(token))

    def grant_spectator(self, game_id: str, token: str,
                        idempotency_key: str | None = None) -> str:
        """Add the spectator token `token` and return it; with `idempotency_key`, the token
        the first request with that key added instead (remembered IDEMPOTENCY_TTL_S)."""
        if idempotency_key is not None:  # sealed: a Redis dump shows no token
            slot = spectator_slot(game_id)
            if not keep(self._client, slot, idempotency_key, {"token": token}, only_new=True):
                first = kept(self._client, slot, idempotency_key)
                if first is not None:  # (None: it lapsed this instant; this token answers)
                    return first["token"]
        with backend_errors():
            self._client.hset(grants_key(game_id), f"{SPECTATOR}{token_hash(token)}", "1")
        return token
