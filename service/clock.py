"""The turn clock (docs/clock.md): a game's clock settings, the deadline of what the game
awaits from a human seat, and the sorted set of due deadlines the workers poll.

The domain never reads time. Every stored event carries `recorded_at` (the Redis server's TIME
in ms, stamped by the append script); a deadline is the `recorded_at` of the event that made
the seat awaited plus the clock's seconds: `turn_s` for a turn (draw and play together;
the clock starts again when a buy offer of that turn closes, since the seat could not act
while it was open) and `offer_s` for a buy offer. Times are integer ms since the epoch in
the store, RFC 3339 UTC with ms in the API (`rfc3339`).
"""
from __future__ import annotations

import math
import re
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Callable, Iterable

import redis

from domain import awaiting
from domain.events import ClockSet
from domain.bots import BOT_LEVELS
from service.keys import deadline_versions_key, deadlines_key
from service.redis_store import backend_errors

DEFAULT_TURN_S = 60
DEFAULT_TIMEOUTS_BEFORE_TAKEOVER = 2
DEFAULT_TAKEOVER_LEVEL = "basic"
MAX_TURN_S = 86400
MAX_OFFER_S = 3600
MAX_TIMEOUTS_BEFORE_TAKEOVER = 100
# The events that begin a game's play: its position, then the clock set after it. An offer's
# or a claim's clock also starts there, when the position has one open: without that, a
# silent human left such a game waiting forever.
LOADED_OPEN = frozenset({"PositionLoaded", "ClockSet"})
# The events after which a turn's clock starts: the turn began (a discard passed it on, a deal,
# a deck waiting for its cut, the game's play), its human took the seat back, or its offer or
# Shanghai claim closed.
TURN_STARTS = frozenset({"CardDiscarded", "RoundDealt", "SeatReclaimed", "OfferClosed",
                         "DeckShuffled", "ClaimClosed"}) | LOADED_OPEN
OFFER_STARTS = frozenset({"OfferOpened"}) | LOADED_OPEN
CLAIM_STARTS = frozenset({"ClaimOpened"}) | LOADED_OPEN  # a claim lasts as long as an offer
SCAN_BACK = 64
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def rfc3339(ms: int | None) -> str | None:
    """`ms` since the epoch as RFC 3339 UTC with milliseconds (`2026-11-30T20:36:49.123Z`);
    the year has its four digits (`0001-01-01T00:00:00.000Z`: strftime's %Y drops the zeros)."""
    if ms is None:
        return None
    moment = _EPOCH + timedelta(milliseconds=ms)  # exact, where ms / 1000 is a float
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


# RFC 3339 §5.6 date-time: full-date "T" (or a space, §5.6's note) partial-time time-offset.
# datetime.fromisoformat alone takes ISO 8601 forms RFC 3339 has not: basic format, week dates,
# hours without minutes, an empty fraction ("00:00:00.Z").
RFC3339 = re.compile(r"\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})",
                     re.ASCII)


def parse_rfc3339(text: str) -> int:
    """An RFC 3339 date-time with an offset (`Z` or `+01:00`) as ms since the epoch (a finer
    fraction is cut to ms). A leap second (`23:59:60Z`, §5.6) counts as the second after
    :59, as POSIX time does. Raises ValueError for anything else: a missing offset, a
    date or time out of range, ISO 8601 forms RFC 3339 does not take."""
    matched = RFC3339.fullmatch(text) if isinstance(text, str) else None
    if matched is None:
        raise ValueError(f"{str(text)[:40]!r} is not an RFC 3339 date-time with an offset "
                         f"(e.g. 2026-12-01T20:15:00.000Z)")
    leap = matched.group(1) == "60"
    if leap:
        text = text[:matched.start(1)] + "59" + text[matched.end(1):]
    try:
        moment = datetime.fromisoformat(text.upper().replace("Z", "+00:00"))
    except ValueError:
        raise ValueError(f"{text[:40]!r} is not a date-time of the calendar") from None
    return math.floor(moment.timestamp() * 1000) + (1000 if leap else 0)


