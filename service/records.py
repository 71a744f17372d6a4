"""The per-game record kept beside the stream (`rummy:{<game>}:meta`): who sits where, the
token hashes, the decision seed, the creation time. Not game state: every fact of play is an
event (DESIGN §2.1); this is the table's seating and credentials."""
from __future__ import annotations

import json
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cached_property

import redis

from domain import bot_level
from service.errors import GameNotFound
from service.keys import meta_key
from service.redis_store import backend_errors


@dataclass(frozen=True)
class GameRecord:
    """One game's record.

    `seats`: one `{"seat", "kind": "human"|"bot", "name", "level", "player_id"?}` per seat. `created_ms`:
    creation time, ms since the epoch. `rng_seed`: the secret seed of every decision's RNG
    (docs/architecture.md §2 "Seeds"). `admin_hash` / `seat_hashes`: SHA-256 of the tokens
    (service.tokens). `origin`: how the game began, one of ORIGINS (docs/threat-model.md).
    `visibility`: one of VISIBILITIES (docs/lobby.md): "public" games are listed, "unlisted"
    ones are not, "private" ones answer 404 to a caller without a token of theirs. A seat of
    kind "open" (a lobby game, domain.lobby) has the `level` of the bot that plays it if nobody
    joins; who joined is in the folded state, their tokens in service.grants.
    """

    id: str
    seats: tuple[dict, ...]
    created_ms: int
    rng_seed: str
    admin_hash: str
    seat_hashes: dict[int, str] = field(default_factory=dict)
    origin: str = "random"
    visibility: str = "public"

    def bot_seats(self, state=None) -> tuple[int, ...]:
        """The seats a bot plays: the bot seats, and with the folded `state` also the seats
        the clock or a resignation handed to a bot (`domain.bot_level`)."""
        if self.all_bots:  # nothing is ever handed over: the same seats at every version
            return self._seated_bot_seats
        return tuple(self.bot_levels(state))

    @cached_property
    def _seated_bot_seats(self) -> tuple[int, ...]:
        return tuple(self.seated_bots)

    @cached_property
    def seated_bots(self) -> dict[int, str]:
        """seat -> level of the seats seated as bots (kind "bot"), in seat order. Computed once:
        the turn loop asks for the bots of a game several times per move (8 us each)."""
        return dict(sorted((seat["seat"], seat["level"]) for seat in self.seats
                           if seat["kind"] == "bot"))

    @property
    def all_bots(self) -> bool:
        """Whether every seat is seated as a bot: no human can ever play in this game (a
        lobby's open seat is not a bot's until the game starts without a player)."""
        return len(self.seated_bots) == len(self.seats)

    def bot_levels(self, state=None) -> dict[int, str]:
        """seat -> level of the bot playing it now (see `bot_seats`)."""
        if self.all_bots:
            return dict(self.seated_bots)  # a copy: the caller may change its own
        levels = dict(self.seated_bots)
        if state is not None:
            for seat in range(len(self.seats)):
                level = None if seat in levels else bot_level(state, seat)
                if level is not None:
                    levels[seat] = level
        return dict(sorted(levels.items()))

    def human_seats(self, state) -> tuple[int, ...]:
        """The seats played by their humans in `state` (neither bots nor handed to a bot)."""
        bots = self.bot_levels(state)
        return tuple(seat for seat in range(len(self.seats)) if seat not in bots)

    def public_seats(self, state=None) -> list[dict]:
        """The seats as anyone may see them (no token, no player_id: docs/players.md). With the
        folded `state` of a lobby game, an open seat shows who joined it (kind "human", their name) or, once the game
        started without them, its bot (kind "bot")."""
        lobby = getattr(state, "lobby", None)
        seats = [{k: v for k, v in seat.items() if k != "player_id"} for seat in self.seats]
        if lobby is None:
            return seats
        for seat in seats:
            joined, bot = lobby.joined[seat["seat"]], lobby.bots[seat["seat"]]
            if seat["kind"] == "open" and joined is not None:
                seat.update(kind="human", name=joined, level=None)
            elif seat["kind"] == "open" and bot is not None:
                seat.update(kind="bot", level=bot)
        return seats


class RecordStore:
    """Game records in Redis hashes, one per game, with an in-process cache of the last
    `cached` records read: a record never changes once written, so a cached one is never
    stale, and a request (authenticate, act, the follow-up hook) reads Redis once at most.
    What does change after creation is elsewhere and never cached: who joined a lobby game (its
    events, folded) and the tokens granted since (service.grants)."""

    def __init__(self, client: redis.Redis, cached: int = 4096) -> None:
        self._client = client
        self._cache: OrderedDict[str, GameRecord] = OrderedDict()
        self._cached = cached
        self._lock = threading.Lock()

    def put(self, record: GameRecord) -> None:
        """Write `record` (a new game id: records are never changed)."""
        mapping = {"seats": json.dumps(record.seats), "created_ms": record.created_ms,
                   "rng_seed": record.rng_seed, "admin_hash": record.admin_hash,
                   "seat_hashes": json.dumps(record.seat_hashes), "origin": record.origin,
                   "visibility": record.visibility}
        with backend_errors():
            self._client.hset(meta_key(record.id), mapping=mapping)

    def get(self, game_id: str) -> GameRecord:
        """The record of `game_id`. Raises GameNotFound."""
        with self._lock:  # gunicorn's threads share the cache
            record = self._cache.get(game_id)
            if record is not None:
                self._cache.move_to_end(game_id)
                return record
        record = self._read(game_id)
        with self._lock:
            self._cache[game_id] = record
            if len(self._cache) > self._cached:
                self._cache.popitem(last=False)
        return record

    def forget(self, game_id: str) -> None:
        """Drop the cached record of `game_id` (the game left Redis: service.retention)."""
        with self._lock:
            self._cache.pop(game_id, None)

    def _read(self, game_id: str) -> GameRecord:
        with backend_errors():
            raw = self._client.hgetall(meta_key(game_id))
        if not raw:
            raise GameNotFound(game_id)
        fields = {key.decode(): value.decode() for key, value in raw.items()}
        return GameRecord(
            id=game_id, seats=tuple(json.loads(fields["seats"])),
            created_ms=int(fields["created_ms"]), rng_seed=fields["rng_seed"],
            admin_hash=fields["admin_hash"],
            seat_hashes={int(seat): digest for seat, digest in json.loads(fields["seat_hashes"]).items()},
            origin=stored_origin(fields["origin"], fields["rng_seed"]),
            visibility=fields.get("visibility", "public"))


# Who may find a game (docs/lobby.md "Visibility").
VISIBILITIES = ("public", "unlisted", "private")
# How a game began: a secret random deal, a client's seed (mixed with the game id unless the
# server admin key gave it), a starting position, an imported record, a fork, a rematch.
ORIGINS = ("random", "seeded", "position", "import", "fork", "rematch")
# Records written before origins were told apart: "new" for a random or a seeded game.
SEEDED_RNG_SEED_LENGTH = 64  # an HMAC-SHA256 in hex; a random decision seed has 32 digits


def stored_origin(origin: str, rng_seed: str) -> str:
    """The origin (one of ORIGINS) of a record that stored `origin`: an old record's "new" is
    "seeded" when its decision seed is an HMAC (service.creation.seeded_rng_seed), else
    "random"."""
    if origin == "new":
        return "seeded" if len(rng_seed) == SEEDED_RNG_SEED_LENGTH else "random"
    return origin
