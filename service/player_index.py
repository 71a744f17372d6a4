"""The per-player index of games and the player's inbox (docs/players.md).

A read model kept by the service, never a scan: `rummy:{player:<id>}:games` (every game of the
player) and `rummy:{player:<id>}:games:<status>` are sorted sets of `<game>-<seat>` scored by
the game's creation ms. The service writes them when a game with player ids is created, when a
player joins a seat, and when the game's status changes (service.projections); a game whose
status is final (finished, aborted, expired) never moves back, so a late write of an older
status cannot undo it. The inbox reads one page of a set and each game's current state (which
seat must act and its deadline are computed then, not stored: they change at every turn).
"""
from __future__ import annotations

import redis

from domain import awaiting
from service.clock import rfc3339
from service.errors import GameNotFound
from service.index import MAX_LIMIT
from service.keys import player_games_key
from service.pages import decode_cursor, encode_cursor, ids_after
from service.redis_store import backend_errors

# The statuses of the player index: "scoring" counts as "playing" (the round's scoring is
# the workers' moment between two rounds); "waiting" and "expired" are the lobby's.
PLAYER_STATUSES = ("waiting", "playing", "finished", "aborted", "expired")
FINAL = ("finished", "aborted", "expired")
# KEYS[1]: the player's set of every game, then one set per PLAYER_STATUSES. ARGV: member,
# creation ms, the 1-based index in KEYS of the new status's set, then those of the final
# statuses. A member already in a final set stays there.
MOVE_LUA = """
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
for i = 4, #ARGV do
  if redis.call('ZSCORE', KEYS[tonumber(ARGV[i])], ARGV[1]) then return 0 end
end
local target = tonumber(ARGV[3])
for i = 2, #KEYS do
  if i == target then
    redis.call('ZADD', KEYS[i], ARGV[2], ARGV[1])
  else
    redis.call('ZREM', KEYS[i], ARGV[1])
  end
end
return 1
"""


def player_status(status: str) -> str:
    """The player index's status of a game status (domain.awaiting): scoring is playing."""
    return "playing" if status == "scoring" else status


class PlayerIndex:
    """The games of each player by creation time, filtered by status, paged with a cursor."""

    def __init__(self, client: redis.Redis) -> None:
        self._client = client
        self._move = client.register_script(MOVE_LUA)

    def record(self, player: str, game_id: str, seat: int, created_ms: int, status: str) -> None:
        """Put the player's `seat` of `game_id` under `status` (a game status; final ones
        stay). One script on the player's keys (one Cluster slot)."""
        keys = [player_games_key(player), *(player_games_key(player, s) for s in PLAYER_STATUSES)]
        args = [f"{game_id}-{seat}", created_ms,
                2 + PLAYER_STATUSES.index(player_status(status)),
                *(2 + PLAYER_STATUSES.index(s) for s in FINAL)]
        with backend_errors():
            self._move(keys=keys, args=args)

    def forget(self, player: str, game_id: str, seat: int) -> None:
        """Drop the entry (its game left Redis: archived by retention)."""
        member = f"{game_id}-{seat}"
        pipe = self._client.pipeline(transaction=False)
        for key in (player_games_key(player), *(player_games_key(player, s) for s in PLAYER_STATUSES)):
            pipe.zrem(key, member)
        with backend_errors():
            pipe.execute()

    def entries(self, player: str, status: str | None, limit: int,
                cursor: str | None) -> tuple[list[tuple[int, str, int]], str | None]:
        """One page of (created ms, game id, seat), newest first, and the next cursor. Raises
        ValueError for an unknown status, a limit outside 1..MAX_LIMIT or a bad cursor."""
        if status is not None and status not in PLAYER_STATUSES:
            raise ValueError(f"status must be one of {', '.join(PLAYER_STATUSES)}")
        if not 1 <= limit <= MAX_LIMIT:
            raise ValueError(f"limit must be between 1 and {MAX_LIMIT}")
        after = decode_cursor(cursor) if cursor else None
        found = ids_after(self._client, player_games_key(player, status), after, limit + 1)
        page = [(created, *_split(member)) for created, member in found[:limit]]
        return page, encode_cursor(*found[limit - 1]) if len(found) > limit else None


def _split(member: str) -> tuple[str, int]:
    game_id, _, seat = member.rpartition("-")
    return game_id, int(seat)


def inbox(service, player: str, status: str | None = None, awaiting_me: bool = False,
          limit: int = 20, cursor: str | None = None) -> dict:
    """The player's games: `{"items": [{"game_id", "seat", "status", "version", "created",
    "awaiting_me", "deadline"}], "next_cursor"}`, newest first. `awaiting_me`: keep only the
    games where the seat must act now (the seat's human, not a bot playing it); a page may then
    hold fewer than `limit` items, follow `next_cursor` to the end. `deadline`: RFC 3339 ms of
    that seat's deadline when it must act and the game has a clock for it, else null. Nothing
    about cards. `service`: the GameService. Raises ValueError (bad arguments)."""
    entries, next_cursor = service.players.entries(player, status, limit, cursor)
    items = []
    for created_ms, game_id, seat in entries:
        item = _item(service, player, created_ms, game_id, seat)
        if item is not None and (item["awaiting_me"] or not awaiting_me):
            items.append(item)
    return {"items": items, "next_cursor": next_cursor}


def _item(service, player: str, created_ms: int, game_id: str, seat: int) -> dict | None:
    try:
        record = service.records.get(game_id)
        version, state = service.load(game_id)
    except GameNotFound:  # archived and removed since: drop the stale entry
        service.players.forget(player, game_id, seat)
        return None
    wait = awaiting(state)
    mine = seat in wait.seats and seat in record.human_seats(state)
    due = service.deadline(game_id, version, state) if mine else None
    return {"game_id": game_id, "seat": seat, "status": wait.status, "version": version,
            "created": rfc3339(created_ms), "awaiting_me": mine,
            "deadline": rfc3339(None if due is None else due.due_ms)}
