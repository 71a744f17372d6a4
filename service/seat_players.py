"""Which player sits where (docs/players.md): the player ids given at creation (in the game's
record) and those of players who joined an open seat by code while acting for a player (the
integration key with X-Player-Id, or a player JWT). A join's player is a PlayerSeated table
event of the game's stream (service.table_events); the hash `rummy:{<game>}:players` (seat ->
player id, each seat written once) is its projection, for lookups without reading the stream,
written after the append (service.projections.seat_players) and again by a retried join
(record_join), which heals a write lost after the append."""
from __future__ import annotations

import redis

from domain import awaiting
from service.keys import seat_players_key
from service.records import GameRecord
from service.redis_store import backend_errors


def has_open_seats(record: GameRecord) -> bool:
    """Whether players may join `record`'s game by code (seats of kind "open")."""
    return any(seat["kind"] == "open" for seat in record.seats)


class JoinedPlayers:
    """The players who joined open seats, per game, on `client`."""

    def __init__(self, client: redis.Redis) -> None:
        self._client = client

    def add(self, game_id: str, seat: int, player: str) -> None:
        """`player` joined `seat` (a retried join writes the same again: HSETNX)."""
        with backend_errors():
            self._client.hsetnx(seat_players_key(game_id), seat, player)

    def of(self, record: GameRecord) -> dict[int, str]:
        """seat -> player id of every seat of `record`'s game that has a player: from the
        record, and for a game with open seats also from the joins (one HGETALL)."""
        found = {s["seat"]: s["player_id"] for s in record.seats if s.get("player_id")}
        if has_open_seats(record):
            with backend_errors():
                raw = self._client.hgetall(seat_players_key(record.id))
            found.update({int(seat): player.decode() for seat, player in raw.items()})
        return found


def record_join(service, game_id: str, seat: int, player: str) -> None:
    """After `player` joined `seat` of `game_id` by code: remember who sits there and put the
    game in the player's index under its status now (waiting, or playing when the join
    started it). `service`: the GameService."""
    service.joined.add(game_id, seat, player)
    record = service.records.get(game_id)
    _, state = service.load(game_id)
    service.players.record(player, game_id, seat, record.created_ms, awaiting(state).status)
