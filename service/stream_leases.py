"""Caps on concurrent long-lived connections (SSE streams, long polls), counted in Redis so that
every API process of a deployment counts the same (docs/streams.md "Caps").

Each holder (a credential, or a client address for anonymous callers) has a sorted set
`rummy:streams:<holder>` of lease ids scored by their expiry in Redis server milliseconds. A
lease is taken only while the holder has fewer than its cap of live leases, renewed while the
connection lives and released when it closes; a process that dies leaves its leases to expire
after `lease_s`, so a crash never locks a client out for longer than that.
"""
from __future__ import annotations

import hashlib
import secrets

import redis

from service.redis_store import backend_errors

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
    """Leases of long-lived connections per holder, `lease_s` seconds each unless renewed.

    Raises StoreUnavailable / StoreError (service.store) when Redis fails.
    """

    def __init__(self, client: redis.Redis, lease_s: float) -> None:
        self._script = client.register_script(LEASE_LUA)
        self._client = client
        self.lease_s = lease_s

    def acquire(self, holder: str, cap: int) -> str | None:
        """A new lease id for `holder`, or None when it already holds `cap` live leases."""
        lease = secrets.token_hex(8)
        with backend_errors():
            held = self._script(keys=[PREFIX + holder], args=[lease, self._lease_ms(), cap])
        return lease if held else None

    def renew(self, holder: str, lease: str) -> bool:
        """Extend `lease` by `lease_s` from now; False when it had expired (it stays gone)."""
        with backend_errors():
            return bool(self._script(keys=[PREFIX + holder], args=[lease, self._lease_ms(), 0]))

    def release(self, holder: str, lease: str) -> None:
        """Give `lease` back (releasing twice is harmless)."""
        with backend_errors():
            self._client.zrem(PREFIX + holder, lease)

    def _lease_ms(self) -> int:
        return max(1, int(self.lease_s * 1000))
