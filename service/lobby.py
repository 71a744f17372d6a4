"""The lobby (docs/lobby.md): games created with open seats wait for people, who join with the
game's code; the host starts the game (or the last join does, with auto_start); a lobby
nobody started in time expires, by the sweeper.

Every join, start and expiry is an event of the game's stream (domain.lobby), appended at an
expected version and re-decided on the newer state when another append wins: two people
joining at once get two different seats, never one seat each. A joiner's token is granted in
service.grants. Join codes: 10 Crockford base32 characters from `secrets` (50 bits), stored
only as the SHA-256 of their normal form, key `rummy:join:<sha256>` -> game id, living as long
as the lobby (`RUMMY_LOBBY_TTL_S`).
"""
from __future__ import annotations

import hashlib
import secrets
import time

import redis

from domain import decide
from domain.errors import RuleViolation
from domain.lobby import EXPIRE, JOIN, START, SeatJoined
from service.clock import rfc3339
from service.errors import Forbidden, GameNotFound, ServiceError, Unauthorized
from service.followups import needs
from service.decisions import decision_rng
from service.keys import PREFIX
from service.principal import Principal
from service.redis_store import backend_errors
from service.sealed_answers import join_slot, keep, key_name, kept
from service.seating import seat_name
from service.store import IdempotencyInProgress
from service.seat_players import record_join
from service.table_events import PlayerSeated
from service.tokens import new_token

CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's base32: no I, L, O, U
CODE_LENGTH = 10
# Crockford decoding: case-insensitive, I and L read as 1, O as 0, hyphens ignored.
_READ_AS = str.maketrans({"I": "1", "L": "1", "O": "0", "-": None})
DEFAULT_TTL_S = 3600.0
# How long a join retried with its Idempotency-Key waits for the first one's answer.
ANSWER_WAIT_S = 1.0
EXPIRE_BATCH = 100


class JoinCodeNotFound(ServiceError):
    """No waiting game has this join code (unknown, or its lobby expired): 404."""


class LobbyClosed(ServiceError):
    """The game takes no one now (`rule` L1: started or expired; L2: every seat taken; T1:
    aborted), or cannot be started (L1, T1): 409."""

    def __init__(self, violation: RuleViolation) -> None:
        super().__init__(violation.message)
        self.rule = violation.rule


def new_join_code() -> str:
    """A fresh join code: CODE_LENGTH characters of CROCKFORD drawn with `secrets`."""
    return "".join(secrets.choice(CROCKFORD) for _ in range(CODE_LENGTH))


def normal_code(code: str) -> str | None:
    """`code` as stored (upper case, I/L -> 1, O -> 0, no hyphen), or None when it cannot be a
    join code (then nothing is looked up)."""
    if not isinstance(code, str) or len(code) > 4 * CODE_LENGTH:
        return None
    normal = code.strip().upper().translate(_READ_AS)
    if len(normal) != CODE_LENGTH or any(char not in CROCKFORD for char in normal):
        return None
    return normal


def code_key(code: str) -> str:
    """The Redis key of a join code (its normal form): `rummy:join:<sha256 hex>`."""
    return f"{PREFIX}:join:{hashlib.sha256(code.encode()).hexdigest()}"


