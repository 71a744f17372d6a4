"""The event store on Redis Streams (DESIGN §4, docs/architecture.md §2).

One stream per game at `rummy:{<game>}:events` with explicit entry ids `0-<version>`; each
entry holds `type`, `schema` (left out when 1), `data` and `at` (recorded_at: the Redis
server's TIME in ms, the same for every event of one append; written as ms since the game's
first event on every event but that one, so reads after version 1 also fetch the first
event's `at` once per game and process), or, for the events service.compact_events has a
code for, the compact form `t` (the code), `d` (the data's values) and `a` (as `at`); reads
take both forms, in any mix. Appends run `append.lua`, which checks the idempotency
key and the expected version before its first XADD, then publishes the new version on
`rummy:{<game>}:notify` (service/notify.py); `claim.lua` and `release.lua` hold a key while its
request is decided. Streams are never trimmed. Backend errors surface as the store's own
exceptions.
"""
from __future__ import annotations

import json
import threading
import time
from contextlib import contextmanager
from importlib.resources import files
from typing import Iterator

import redis

from service.compact_events import compact, expand
from service.connections import PinnedClient, connect
from service.keys import events_key, idem_key, notify_channel
from service.notify import Notifier, shared_notifier
from service.shared_reads import SharedReads
from service.store import (AppendResult, ConcurrencyError, IdempotencyInProgress,
                           IdempotencyKeyReused, StoreError, StoreUnavailable, StoredEvent,
                           check_batch)

IDEMPOTENCY_TTL_S = 24 * 3600
# How long a claim on an idempotency key holds without an answer: far above a decision's
# milliseconds, short enough that a key whose claimant died is free again soon.
CLAIM_TTL_S = 10.0
MAX_WAIT_S = 60.0
APPEND_LUA, CLAIM_LUA, RELEASE_LUA = (files("service").joinpath(name).read_text()
                                     for name in ("append.lua", "claim.lua", "release.lua"))


@contextmanager
def backend_errors() -> Iterator[None]:
    """Translate redis-py errors: connection/timeout -> StoreUnavailable, others -> StoreError."""
    try:
        yield
    except (redis.ConnectionError, redis.TimeoutError) as error:
        raise StoreUnavailable(str(error)) from error
    except redis.RedisError as error:
        raise StoreError(str(error)) from error


# An `at` this large is a time since the epoch (a game's first event, or any event written
# before times were stored as offsets); smaller ones are ms since the game's first event.
ABSOLUTE_MS = 10**12
BASES_KEPT = 4096
# One encoder for every event's data: json.dumps with these options builds a new
# JSONEncoder on each call, a third of the cost of encoding a bot turn's small events.
_encode = json.JSONEncoder(separators=(",", ":"), sort_keys=True).encode


def _to_event(entry_id: bytes, fields: dict[bytes, bytes], base: int | None) -> StoredEvent:
    """The stored event of a stream entry; `base` is the `at` of the game's first event."""
    version = int(entry_id.split(b"-", 1)[1])
    at = entry_at(fields)
    if at is not None and at < ABSOLUTE_MS and base is not None:
        at += base
    code = fields.get(b"t")
    if code is not None:  # the compact form (service.compact_events)
        event_type, schema, data = expand(code, fields[b"d"])
        return StoredEvent(version, event_type, schema, data, at)
    return StoredEvent(version, fields[b"type"].decode(), int(fields.get(b"schema", 1)),
                       json.loads(fields[b"data"]), at)


def entry_at(fields: dict[bytes, bytes]) -> int | None:
    """The `at` of a stream entry's `fields` as stored (ms since the epoch on a game's first
    event and on entries of the oldest form, else ms since the first event), if it has one."""
    at = fields.get(b"a", fields.get(b"at"))
    return None if at is None else int(at)


def entry_type(fields: dict[bytes, bytes]) -> str:
    """The event type of a stream entry's `fields`, of either form."""
    code = fields.get(b"t")
    return fields[b"type"].decode() if code is None else expand(code, b"[]")[0]


def _first_at(entries: list) -> int | None:
    """The `at` of the first entry of `entries` (the game's first event), if it has one."""
    return entry_at(entries[0][1]) if entries else None


