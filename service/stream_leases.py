"""Caps on concurrent long-lived connections (SSE streams, long polls), counted in Redis so that
every API process of a deployment counts the same (docs/streams.md "Caps").

Each holder (a credential, or a client address for anonymous callers) has a sorted set
`rummy:streams:<holder>` of lease ids scored by their expiry in Redis server milliseconds. A
lease is taken only while the holder has fewer than its cap of live leases, renewed while the
connection lives and released when it closes; a process that dies leaves its leases to expire
after `lease_s`, so a crash never locks a client out for longer than that.

A released lease is kept warm in its process for `reuse_s` (1 s) before it is removed from
Redis: a long poll that answered comes back at once on the same keep-alive connection, hence
to the same process, and takes its holder's warm lease again without a Redis command (an
EVALSHA to take and a ZREM to give back per long poll were a third of an API process's CPU
when 2,000 held connections woke together). Warm leases still count: another process sees
the place taken until it is reaped, at most `reuse_s` plus one reaper pass after the release.
"""
from __future__ import annotations

import hashlib
import logging
import secrets
import threading
import time

import redis

from service.redis_store import backend_errors
from service.store import StoreError

log = logging.getLogger(__name__)
REUSE_S = 1.0  # a released lease stays warm this long for its holder's next connection

PREFIX = "rummy:streams:"
# KEYS[1] the holder's set; ARGV[1] lease id, ARGV[2] lease ms, ARGV[3] cap (0: renew only).
# Drops expired leases, then takes (or, with cap 0, renews an existing) lease. Returns 1 when
# the lease is held, 0 when the holder is at its cap (or the lease to renew is gone).
LEASE_LUA = """#!lua
local now = redis.call('TIME')
local now_ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local key, lease, lease_ms, cap = KEYS[1], ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now_ms)
if cap == 0 then
  if not redis.call('ZSCORE', key, lease) then return 0 end
elseif redis.call('ZCARD', key) >= cap then
  return 0
end
redis.call('ZADD', key, now_ms + lease_ms, lease)
redis.call('PEXPIRE', key, lease_ms)
return 1
"""


def credential_holder(bearer: str) -> str:
    """The holder name of a bearer token: a digest, so no token is ever written to Redis."""
    return "credential:" + hashlib.sha256(bearer.encode()).hexdigest()[:32]


def address_holder(address: str) -> str:
    """The holder name of an anonymous client address."""
    return "address:" + address


class StreamLeases:
    """Leases of long-lived connections per holder, `lease_s` seconds each unless renewed;
    a released lease is reused by its holder's next acquire in this process within `reuse_s`
    seconds (0: removed at once), then removed from Redis by a reaper thread (a greenlet
    under gevent).

    Raises StoreUnavailable / StoreError (service.store) when Redis fails.
    """

    def __init__(self, client: redis.Redis, lease_s: float, reuse_s: float = REUSE_S) -> None:
        self._script = client.register_script(LEASE_LUA)
        self._client = client
        self.lease_s = lease_s
        self.reuse_s = reuse_s
        self._lock = threading.Lock()
        # holder -> [(lease, monotonic time of release, monotonic time of its last renewal)]
        self._warm: dict[str, list[tuple[str, float, float]]] = {}
        self._renewed: dict[str, float] = {}  # lease -> monotonic time of its last renewal
        self._reaper: threading.Thread | None = None

    def acquire(self, holder: str, cap: int) -> str | None:
        """A lease id for `holder` (a warm one of this process if any, else a new one), or
        None when it already holds `cap` live leases."""
        warm = self._take_warm(holder)
        if warm is not None:
            lease, renewed = warm
            # One past half its term is renewed first, as a held one would have been.
            if time.monotonic() - renewed < self.lease_s / 2 or self.renew(holder, lease):
                return lease
            with self._lock:
                self._renewed.pop(lease, None)  # expired meanwhile: take a new one
        lease = secrets.token_hex(8)
        with backend_errors():
            held = self._script(keys=[PREFIX + holder], args=[lease, self._lease_ms(), cap])
        if not held:
            return None
        with self._lock:
            self._renewed[lease] = time.monotonic()
        return lease

    def renew(self, holder: str, lease: str) -> bool:
        """Extend `lease` by `lease_s` from now; False when it had expired (it stays gone)."""
        with backend_errors():
            held = bool(self._script(keys=[PREFIX + holder],
                                     args=[lease, self._lease_ms(), 0]))
        with self._lock:
            if lease in self._renewed:
                self._renewed[lease] = time.monotonic()
        return held

    def release(self, holder: str, lease: str) -> None:
        """Give `lease` back (releasing twice is harmless): kept warm for `holder`'s next
        acquire in this process for `reuse_s`, then removed from Redis."""
        with self._lock:
            renewed = self._renewed.pop(lease, None)
        if self.reuse_s <= 0 or renewed is None:  # not taken here: nothing to keep warm
            self._remove({holder: [lease]})
            return
        with self._lock:
            self._warm.setdefault(holder, []).append((lease, time.monotonic(), renewed))
            if self._reaper is None:
                self._reaper = threading.Thread(target=self._reap_forever, daemon=True,
                                                name="rummy-stream-leases")
                self._reaper.start()

    def flush(self, older_than_s: float = 0.0) -> int:
        """Remove from Redis the warm leases released more than `older_than_s` seconds ago;
        how many. Errors are logged: those leases then expire on their own."""
        now, gone = time.monotonic(), {}
        with self._lock:
            for holder, warm in list(self._warm.items()):
                kept, due = [], []
                for entry in warm:
                    (kept if now - entry[1] < older_than_s else due).append(entry)
                if due:
                    gone[holder] = [lease for lease, _, _ in due]
                if kept:
                    self._warm[holder] = kept
                else:
                    del self._warm[holder]
        if gone:
            try:
                self._remove(gone)
            except StoreError:
                log.warning("%d stream leases not released; they expire",
                            sum(map(len, gone.values())))
        return sum(map(len, gone.values()))

    def _take_warm(self, holder: str) -> tuple[str, float] | None:
        """(a warm lease of `holder`, when it was last renewed), now held again; or None."""
        with self._lock:
            warm = self._warm.get(holder)
            if not warm:
                return None
            lease, _, renewed = warm.pop()
            if not warm:
                del self._warm[holder]
            self._renewed[lease] = renewed
            return lease, renewed

    def _remove(self, leases: dict[str, list[str]]) -> None:
        """ZREM every holder's leases, in one pipeline (split by node on a Cluster)."""
        pipeline = self._client.pipeline(transaction=False)
        for holder, ids in leases.items():
            pipeline.zrem(PREFIX + holder, *ids)
        with backend_errors():
            pipeline.execute()

    def _reap_forever(self) -> None:
        while True:
            time.sleep(self.reuse_s / 2)
            self.flush(self.reuse_s)

    def renewed_at(self, lease: str) -> float | None:
        """Monotonic time of the last acquisition or renewal of a lease held in this process
        (None if it is not held here)."""
        with self._lock:
            return self._renewed.get(lease)

    def _lease_ms(self) -> int:
        return max(1, int(self.lease_s * 1000))
