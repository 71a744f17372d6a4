"""The games whose next move is the workers' (a bot must act, or a round awaits its scoring):
a fair round-robin queue on the queue Redis (RUMMY_QUEUE_URL, else REDIS_URL; a single Redis,
never the Cluster: docs/cluster.md). docs/workers.md "Bot turns: the ready queue".

Keys, all of the hash tag `{ready}` so that each script touches one slot:
- `rummy:{ready}:games`: sorted set, game id -> when it became ready (the server's ms). A game
  readied by anything but a worker's own moves (a human's action, a deadline, a new game) is
  scored URGENT_MS earlier, so it goes before every game of bots waiting for its next slice.
- `rummy:{ready}:leased`: sorted set, game id -> when the lease of the worker playing it ends
  (ms). A lease that ends (its worker was killed) puts the game back at the tail.
- `rummy:{ready}:versions`: hash, game id -> the version it was readied at: a hint that lets a
  worker play on the state it holds without reading the stream. The append's expected
  version, not the hint, is what makes a move exactly once.
- `rummy:{ready}:owners`: hash, game id -> the turn loop that played its last slice (`take`
  prefers the games of its process, whose loops share their cached states, among the first
  WINDOW, so the cached state is current).
- `rummy:{ready}:skips`: hash, game id -> how many times a `take` passed it over at the head
  for a game of its own behind it; at MAX_SKIPS the head is taken (bounded unfairness).
- `rummy:{ready}:wake`: a list of at most WAKE_TOKENS tokens; an idle worker blocks on it.

A worker's round trip per two slices is one script (`take`): release the games it played (back
at the tail when they still await the workers), put back the games of lapsed leases, take the
next games at the head. Errors are redis-py's (the caller backs off and retries).
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

import redis

from service.connections import PinnedClient
from service.keys import PREFIX

GAMES, LEASED, VERSIONS, OWNERS, WAKE, SKIPS = (
    f"{PREFIX}:{{ready}}:{name}"
    for name in ("games", "leased", "versions", "owners", "wake", "skips"))
# A worker takes the first game it played last among the WINDOW at the head, else the head:
# its cached state is then current (no read of the stream). The head is passed over at most
# MAX_SKIPS times; a game behind it in the window may be passed over too (those skips are not
# counted), so a game waits at most about MAX_SKIPS x WINDOW slices more than strict FIFO
# would make it: bounded, so a game of a dead worker, or one both workers keep passing over,
# is not starved. With a
# window of 4 and no cap, 2 workers on 50 games switched a game between them in ~4% of the
# slices, and each switch made the taker read and fold the other's moves (~7 ms of CPU): 35
# ms per game, 7% of the worker's CPU (issue 12).
WINDOW = 8
MAX_SKIPS = 2
# How far ahead of the games of bots an urgent game goes: far more than any wait in the queue.
URGENT_MS = 3_600_000
WAKE_TOKENS = 2
DONE, TAIL, URGENT = 0, 1, 2  # what becomes of a game a worker releases (`take`)
LAPSED_PER_TAKE = 10

_NOW = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local function ms(value) return string.format('%.0f', value) end
local function hint(game, version)
  local held = tonumber(redis.call('HGET', KEYS[3], game) or '-1')
  if tonumber(version) > held then redis.call('HSET', KEYS[3], game, version) end
end
"""
# KEYS games, leased, versions, wake. ARGV game, version, urgent ("1"/"0"), URGENT_MS, wake
# tokens.
# Ready the game (an earlier score wins: ZADD LT), record the version hint, wake a worker.
MARK_LUA = _NOW + """
local score = now
if ARGV[3] == '1' then score = now - tonumber(ARGV[4]) end
redis.call('ZADD', KEYS[1], 'LT', ms(score), ARGV[1])
hint(ARGV[1], ARGV[2])
if redis.call('LLEN', KEYS[4]) < tonumber(ARGV[5]) then redis.call('RPUSH', KEYS[4], 1) end
return 1
"""
# KEYS games, leased, versions, owners, skips. ARGV lease ms, take ("1"/"0"), lapsed per take,
# URGENT_MS, worker id, window, max skips, games to take, group (the start of the owner ids
# the worker prefers: its process's loops; '' for its own id only), then (game, version,
# again: "0" done, "1" at the tail, "2" urgent) per game released (ignored unless this worker
# holds it). Returns {game, version hint or '-1', urgent "1"/"0", ...} of the games taken
# (each leased until now + lease ms), one at a time: an urgent game at the head, else the
# first of the window the worker's group owns unless the head was passed over max skips
# times already, else the head; or {}.
TAKE_LUA = _NOW + """
local function ours(owner)
  if not owner then return false end
  if ARGV[9] == '' then return owner == ARGV[5] end
  return string.sub(owner, 1, #ARGV[9]) == ARGV[9]
end
for i = 10, #ARGV, 3 do
  local game, again = ARGV[i], ARGV[i + 2]
  -- Only the game's holder releases it: a worker whose lease lapsed (an outage, a lost reply)
  -- must not end the lease of the worker that took the game since.
  if redis.call('HGET', KEYS[4], game) == ARGV[5] then
    redis.call('ZREM', KEYS[2], game)
    if again ~= '0' then
      local score = now + (i - 10) / 3  -- one ms apart: back in the order they were played
      if again == '2' then score = score - tonumber(ARGV[4]) end
      redis.call('ZADD', KEYS[1], 'LT', ms(score), game)
      hint(game, ARGV[i + 1])
    elseif not redis.call('ZSCORE', KEYS[1], game) then
      redis.call('HDEL', KEYS[3], game)
      redis.call('HDEL', KEYS[4], game)
      redis.call('HDEL', KEYS[5], game)
    end
  end
end
local lapsed = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ms(now), 'LIMIT', 0, ARGV[3])
for _, game in ipairs(lapsed) do
  redis.call('ZREM', KEYS[2], game)
  redis.call('ZADD', KEYS[1], 'NX', ms(now), game)
end
local taken = {}
if ARGV[2] ~= '1' then return taken end
for _ = 1, tonumber(ARGV[8]) do
  local head = redis.call('ZRANGE', KEYS[1], 0, tonumber(ARGV[6]) - 1, 'WITHSCORES')
  if #head == 0 then break end
  local game = head[1]
  local urgent = tonumber(head[2]) <= now - tonumber(ARGV[4]) / 2
  if not urgent then
    local games = {}
    for i = 1, #head, 2 do games[#games + 1] = head[i] end
    local owners = redis.call('HMGET', KEYS[4], unpack(games))
    for i = 1, #games do
      if ours(owners[i]) then game = games[i] break end
    end
    if game ~= games[1]
       and redis.call('HINCRBY', KEYS[5], games[1], 1) > tonumber(ARGV[7]) then
      game = games[1]
    end
  end
  redis.call('HDEL', KEYS[5], game)
  redis.call('ZREM', KEYS[1], game)
  redis.call('ZADD', KEYS[2], ms(now + tonumber(ARGV[1])), game)
  redis.call('HSET', KEYS[4], game, ARGV[5])
  taken[#taken + 1] = game
  taken[#taken + 1] = redis.call('HGET', KEYS[3], game) or '-1'
  taken[#taken + 1] = urgent and '1' or '0'  -- an urgent game is the head
end
return taken
"""
# KEYS games, leased, versions, wake. ARGV game, version, WAKE_TOKENS. Ready the game unless
# it is ready or leased already (the sweeper: an append whose `mark` was lost). 1 if readied.
ENSURE_LUA = _NOW + """
if redis.call('ZSCORE', KEYS[1], ARGV[1]) or redis.call('ZSCORE', KEYS[2], ARGV[1]) then
  return 0
end
redis.call('ZADD', KEYS[1], ms(now), ARGV[1])
hint(ARGV[1], ARGV[2])
if redis.call('LLEN', KEYS[4]) < tonumber(ARGV[3]) then redis.call('RPUSH', KEYS[4], 1) end
return 1
"""