class RedisEventStore:
    """EventStore on Redis Streams.

    `client` serves appends and reads; `notifier` (service.notify) wakes `wait`, whose wait is
    capped at `max_wait_s` seconds. Idempotency keys live `idempotency_ttl_s` seconds once
    answered, `claim_ttl_s` seconds while claimed.
    """

    def __init__(self, client: redis.Redis, notifier: Notifier,
                 max_wait_s: float = MAX_WAIT_S, idempotency_ttl_s: int = IDEMPOTENCY_TTL_S,
                 claim_ttl_s: float = CLAIM_TTL_S) -> None:
        self._client = client
        self._notifier = notifier
        self._shared = SharedReads()
        self._bases: dict[str, int | None] = {}  # game -> the `at` of its first event
        self.max_wait_s = max_wait_s
        self._ttl_ms = idempotency_ttl_s * 1000
        self._claim_ttl_ms = max(1, int(claim_ttl_s * 1000))
        self._append = client.register_script(APPEND_LUA)
        self._own = threading.local()  # .client: a PinnedClient inside own_connection()
        self._claim = client.register_script(CLAIM_LUA)
        self._release = client.register_script(RELEASE_LUA)

    @classmethod
    def from_url(cls, url: str, max_wait_s: float = MAX_WAIT_S) -> "RedisEventStore":
        """A store with a default client for `url` (redis:// URL, or redis+cluster://:
        service.connections) and the process's notifier."""
        return cls(connect(url), shared_notifier(url), max_wait_s)

    @property
    def draining(self) -> bool:
        """True once `drain` ran (here or through service.notify.drain_all)."""
        return self._notifier.draining

    def drain(self) -> None:
        """See service.store.EventStore.drain: every wait returns now and from now on."""
        self._notifier.drain()

    @contextmanager
    def own_connection(self) -> Iterator[None]:
        """See service.store.EventStore.own_connection: this thread's appends hold one
        connection of the pool (service.connections.PinnedClient) until the block ends; a
        nested block holds its own and gives the outer one back its place."""
        outer = getattr(self._own, "client", None)
        self._own.client = pinned = PinnedClient(self._client)
        try:
            yield
        finally:
            self._own.client = outer
            pinned.close()

    def append(self, game_id: str, events: list[dict], expected_version: int,
               idempotency_key: str | None = None, fingerprint: str = "",
               claim: str = "") -> AppendResult:
        """See service.store.EventStore.append (one EVALSHA of append.lua)."""
        check_batch(events)
        keys = [events_key(game_id), notify_channel(game_id)]
        if idempotency_key is not None:
            keys.append(idem_key(game_id, idempotency_key))
        args: list = [expected_version, fingerprint, self._ttl_ms, claim]
        for event in events:
            short = compact(event["type"], event["schema"], event["data"])
            if short is None:
                args += [event["type"], event["schema"], _encode(event["data"])]
            else:  # schema "c": the compact form (append.lua)
                args += [short[0], "c", short[1]]
        pinned = getattr(self._own, "client", None)
        with backend_errors():
            status, version, *stamp = self._append(keys=keys, args=args,
                                                   client=pinned and pinned.get())
        if status == b"conflict":
            raise ConcurrencyError(expected_version, int(version))
        if status == b"reused":
            raise IdempotencyKeyReused(idempotency_key or "")
        if status == b"pending":
            raise IdempotencyInProgress(idempotency_key or "")
        if status == b"dup" or not events:
            return AppendResult(int(version), duplicate=status == b"dup")
        return AppendResult(int(version), recorded_at=int(stamp[0]))

    def read(self, game_id: str, after: int = 0, upto: int | None = None) -> list[StoredEvent]:
        """See service.store.EventStore.read (`XRANGE key (0-after 0-upto`)."""
        low = f"(0-{after}" if after > 0 else "-"
        high = "+" if upto is None else f"0-{upto}"
        if upto is not None and upto <= max(after, 0):
            return []
        key = events_key(game_id)
        with backend_errors():
            if low == "-" or game_id in self._bases:
                entries = self._client.xrange(key, low, high)
                first = entries if low == "-" else None
            else:  # the first event's time too: the others' are offsets from it
                pipe = self._client.pipeline(transaction=False)
                pipe.xrange(key, "-", "+", count=1)
                pipe.xrange(key, low, high)
                first, entries = pipe.execute()
        if first is not None and first:
            self._remember_base(game_id, _first_at(first))
        base = self._bases.get(game_id)
        return [_to_event(entry_id, fields, base) for entry_id, fields in entries]

    def _remember_base(self, game_id: str, at: int | None) -> None:
        if len(self._bases) >= BASES_KEPT:
            self._bases.clear()  # a cache: refilled by the next reads
        self._bases[game_id] = at

    def wait(self, game_id: str, after: int, timeout_s: float) -> list[StoredEvent]:
        """See service.store.EventStore.wait (at most `max_wait_s`). No blocking read: the
        stream is read with XRANGE now and whenever the notifier wakes this listener
        (service.notify); draining, it returns what there is."""
        if timeout_s <= 0 or self.draining:
            return self.read(game_id, after)
        deadline = time.monotonic() + min(timeout_s, self.max_wait_s)
        with self._notifier.listen(game_id) as woken:
            while True:
                woken.clear()
                # Every listener of the game wakes at once: one XRANGE serves all of them.
                fresh = (game_id, after, self._notifier.generation(game_id))
                events = self._shared.read(fresh, lambda: self.read(game_id, after))
                left = deadline - time.monotonic()
                if events or left <= 0 or self.draining:
                    return events
                woken.wait(left)

    def version(self, game_id: str) -> int:
        """See service.store.EventStore.version."""
        with backend_errors():
            last = self._client.xrevrange(events_key(game_id), "+", "-", count=1)
        return int(last[0][0].split(b"-", 1)[1]) if last else 0

    def claim(self, game_id: str, idempotency_key: str, fingerprint: str, claim: str) -> int | None:
        """See service.store.EventStore.claim (one EVALSHA of claim.lua)."""
        with backend_errors():
            status, version = self._claim(keys=[idem_key(game_id, idempotency_key)],
                                          args=[fingerprint, claim, self._claim_ttl_ms])
        if status == b"reused":
            raise IdempotencyKeyReused(idempotency_key)
        if status == b"pending":
            raise IdempotencyInProgress(idempotency_key)
        return int(version) if status == b"dup" else None

    def release(self, game_id: str, idempotency_key: str, claim: str) -> None:
        """See service.store.EventStore.release (one EVALSHA of release.lua)."""
        with backend_errors():
            self._release(keys=[idem_key(game_id, idempotency_key)], args=[claim])