def clock_event(requested: dict | None, offer_default_s: float) -> ClockSet:
    """The ClockSet of a new game: `requested` (a partial object; None: all defaults) over the
    defaults `{"turn_s": 60, "offer_s": RUMMY_OFFER_DEADLINE_S (rounded up), "timeouts_before_
    takeover": 2, "takeover_level": "basic"}`. Raises ValueError naming the field: `turn_s`
    1-86400 or null, `offer_s` 1-3600, `timeouts_before_takeover` 1-100, a bot level."""
    values = {"turn_s": DEFAULT_TURN_S, "offer_s": max(1, math.ceil(offer_default_s)),
              "timeouts_before_takeover": DEFAULT_TIMEOUTS_BEFORE_TAKEOVER,
              "takeover_level": DEFAULT_TAKEOVER_LEVEL}
    unknown = set(requested or {}) - set(values)
    if unknown:
        raise ValueError(f"clock.{sorted(unknown)[0]} is not a clock setting")
    values.update(requested or {})
    _whole("turn_s", values["turn_s"], 1, MAX_TURN_S, nullable=True)
    _whole("offer_s", values["offer_s"], 1, MAX_OFFER_S)
    _whole("timeouts_before_takeover", values["timeouts_before_takeover"], 1,
           MAX_TIMEOUTS_BEFORE_TAKEOVER)
    if values["takeover_level"] not in BOT_LEVELS:
        raise ValueError(f"clock.takeover_level must be one of {', '.join(BOT_LEVELS)}")
    return ClockSet(**values)


def _whole(name: str, value: object, low: int, high: int, nullable: bool = False) -> None:
    if value is None and nullable:
        return
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        null = " or null" if nullable else ""
        raise ValueError(f"clock.{name} must be an integer from {low} to {high}{null}")


@dataclass(frozen=True)
class Deadline:
    """A decision awaited from human seats: `due_ms` (ms since the epoch), `kind` "turn",
    "offer" or "claim" (a Shanghai claim window, R11.18), the `seats` it is awaited from."""

    due_ms: int
    kind: str
    seats: tuple[int, ...]


# Recent events of a game, newest first, as (type, recorded_at ms or None) pairs.
Recent = Iterable[tuple[str, "int | None"]]


def deadline(state, humans: Iterable[int], recent: Recent,
             offer_default_s: float) -> Deadline | None:
    """The deadline of what `state` awaits from the seats played by their humans (`humans`),
    or None (nothing awaited from a human, no turn clock, or the start lies before times were
    recorded). A game without a clock (created before clocks) has no turn clock and its offers
    last `offer_default_s`."""
    wait = awaiting(state)
    owed = tuple(seat for seat in wait.seats if seat in set(humans))
    if wait.status != "playing" or not owed:
        return None
    clock = state.clock
    if wait.phase == "buying":
        seconds, starts, kind = (clock.offer_s if clock else offer_default_s), OFFER_STARTS, "offer"
    elif wait.phase == "claim":
        seconds, starts, kind = (clock.offer_s if clock else offer_default_s), CLAIM_STARTS, "claim"
    elif clock is None or clock.turn_s is None:
        return None
    else:
        seconds, starts, kind = clock.turn_s, TURN_STARTS, "turn"
    for event_type, recorded_at in recent:
        if event_type in starts:
            if recorded_at is None:
                return None
            return Deadline(recorded_at + math.ceil(seconds * 1000), kind, owed)
    return None


def recent_events(store, game_id: str, version: int) -> Iterable[tuple[str, int | None]]:
    """The game's events up to `version`, newest first, read SCAN_BACK at a time."""
    upto = version
    while upto > 0:
        batch = store.read(game_id, after=max(0, upto - SCAN_BACK), upto=upto)
        for event in reversed(batch):
            yield event.type, event.recorded_at
        upto -= SCAN_BACK


# KEYS: deadlines_key, deadline_versions_key. ARGV: game id, version, due ms ("" = none).
# Keeps the entry of the newest version only; with no deadline the member goes, its version
# stays (so a late write of an older version cannot bring back a stale entry).
SET_LUA = """
local held = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '-1')
if tonumber(ARGV[2]) < held then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
if ARGV[3] == '' then
  redis.call('ZREM', KEYS[1], ARGV[1])
else
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
end
return 1
"""
# KEYS: deadlines_key, deadline_versions_key. ARGV: lease ms, limit. Claims the entries due by
# the server's TIME: each is returned with its version and its score moved `lease` ms ahead,
# atomically, so of many pollers exactly one gets a due entry, and gets it again only if the
# timeout has not replaced it by then (a lost job). Returns {now, game, version, game, ...}.
CLAIM_LUA = """
local clock = redis.call('TIME')
local now = clock[1] .. string.format('%03d', math.floor(tonumber(clock[2]) / 1000))
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, tonumber(ARGV[2]))
local out = {now}
for _, game in ipairs(due) do
  redis.call('ZADD', KEYS[1], tonumber(now) + tonumber(ARGV[1]), game)
  out[#out + 1] = game
  out[#out + 1] = redis.call('HGET', KEYS[2], game) or '0'
end
return out
"""


