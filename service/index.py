"""The game index for listing (issue 3: status, creation time, paging).

A read model beside the streams: `rummy:games` (and `rummy:games:<status>`) are sorted sets of
game ids scored by creation time in ms; `rummy:{<game>}:summary` holds status, round, version,
creation time, the time of its last append (`updated_ms`, what retention ages a game by:
service.retention) and whether the game waits on the workers. `rummy:games:waiting` holds the games
that wait on the workers (a bot, the scoring of a round, a buy-offer deadline): the sweeper's
work list. Updated by one Lua script (UPDATE_LUA) after each append that changes what it records
(and every INDEX_EVERY versions, service.games), so the summary and every
set change together: a summary never goes back to an older version, and two processes updating
the same game at once cannot leave it in the set of a status its summary does not hold.
Pages are newest first; the cursor is opaque (creation ms and id of the last item).
The script touches global keys beside the game's: it needs one Redis (not a Cluster).
"""
from __future__ import annotations

import base64
import re
import time
from datetime import datetime, timezone
from typing import Iterator

import redis

from service.keys import events_key, index_key, summary_key
from service.redis_store import backend_errors

STATUSES = ("waiting", "playing", "scoring", "finished", "aborted", "expired")
MAX_LIMIT = 100
WAITING = "waiting"  # the set of the games waiting on the workers (not the lobby's status)
# The set of the games of status "waiting" (a lobby, domain.lobby): `rummy:games:waiting` was
# the workers' set before that status existed, so that status's set has another name.
LOBBY_SET = "lobby"
# The games that are not listed (visibility unlisted or private): a sorted set like the others.
UNLISTED_SET = "unlisted"
# KEYS: summary, rummy:games, the set of each of STATUSES (status_key), rummy:games:waiting.
# ARGV: game id, version, status, round ("" = none), waiting ("1"/"0"), created ms ("" = the
# summary's), updated ms (the time of this append). Set the summary unless it already holds a
# newer version, then put the game in the sets of the status (and waiting flag) the summary
# holds, all in one step. Returns that status (nil when the game has no creation time, so it
# cannot be listed).
UPDATE_LUA = """
local game = ARGV[1]
if ARGV[6] ~= '' then
  redis.call('HSETNX', KEYS[1], 'created_ms', ARGV[6])
end
local held = tonumber(redis.call('HGET', KEYS[1], 'version') or '-1')
if tonumber(ARGV[2]) > held then
  redis.call('HSET', KEYS[1], 'version', ARGV[2], 'status', ARGV[3], 'round', ARGV[4],
             'waiting', ARGV[5], 'updated_ms', ARGV[7])
end
local created = redis.call('HGET', KEYS[1], 'created_ms')
local status = redis.call('HGET', KEYS[1], 'status')
if not created then
  return false
end
redis.call('ZADD', KEYS[2], created, game)
local name = status
if status == 'waiting' then name = 'lobby' end
for i = 3, #KEYS - 1 do
  if KEYS[i] == KEYS[2] .. ':' .. name then
    redis.call('ZADD', KEYS[i], created, game)
  else
    redis.call('ZREM', KEYS[i], game)
  end
end
if redis.call('HGET', KEYS[1], 'waiting') == '1' and status ~= 'finished'
   and status ~= 'aborted' and status ~= 'expired' then
  redis.call('ZADD', KEYS[#KEYS], created, game)
else
  redis.call('ZREM', KEYS[#KEYS], game)
end
return status
"""

def encode_cursor(created_ms: int, game_id: str) -> str:
    """The opaque cursor after the item (`created_ms`, `game_id`)."""
    return base64.urlsafe_b64encode(f"{created_ms}:{game_id}".encode()).decode()


_CURSOR = re.compile(r"([0-9]{1,16}):([0-9A-Za-z_-]{1,64})")


def decode_cursor(cursor: str) -> tuple[int, str]:
    """(created_ms, game_id) of a cursor: exactly what encode_cursor gives. Raises ValueError
    for anything else (not base64, not `<ms>:<id>`, not written as encode_cursor writes it)."""
    try:
        match = _CURSOR.fullmatch(base64.urlsafe_b64decode(cursor.encode("ascii")).decode("ascii"))
    except (ValueError, UnicodeError):
        match = None
    if match is None or encode_cursor(int(match[1]), match[2]) != cursor:
        raise ValueError("not a cursor of this list")
    return int(match[1]), match[2]


def status_key(status: str) -> str:
    """The sorted set of the games of `status` (one of STATUSES): `rummy:games:<status>`, but
    `rummy:games:lobby` for "waiting" (LOBBY_SET)."""
    return index_key(LOBBY_SET if status == "waiting" else status)


def index_keys(game_id: str) -> list[str]:
    """Every index key that may hold `game_id`: its summary, then the global sorted sets
    (`rummy:games`, one per status, the waiting set), in UPDATE_LUA's KEYS order, then the
    unlisted set (not UPDATE_LUA's: retention removes the game from every set)."""
    return [summary_key(game_id), index_key(), *map(status_key, STATUSES), index_key(WAITING),
            index_key(UNLISTED_SET)]


