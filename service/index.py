"""The game index for listing (issue 3: status, creation time, paging), cluster-safe (issue 12,
docs/cluster.md).

A read model beside the streams. `rummy:{<game>}:summary` holds status, round, version,
creation time, the time of its last append (`updated_ms`, what retention ages a game by:
service.retention) and whether the game waits on the workers. The sets of game ids are split
in INDEX_SHARDS shards (service.keys.index_shard): shard n holds, for its games, sorted sets
scored by creation time in ms: `rummy:{games:<n>}:all`, one per status (`lobby` for status
"waiting"), `waiting` (the games waiting on the workers: a bot, the scoring of a round, a
buy-offer deadline; the sweeper's work list), `unlisted`, and the hash `versions` (the
version each game's memberships were last set at).

An update is two scripts, each on one slot: SUMMARY_LUA sets the summary unless it holds a
newer version and returns what it holds; then SHARD_LUA puts the game in the sets of that
status and waiting flag unless the shard already applied a newer version. Both only move
forward by version, so concurrent updates of a game converge on the newest; a crash between
the two leaves the shard behind its summary, which `repair` (the sweeper, retention) and the
game's next update fix. A listing filters by the summaries, so a shard behind never lists a
game under a status it left. Pages merge the shards newest first; the cursor is opaque
(creation ms and id of the last item).
"""
from __future__ import annotations

import heapq
import time
from typing import Iterator

import redis

from service.clock import rfc3339
from service.keys import INDEX_SHARDS, events_key, index_key, index_shard, summary_key
from service.pages import decode_cursor, encode_cursor
from service.redis_store import backend_errors

STATUSES = ("waiting", "playing", "scoring", "finished", "aborted", "expired")
ENDED = ("finished", "aborted", "expired")
MAX_LIMIT = 100
ALL = "all"  # every game of a shard
WAITING = "waiting"  # the set of the games waiting on the workers (not the lobby's status)
# The set of the games of status "waiting" (a lobby, domain.lobby): `waiting` was the workers'
# set before that status existed, so that status's set has another name.
LOBBY_SET = "lobby"
# The games that are not listed (visibility unlisted or private): a sorted set like the others.
UNLISTED_SET = "unlisted"
VERSIONS = "versions"  # hash game id -> the version its memberships were set at
# KEYS: the summary. ARGV: version, status, round ("" = none), waiting ("1"/"0"), created ms
# ("" = the summary's), updated ms (the time of this append). Sets the summary unless it holds
# a newer version. Returns {version, status, waiting, created} as the summary holds them, or
# nil when it has no creation time (it cannot be listed).
SUMMARY_LUA = """
if ARGV[5] ~= '' then
  redis.call('HSETNX', KEYS[1], 'created_ms', ARGV[5])
end
local held = tonumber(redis.call('HGET', KEYS[1], 'version') or '-1')
if tonumber(ARGV[1]) > held then
  redis.call('HSET', KEYS[1], 'version', ARGV[1], 'status', ARGV[2], 'round', ARGV[3],
             'waiting', ARGV[4], 'updated_ms', ARGV[6])
end
local out = redis.call('HMGET', KEYS[1], 'version', 'status', 'waiting', 'created_ms')
if not out[4] or not out[2] then
  return false
end
return out
"""
# KEYS: a shard's keys in shard_keys order (versions, all, one set per status, waiting).
# ARGV: game id, version, index in KEYS of the status's set, waiting ("1"/"0"), created ms.
# Unless the shard applied a newer version of the game, puts it in `all`, in that status's set
# only, and in or out of `waiting`. Returns 1 when applied, 0 when the shard was newer.
SHARD_LUA = """
local game = ARGV[1]
local held = tonumber(redis.call('HGET', KEYS[1], game) or '-1')
if tonumber(ARGV[2]) < held then
  return 0
end
redis.call('HSET', KEYS[1], game, ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[5], game)
local chosen = tonumber(ARGV[3])
for i = 3, #KEYS - 1 do
  if i == chosen then
    redis.call('ZADD', KEYS[i], ARGV[5], game)
  else
    redis.call('ZREM', KEYS[i], game)
  end
end
if ARGV[4] == '1' then
  redis.call('ZADD', KEYS[#KEYS], ARGV[5], game)
else
  redis.call('ZREM', KEYS[#KEYS], game)
end
return 1
"""