class ReadyGames:
    """The ready queue on `client` (the queue Redis). Raises redis.RedisError when it cannot
    be reached."""

    def __init__(self, client: redis.Redis) -> None:
        self.client = client
        self._pinned: PinnedClient | None = None  # inside own_connection()
        self._mark = client.register_script(MARK_LUA)
        self._take = client.register_script(TAKE_LUA)
        self._ensure = client.register_script(ENSURE_LUA)

    def mark(self, game_id: str, version: int, urgent: bool = True) -> None:
        """`game_id` at `version` awaits the workers: queue it (ahead of the games of bots
        when `urgent`; a game already queued keeps the earlier place) and wake a worker."""
        self._mark(keys=[GAMES, LEASED, VERSIONS, WAKE],
                   args=[game_id, version, int(urgent), URGENT_MS, WAKE_TOKENS])

    def take(self, lease_ms: int, released: list[tuple[str, int, int]] = (),
             worker: str = "", take: bool = True, count: int = 1,
             group: str = "") -> list[tuple[str, int, bool]]:
        """Release the games of `released`: (game, version reached, DONE when it no longer
        awaits the workers, TAIL back at the tail, URGENT back ahead of the games of bots), put
        back the games whose lease ended, and (when `take`) lease up to `count` games for
        `lease_ms`, each the first of the WINDOW at the head that `worker` played last (with
        `group`: that a worker whose id starts with `group` played last, the loops of one
        process sharing their cached states), unless the head was passed over MAX_SKIPS times
        already, else the head. Returns [(game, version hint; -1 when unknown, whether it was
        taken urgent)] in the order taken, [] when no game is ready. One round trip."""
        args: list = [lease_ms, int(take), LAPSED_PER_TAKE, URGENT_MS, worker, WINDOW,
                      MAX_SKIPS, count, group]
        for game_id, version, again in released:
            args += [game_id, version, again]
        reply = self._take(keys=[GAMES, LEASED, VERSIONS, OWNERS, SKIPS], args=args,
                           client=self._pinned and self._pinned.get())
        return [(reply[i].decode(), int(reply[i + 1]), reply[i + 2] == b"1")
                for i in range(0, len(reply), 3)]

    @contextmanager
    def own_connection(self) -> Iterator[None]:
        """Within the block, `take` holds one connection of the pool (a turn loop, whose own
        ReadyGames this is: service.connections.PinnedClient) instead of one per call; a
        nested block holds its own and gives the outer one back its place."""
        outer, self._pinned = self._pinned, PinnedClient(self.client)
        try:
            yield
        finally:
            pinned, self._pinned = self._pinned, outer
            pinned.close()

    def ensure(self, game_id: str, version: int) -> bool:
        """Queue `game_id` at the tail unless it is queued or leased; True if it was not."""
        return bool(self._ensure(keys=[GAMES, LEASED, VERSIONS, WAKE],
                                 args=[game_id, version, WAKE_TOKENS]))

    def held(self, game_ids: list[str]) -> set[str]:
        """Those of `game_ids` that are queued or leased (one round trip)."""
        if not game_ids:
            return set()
        pipe = self.client.pipeline(transaction=False)
        pipe.zmscore(GAMES, game_ids)
        pipe.zmscore(LEASED, game_ids)
        queued, leased = pipe.execute()
        return {game_id for game_id, q, l in zip(game_ids, queued, leased)
                if q is not None or l is not None}

    def wait(self, timeout_s: float) -> None:
        """Block until a game is readied (a wake token) or `timeout_s` passes."""
        self.client.blpop([WAKE], timeout=timeout_s)

    def queued(self) -> list[str]:
        """The ids of the games queued, head first (tests, diagnosis)."""
        return [member.decode() for member in self.client.zrange(GAMES, 0, -1)]

    def leased(self) -> list[str]:
        """The ids of the games a worker holds now."""
        return [member.decode() for member in self.client.zrange(LEASED, 0, -1)]