def ids_after(client: redis.Redis, key: str, after: tuple[int, str] | None, count: int,
              hidden: str | None = None) -> list[tuple[int, str]]:
    """Up to `count` (score, member) of the sorted set `key` strictly after `after` in (score
    desc, member desc) order, leaving out the members of the sorted set `hidden` (the unlisted
    games): a page of a listing by creation ms (the game list, a player's inbox)."""
    found: list[tuple[int, str]] = []
    offset, high = 0, "+inf" if after is None else after[0]
    with backend_errors():
        while len(found) < count:
            batch = client.zrevrangebyscore(key, high, "-inf", start=offset, num=count,
                                            withscores=True)
            if not batch:
                break
            offset += len(batch)
            left_out = (client.zmscore(hidden, [m for m, _ in batch]) if hidden
                        else [None] * len(batch))
            for (member, score), out in zip(batch, left_out):
                item = (int(score), member.decode())
                if out is None and (after is None or item < after):
                    found.append(item)
    return found[:count]


class GameIndex:
    """Listing of games by creation time, filtered by status, paged with a cursor."""

    def __init__(self, client: redis.Redis) -> None:
        self._client = client
        self._update = client.register_script(UPDATE_LUA)

    def add(self, game_id: str, created_ms: int, version: int, status: str, round_: int | None,
            waiting: bool = False) -> None:
        """Index a new game."""
        self.update(game_id, version, status, round_, created_ms, waiting=waiting)

    def update(self, game_id: str, version: int, status: str, round_: int | None,
               created_ms: int | None = None, waiting: bool = False) -> str | None:
        """Record the game at `version` (ignored when the summary holds a newer one), `waiting`
        whether it waits on the workers then (service.followups.needs). Atomic: the summary
        (with `updated_ms`, now), the status sets and the waiting set change in one script.
        Returns the status the summary holds."""
        keys = index_keys(game_id)[:-1]
        args = [game_id, version, status, "" if round_ is None else round_, int(bool(waiting)),
                "" if created_ms is None else created_ms, int(time.time() * 1000)]
        with backend_errors():
            held = self._update(keys=keys, args=args)
        return held.decode() if held else None

    def unlist(self, game_id: str, created_ms: int) -> None:
        """Keep `game_id` out of every page (`page`): an unlisted or private game
        (service.records.VISIBILITIES)."""
        with backend_errors():
            self._client.zadd(index_key(UNLISTED_SET), {game_id: created_ms})

    def created_before(self, status: str, before_ms: int, limit: int = 100) -> list[str]:
        """Up to `limit` ids of the games of `status` created at or before `before_ms`, oldest
        first (the sweeper's expired lobbies)."""
        with backend_errors():
            return [m.decode() for m in self._client.zrangebyscore(
                status_key(status), "-inf", before_ms, start=0, num=limit)]

    def waiting(self, batch: int = 100) -> Iterator[str]:
        """The ids of the games waiting on the workers (each at least once; the set may change
        while it is walked)."""
        with backend_errors():
            for member, _ in self._client.zscan_iter(index_key(WAITING), count=batch):
                yield member.decode()

    def summary(self, game_id: str) -> dict | None:
        """`{"status", "version", "waiting"}` of the game's summary, or None without one."""
        with backend_errors():
            status, version, waiting = self._client.hmget(summary_key(game_id),
                                                          "status", "version", "waiting")
        if status is None:
            return None
        return {"status": status.decode(), "version": int(version), "waiting": waiting == b"1"}

    def page(self, status: str | None = None, limit: int = 20, cursor: str | None = None) -> dict:
        """`{"items": [{"id", "status", "round", "version", "created"}], "next_cursor"}`,
        newest first. Raises ValueError for an unknown status, a limit outside 1..100, or a
        malformed cursor."""
        if status is not None and status not in STATUSES:
            raise ValueError(f"status must be one of {', '.join(STATUSES)}")
        if not 1 <= limit <= MAX_LIMIT:
            raise ValueError(f"limit must be between 1 and {MAX_LIMIT}")
        after = decode_cursor(cursor) if cursor else None
        ids = ids_after(self._client, status_key(status) if status else index_key(), after,
                        limit + 1, hidden=index_key(UNLISTED_SET))
        items = self._summaries(ids[:limit])
        if status is not None:
            items = [item for item in items if item["status"] == status]
        more = len(ids) > limit
        last = ids[limit - 1] if more else None
        return {"items": items, "next_cursor": encode_cursor(*last) if last else None}

    def _summaries(self, entries: list[tuple[int, str]]) -> list[dict]:
        """The listing items of `entries` (created_ms, id), in one round trip. The version is
        the stream's own: the summary is written only when what it records changes
        (service.games.INDEX_EVERY), so its version may lag the stream's."""
        pipe = self._client.pipeline(transaction=False)
        for _, game_id in entries:
            pipe.hgetall(summary_key(game_id))
            pipe.xrevrange(events_key(game_id), "+", "-", count=1)
        with backend_errors():
            replies = pipe.execute()
        items = []
        for (created_ms, game_id), raw, last in zip(entries, replies[::2], replies[1::2]):
            if b"status" not in raw:
                continue
            version = int(last[0][0].split(b"-", 1)[1]) if last else int(raw[b"version"])
            created = datetime.fromtimestamp(created_ms / 1000, timezone.utc).isoformat()
            items.append({"id": game_id, "status": raw[b"status"].decode(),
                          "round": int(raw[b"round"]) if raw.get(b"round") else None,
                          "version": version, "created": created})
        return items