class Lobby:
    """Lobby games of the GameService `games`, with `client` its Redis and `ttl_s` how long a
    lobby waits to be started (RUMMY_LOBBY_TTL_S)."""

    def __init__(self, games, client: redis.Redis, ttl_s: float = DEFAULT_TTL_S) -> None:
        self.games, self._client, self.ttl_s = games, client, ttl_s

    def create(self, seats: list[dict], auto_start: bool = False, **options) -> dict:
        """GameService.create_game(seats, auto_start=..., **options); for a game with open
        seats, with its `join_code` and `expires_at` (RFC 3339 UTC, ms). Raises what
        create_game raises."""
        created = self.games.create_game(seats, auto_start=auto_start, **options)
        if not any(seat["kind"] == "open" for seat in created["seats"]):
            return created
        code, ttl_ms = new_join_code(), int(self.ttl_s * 1000)
        with backend_errors():
            self._client.set(code_key(code), created["id"], px=ttl_ms)
        expires = self.games.records.get(created["id"]).created_ms + ttl_ms
        return {**created, "join_code": code, "expires_at": rfc3339(expires)}

    def join(self, code: str, name: str, idempotency_key: str | None = None,
             player: str | None = None) -> dict:
        """Take the first open seat of the game of `code` under `name`: `{"game_id", "seat",
        "token"}` (the token shown once). With `player` (docs/players.md), the seat is that
        player's: a PlayerSeated table event joins SeatJoined in one append. A retry with the
        same `idempotency_key` gets the first answer and appends nothing. Raises
        JoinCodeNotFound (unknown or expired code), LobbyClosed (started, aborted, or full),
        ValueError (a bad name), IdempotencyKeyReused, IdempotencyInProgress."""
        game_id = self._game_of(code)
        name = seat_name(name)
        action = {"type": JOIN, "name": name, **({} if player is None else {"player": player})}
        rng_seed, decided = self._rng_seed(game_id), []

        def decision(state, version):  # the domain's join, remembering that it was decided here
            events = decide(state, None, action, decision_rng(rng_seed, version))
            decided.append(events)
            if player is None:
                return events
            return [*events, PlayerSeated(seat=self._joined_seat(decided), player_id=player)]
        key = None if idempotency_key is None else f"{JOIN}:{key_name(idempotency_key)}"
        try:
            self.games.decide_system(game_id, action, key, decision=decision)
        except RuleViolation as violation:
            raise self._closed(game_id, code, violation) from None
        if not decided:  # a retry: the first request's answer
            answer = self._answer(game_id, idempotency_key, name)
            if player is not None:  # the projection of the first append may have been lost
                record_join(self.games, game_id, answer["seat"], player)
            return answer
        seat = self._joined_seat(decided)
        token = new_token()
        self.games.grants.grant_seat(game_id, seat, token)
        answer = {"game_id": game_id, "seat": seat, "token": token}
        if idempotency_key is not None:  # sealed: a Redis dump shows no token
            keep(self._client, join_slot(game_id), idempotency_key, answer, fingerprint=name)
        return answer

    def start(self, game_id: str, principal: Principal,
              idempotency_key: str | None = None) -> tuple[int, dict]:
        """The host starts the waiting game: open seats become bots, the first deal
        (domain.lobby.start). (version, public table). Raises GameNotFound, Unauthorized (no
        token), Forbidden (not the game's admin token nor the server admin key), LobbyClosed
        (L1: started or expired; T1: aborted), IdempotencyKeyReused."""
        if not principal.admin:
            if not principal.holds_token:
                raise Unauthorized("Starting a game needs its admin token.")
            raise Forbidden("Only the game's admin token or the server admin key may start it.")
        key = None if idempotency_key is None else f"{START}:{idempotency_key}"
        try:
            version, state = self.games.decide_system(game_id, {"type": START}, key)
        except RuleViolation as violation:
            raise LobbyClosed(violation) from None
        return version, self.games.public_table(game_id, version, state)  # a retry: the first

    def expire_due(self, now_ms: int | None = None) -> list[str]:
        """Expire (LobbyExpired) every waiting game created more than `ttl_s` before `now_ms`
        (default now), EXPIRE_BATCH at most per call: the sweeper's part of the lobby. A game
        that started meanwhile is left alone. Returns the ids expired."""
        now_ms = int(time.time() * 1000) if now_ms is None else now_ms
        expired = []
        for game_id in self.games.index.created_before("waiting", now_ms - int(self.ttl_s * 1000),
                                                       EXPIRE_BATCH):
            try:
                self.games.decide_system(game_id, {"type": EXPIRE}, f"{EXPIRE}:lobby-ttl")
            except (RuleViolation, GameNotFound):
                self._reindex(game_id)
                continue
            expired.append(game_id)
        return expired

    def _reindex(self, game_id: str) -> None:
        """The index said waiting but the game is not: put the index right (a lost update)."""
        try:
            version, state = self.games.load(game_id)
        except GameNotFound:
            return
        self.games.index_game(game_id, version, state,
                              needs(state, self.games.bot_seats(game_id, state)))

    def _rng_seed(self, game_id: str) -> str:
        return self.games.records.get(game_id).rng_seed

    def _game_of(self, code: str) -> str:
        normal = normal_code(code)
        if normal is None:
            raise JoinCodeNotFound("No game has this join code.")
        with backend_errors():
            game_id = self._client.get(code_key(normal))
        if game_id is None:
            raise JoinCodeNotFound("No game has this join code, or its lobby expired.")
        return game_id.decode()

    def _closed(self, game_id: str, code: str, violation: RuleViolation) -> ServiceError:
        """The error of a refused join: an expired lobby is as unknown as a wrong code."""
        _, state = self.games.load(game_id)
        if state.status == "expired":
            return JoinCodeNotFound("No game has this join code, or its lobby expired.")
        return LobbyClosed(violation)

    @staticmethod
    def _joined_seat(decided: list) -> int:
        """The seat of the SeatJoined this request decided and appended (its last decision:
        an earlier one lost a race and was decided again)."""
        return next(e.seat for e in decided[-1] if isinstance(e, SeatJoined))

    def _answer(self, game_id: str, idempotency_key: str, name: str) -> dict:
        """The first answer of a join retried with `idempotency_key`: waits ANSWER_WAIT_S for
        the first request to store it. Raises IdempotencyKeyReused (another name),
        IdempotencyInProgress (not stored yet)."""
        ends = time.monotonic() + ANSWER_WAIT_S
        while True:
            answer = kept(self._client, join_slot(game_id), idempotency_key, fingerprint=name)
            if answer is not None:
                return answer
            if time.monotonic() >= ends:
                raise IdempotencyInProgress(idempotency_key, 1)
            time.sleep(0.02)
