"""Rematch (docs/lobby.md "Rematch"): one follow-up game of a finished game, with the same
seats, rule profile, clock, visibility and host (the finished game's admin token manages it);
each former human seat takes its new token with its old one.

The link is in both streams (table events: RematchCreated in the finished game, RematchOf in
the follow-up, service.table_events); the key `rummy:{<game>}:rematch` -> the follow-up's id
answers lookups: the first request holds it (`pending:<nonce>`, for PENDING_MS) while it
creates the game, so requests racing get the same follow-up, then sets it to
`untold:<follow-up>` and, once RematchCreated is appended, to the follow-up's id: a request
finding it untold appends the event (once, under its idempotency key). The follow-up's seat
tokens are grants (service.grants): a new one revokes the one before, and is told by a
SeatTokenIssued table event.
"""
from __future__ import annotations

import secrets
import time

import redis

from domain import awaiting
from domain.errors import RuleViolation
from service.errors import Forbidden, ServiceError, Unauthorized
from service.keys import PREFIX
from service.principal import Principal
from service.redis_store import backend_errors
from service.table_events import (RematchCreated, SeatTokenIssued, record_table_events,
                                  refuse_when_closed)
from service.tokens import new_token

PENDING = "pending:"
UNTOLD = "untold:"  # the follow-up exists, its RematchCreated is not appended yet
PENDING_MS = 10_000  # far above the time creating a game takes
WAIT_S = 2.0


class NoRematch(ServiceError):
    """The game has no rematch yet (GET before a POST): 404."""


def rematch_key(game_id: str) -> str:
    """The key holding the id of `game_id`'s follow-up game."""
    return f"{PREFIX}:{{{game_id}}}:rematch"


class Rematches:
    """Rematches of the GameService `games`'s finished games; `client` its Redis."""

    def __init__(self, games, client: redis.Redis) -> None:
        self.games, self._client = games, client

    def create(self, game_id: str, principal: Principal) -> dict:
        """The follow-up of the finished `game_id`, created by the first call: `{"id",
        "version"}` (the version the new game had when created, its first deal). Any seat
        token of the game or its admin may ask. Raises GameNotFound, Unauthorized (no token),
        RuleViolation R9.4 (the game is not finished), IdempotencyInProgress never: a racing
        call waits for the first."""
        if not principal.holds_token:
            raise Unauthorized("A rematch needs a seat token or the admin token of the game.")
        if principal.spectator:
            raise Forbidden("A spectator token cannot ask for a rematch.")
        record = self.games.records.get(game_id)
        version, state = self.games.load(game_id)
        _require_finished(state)
        nonce = f"{PENDING}{secrets.token_hex(8)}"
        with backend_errors():
            held = self._client.set(rematch_key(game_id), nonce, nx=True, px=PENDING_MS)
        if not held:
            follow_up, linked = self._follow_up(game_id)
            if not linked:  # the request that created it failed before telling it: heal
                self._link(game_id, follow_up)
            return {"id": follow_up}
        players = self.games.joined.of(record) if self.games.joined is not None else {}
        specs = [_seat(seat, players.get(seat["seat"])) for seat in record.public_seats(state)]
        clock = None if state.clock is None else dict(state.clock.__dict__)
        created = self.games.create_game(specs, profile=state.profile.to_json(), clock=clock,
                                         visibility=record.visibility, host=record.admin_hash,
                                         rematch_of=game_id)
        with backend_errors():
            self._client.set(rematch_key(game_id), f"{UNTOLD}{created['id']}")
        self._link(game_id, created["id"])
        return {"id": created["id"]}

    def _link(self, game_id: str, follow_up: str) -> None:
        """RematchCreated in the finished game's stream (once: its idempotency key), then the
        link marked told. The link names the follow-up first, so a failure between leaves
        one follow-up, whose event the next call appends."""
        record_table_events(self.games, game_id, [RematchCreated(game_id=follow_up)],
                            f"rematch-link:{follow_up}")
        with backend_errors():
            self._client.set(rematch_key(game_id), follow_up)

    def seat_token(self, game_id: str, principal: Principal) -> dict:
        """A new token for the caller's seat in the follow-up game: `{"game_id", "seat",
        "token"}`; it revokes the token given before. Raises GameNotFound, Unauthorized (no
        seat token), Forbidden (a bot seat, or the admin token), RuleViolation R9.4 (the game
        is not finished: no follow-up can be created, as `create` says), NoRematch."""
        if principal.seat is None:
            if principal.holds_token:
                raise Forbidden("This token has no seat (the admin token manages the follow-up "
                                "game as it is).")
            raise Unauthorized("A rematch seat needs the seat token of this game.")
        try:
            follow_up, _ = self._follow_up(game_id)
        except NoRematch:  # a game in play or aborted never gets one: say so, as `create` does
            _require_finished(self.games.load(game_id)[1])
            raise
        spec = self.games.records.get(follow_up).seats[principal.seat]
        if spec["kind"] != "human":
            raise Forbidden(f"Seat {principal.seat} is a bot's in the rematch.")
        refuse_when_closed(self.games.load(follow_up)[1])  # before a token is granted
        token = new_token()
        self.games.grants.grant_seat(follow_up, principal.seat, token)
        record_table_events(self.games, follow_up, [SeatTokenIssued(seat=principal.seat)])
        return {"game_id": follow_up, "seat": principal.seat, "token": token}

    def _follow_up(self, game_id: str) -> tuple[str, bool]:
        """(the follow-up's id, whether its RematchCreated was appended), waiting up to WAIT_S
        while another request creates it. Raises NoRematch."""
        ends = time.monotonic() + WAIT_S
        while True:
            with backend_errors():
                held = self._client.get(rematch_key(game_id))
            if held is None:
                raise NoRematch(f"Game {game_id!r} has no rematch yet: POST creates it.")
            if not held.startswith(PENDING.encode()):
                held = held.decode()
                return held.removeprefix(UNTOLD), not held.startswith(UNTOLD)
            if time.monotonic() >= ends:
                raise NoRematch("The rematch is being created; retry in a second.")
            time.sleep(0.02)


def _seat(public: dict, player: str | None = None) -> dict:
    """The seat spec of a follow-up game from a finished game's public seat and its player
    (docs/players.md: a player keeps its seat in the rematch)."""
    if public["kind"] == "bot":
        return {"kind": "bot", "name": public["name"], "level": public["level"]}
    spec = {"kind": "human", "name": public["name"]}
    return spec if player is None else {**spec, "player_id": player}


def _require_finished(state: object) -> None:
    """Raise RuleViolation R9.4 unless `state` is a finished game: only one has a rematch."""
    if awaiting(state).status != "finished":
        raise RuleViolation("R9.4", "only a finished game has a rematch")