class DeadlineSchedule:
    """The due deadlines in Redis: `rummy:{deadlines}:due` (game id scored by due ms) and its
    versions hash (service.keys). Replaced after every append (`set`), claimed by the workers'
    poller (`claim`). `now_ms()` is the Redis server's time, the clock of `recorded_at`."""

    CLEARED_KEPT = 4096  # games remembered as cleared by this process (LRU)

    def __init__(self, client: redis.Redis) -> None:
        self._client = client
        self._set = client.register_script(SET_LUA)
        self._claim = client.register_script(CLAIM_LUA)
        self._cleared: OrderedDict[str, int] = OrderedDict()  # game -> version cleared at
        self._lock = threading.Lock()

    def set(self, game_id: str, version: int, due_ms: int | None,
            since: int | None = None) -> bool:
        """The game at `version` is due at `due_ms` (None: nothing awaited from a human:
        the entry goes). False when a newer version's entry is already there.
        `since`: the version the append that made `version` started from. When this process
        cleared the game's entry at exactly that version, no other append came between (it
        would have moved the game past it), so there is nothing to clear again and no Redis
        call is made: a bot game's appends, one after the other, cost no deadline write."""
        with self._lock:
            if due_ms is None and since is not None and self._cleared.get(game_id) == since:
                self._cleared[game_id] = version
                self._cleared.move_to_end(game_id)
                return True
            self._cleared.pop(game_id, None)
        with backend_errors():
            done = bool(self._set(keys=[deadlines_key(), deadline_versions_key()],
                                  args=[game_id, version, "" if due_ms is None else due_ms]))
        if done and due_ms is None:
            with self._lock:
                self._cleared[game_id] = version
                if len(self._cleared) > self.CLEARED_KEPT:
                    self._cleared.popitem(last=False)
        return done

    def forget(self, game_id: str) -> None:
        """Drop the game's entry and version (a finished or aborted game)."""
        with backend_errors():
            pipe = self._client.pipeline()
            pipe.zrem(deadlines_key(), game_id)
            pipe.hdel(deadline_versions_key(), game_id)
            pipe.execute()

    def due(self, game_id: str) -> tuple[int, int] | None:
        """(due ms, version) of the game's entry, or None."""
        with backend_errors():
            score = self._client.zscore(deadlines_key(), game_id)
            version = self._client.hget(deadline_versions_key(), game_id)
        return None if score is None else (int(score), int(version or 0))

    def claim(self, lease_ms: int, limit: int = 100) -> tuple[int, list[tuple[str, int]]]:
        """(server now in ms, [(game id, version)] of the entries due by then), each leased for
        `lease_ms` (see CLAIM_LUA)."""
        with backend_errors():
            reply = self._claim(keys=[deadlines_key(), deadline_versions_key()],
                                args=[lease_ms, limit])
        now = int(reply[0])
        games = [(reply[i].decode(), int(reply[i + 1])) for i in range(1, len(reply), 2)]
        return now, games

    def now_ms(self) -> int:
        """The Redis server's time in ms since the epoch."""
        with backend_errors():
            seconds, micros = self._client.time()
        return seconds * 1000 + micros // 1000


class DeadlineCache:
    """Deadlines by (game, version), kept for the last `size` versions asked: a version's
    deadline never changes (its events and their times are fixed), so views read it once."""

    def __init__(self, size: int = 4096) -> None:
        self._items: OrderedDict[tuple[str, int], Deadline | None] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def get(self, game_id: str, version: int,
            compute: Callable[[], Deadline | None]) -> Deadline | None:
        """The cached deadline of (game, version), else `compute()` kept."""
        key = (game_id, version)
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
        value = compute()
        with self._lock:
            self._items[key] = value
            if len(self._items) > self._size:
                self._items.popitem(last=False)
        return value


class ServerClock:
    """The time of the Redis server (the clock of `recorded_at` and so of every deadline) as
    seen from this process: the local clock plus an offset measured with TIME at most every
    `refresh_s` seconds (half the round trip counted). Without a schedule: the local clock."""

    def __init__(self, schedule: DeadlineSchedule | None, refresh_s: float = 10.0) -> None:
        self._schedule = schedule
        self._refresh_s = refresh_s
        self._offset_ms = 0.0
        self._measured = -math.inf
        self._lock = threading.Lock()

    def now_ms(self) -> int:
        """The server's time now, ms since the epoch (the local clock if TIME fails)."""
        local = time.monotonic()
        if self._schedule is not None and local - self._measured >= self._refresh_s:
            with self._lock:
                if local - self._measured >= self._refresh_s:
                    self._measure()
        return int(time.time() * 1000 + self._offset_ms)

    def _measure(self) -> None:
        before = time.time() * 1000
        try:
            server = self._schedule.now_ms()
        except Exception:  # noqa: BLE001 - a header is no reason to fail a response
            self._measured = time.monotonic()
            return
        after = time.time() * 1000
        self._offset_ms = server - (before + after) / 2
        self._measured = time.monotonic()