def set_name(status: str) -> str:
    """The name of the set of the games of `status` (one of STATUSES) in a shard: the status,
    but LOBBY_SET for "waiting"."""
    return LOBBY_SET if status == "waiting" else status


def status_key(status: str, shard: int) -> str:
    """Shard `shard`'s sorted set of the games of `status` (one of STATUSES)."""
    return index_key(shard, set_name(status))


def shard_keys(shard: int) -> list[str]:
    """Shard `shard`'s keys in SHARD_LUA's KEYS order: versions, all, the set of each of
    STATUSES, waiting."""
    return [index_key(shard, VERSIONS), index_key(shard, ALL),
            *(status_key(status, shard) for status in STATUSES), index_key(shard, WAITING)]


def index_keys(game_id: str) -> list[str]:
    """Every index key that may hold `game_id`: its summary, then its shard's keys
    (shard_keys), then its shard's unlisted set."""
    shard = index_shard(game_id)
    return [summary_key(game_id), *shard_keys(shard), index_key(shard, UNLISTED_SET)]


class GameIndex:
    """Listing of games by creation time, filtered by status, paged with a cursor, over the
    index shards (a single Redis or a Cluster alike)."""

    def __init__(self, client: redis.Redis) -> None:
        self._client = client
        self._summary = client.register_script(SUMMARY_LUA)
        self._shard = client.register_script(SHARD_LUA)

    def add(self, game_id: str, created_ms: int, version: int, status: str, round_: int | None,
            waiting: bool = False) -> None:
        """Index a new game."""
        self.update(game_id, version, status, round_, created_ms, waiting=waiting)

    def update(self, game_id: str, version: int, status: str, round_: int | None,
               created_ms: int | None = None, waiting: bool = False) -> str | None:
        """Record the game at `version` (ignored when the summary holds a newer one), `waiting`
        whether it waits on the workers then (service.followups.needs): the summary (with
        `updated_ms`, now), then its shard's sets from what the summary holds (two scripts,
        see the module docstring). Returns the status the summary holds (None: the game has
        no creation time)."""
        args = [version, status, "" if round_ is None else round_, int(bool(waiting)),
                "" if created_ms is None else created_ms, int(time.time() * 1000)]
        with backend_errors():
            held = self._summary(keys=[summary_key(game_id)], args=args)
            if not held:
                return None
            self._apply(game_id, *held)
        return held[1].decode()

    def repair(self, game_id: str) -> str | None:
        """Make the game's shard hold what its summary holds (after a crash between the two
        steps of `update`). Returns the summary's status, None without a listable summary."""
        with backend_errors():
            held = self._client.hmget(summary_key(game_id), "version", "status", "waiting",
                                      "created_ms")
            if held[1] is None or held[3] is None:
                return None
            self._apply(game_id, *held)
        return held[1].decode()

    def _apply(self, game_id: str, version: bytes, status: bytes, waiting: bytes,
               created: bytes) -> None:
        """SHARD_LUA with what the summary holds; an ended game never waits on the workers."""
        name = status.decode()
        keys = shard_keys(index_shard(game_id))
        chosen = 3 + STATUSES.index(name) if name in STATUSES else 0  # 1-based, after versions, all
        waits = waiting == b"1" and name not in ENDED
        self._shard(keys=keys, args=[game_id, int(version), chosen, int(waits), int(created)])

    def drop(self, game_id: str) -> None:
        """Take `game_id` out of every set of its shard (retention, once its keys are gone)."""
        shard = index_shard(game_id)
        pipe = self._client.pipeline(transaction=True)
        pipe.hdel(index_key(shard, VERSIONS), game_id)
        for key in [*shard_keys(shard)[1:], index_key(shard, UNLISTED_SET)]:
            pipe.zrem(key, game_id)
        with backend_errors():
            pipe.execute()

    def unlist(self, game_id: str, created_ms: int) -> None:
        """Keep `game_id` out of every page (`page`): an unlisted or private game
        (service.records.VISIBILITIES)."""
        with backend_errors():
            self._client.zadd(index_key(index_shard(game_id), UNLISTED_SET),
                              {game_id: created_ms})

    def created_before(self, status: str, before_ms: int, limit: int = 100) -> list[str]:
        """Up to `limit` ids of the games of `status` created at or before `before_ms`, oldest
        first (the sweeper's expired lobbies), merged from every shard."""
        pipe = self._client.pipeline(transaction=False)
        for shard in range(INDEX_SHARDS):
            pipe.zrangebyscore(status_key(status, shard), "-inf", before_ms, start=0,
                               num=limit, withscores=True)
        with backend_errors():
            batches = pipe.execute()
        merged = heapq.merge(*([(score, m.decode()) for m, score in batch] for batch in batches))
        return [game_id for _, game_id in merged][:limit]

    def waiting(self, batch: int = 100) -> Iterator[str]:
        """The ids of the games waiting on the workers, shard by shard (each at least once; the
        sets may change while they are walked)."""
        for shard in range(INDEX_SHARDS):
            with backend_errors():
                members = list(self._client.zscan_iter(index_key(shard, WAITING), count=batch))
            for member, _ in members:
                yield member.decode()

    def count(self, status: str) -> int:
        """How many games the shards hold under `status` (ZCARD of each, summed)."""
        pipe = self._client.pipeline(transaction=False)
        for shard in range(INDEX_SHARDS):
            pipe.zcard(status_key(status, shard))
        with backend_errors():
            return sum(pipe.execute())

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
        ids = self._ids_after(set_name(status) if status else ALL, after, limit + 1)
        items = self._summaries(ids[:limit])
        if status is not None:
            items = [item for item in items if item["status"] == status]
        more = len(ids) > limit
        last = ids[limit - 1] if more else None
        return {"items": items, "next_cursor": encode_cursor(*last) if last else None}

    def _ids_after(self, name: str, after: tuple[int, str] | None,
                   count: int) -> list[tuple[int, str]]:
        """Up to `count` (created_ms, id) strictly after `after` in (score desc, id desc) order
        from the sets `name` of every shard, leaving out the unlisted games: each round reads
        the next batch of every shard still short of `count` in one pipeline."""
        found: dict[int, list[tuple[int, str]]] = {shard: [] for shard in range(INDEX_SHARDS)}
        offsets = dict.fromkeys(found, 0)
        high = "+inf" if after is None else after[0]
        while offsets:
            shards = list(offsets)
            pipe = self._client.pipeline(transaction=False)
            for shard in shards:
                pipe.zrevrangebyscore(index_key(shard, name), high, "-inf", start=offsets[shard],
                                      num=count, withscores=True)
            with backend_errors():
                batches = pipe.execute()
                hidden = self._unlisted(dict(zip(shards, batches)))
            for shard, batch in zip(shards, batches):
                for (member, score), unlisted in zip(batch, hidden.get(shard, ())):
                    item = (int(score), member.decode())
                    if unlisted is None and (after is None or item < after):
                        found[shard].append(item)
                offsets[shard] += len(batch)
                if len(batch) < count or len(found[shard]) >= count:
                    del offsets[shard]
        return heapq.nlargest(count, (item for items in found.values() for item in items))

    def _unlisted(self, batches: dict[int, list]) -> dict[int, list]:
        """Per shard, the unlisted set's score of each member of its batch (None: listed)."""
        pipe = self._client.pipeline(transaction=False)
        shards = [shard for shard, batch in batches.items() if batch]
        for shard in shards:
            pipe.zmscore(index_key(shard, UNLISTED_SET), [member for member, _ in batches[shard]])
        return dict(zip(shards, pipe.execute())) if shards else {}

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
            created = rfc3339(created_ms)
            items.append({"id": game_id, "status": raw[b"status"].decode(),
                          "round": int(raw[b"round"]) if raw.get(b"round") else None,
                          "version": version, "created": created})
        return items
