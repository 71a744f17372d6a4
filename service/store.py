"""The event store interface, its errors, and an in-memory store for unit tests (DESIGN §4).

A game's events form one stream numbered from version 1. An append names the version the
caller folded (`expected_version`); it writes the whole batch or nothing. The serialized
event form is the one of docs/architecture.md §1: `{"type", "schema", "data"}`.
"""
from __future__ import annotations

import threading
import time
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class StoredEvent:
    """One event as stored: `version` (1 = first event of the game), its serialized form, and
    `recorded_at`, the server time of its append in ms since the epoch (the envelope, never the
    domain event: fold ignores it; None for an event stored before times were recorded)."""

    version: int
    type: str
    schema: int
    data: dict
    recorded_at: int | None = None

    def to_dict(self) -> dict:
        """The serialized event plus `"version"`: `{"version", "type", "schema", "data"}`."""
        return {"version": self.version, "type": self.type, "schema": self.schema, "data": self.data}


@dataclass(frozen=True)
class AppendResult:
    """Outcome of an append: the stream's version after it; `duplicate` when the idempotency
    key had been seen (nothing appended, `version` is what the first call produced);
    `recorded_at` the server time (ms since the epoch) the events were recorded at (None for a
    duplicate or an empty batch: nothing was recorded)."""

    version: int
    duplicate: bool = False
    recorded_at: int | None = None


class StoreError(Exception):
    """Base of every error an event store raises (backend errors are translated to these)."""


class StoreUnavailable(StoreError):
    """The backend could not be reached or did not answer in time."""


class ConcurrencyError(StoreError):
    """The stream is not at the expected version (optimistic concurrency, DESIGN §4)."""

    def __init__(self, expected: int, actual: int) -> None:
        super().__init__(f"expected version {expected}, stream is at {actual}")
        self.expected = expected
        self.actual = actual


class IdempotencyKeyReused(StoreError):
    """An idempotency key came back with a different request fingerprint."""

    def __init__(self, key: str) -> None:
        super().__init__(f"idempotency key {key!r} was used for a different request")
        self.key = key


class IdempotencyInProgress(StoreError):
    """Another request with this idempotency key and fingerprint holds the key's claim and has
    not answered yet: retry after `retry_after_s` seconds for its answer."""

    def __init__(self, key: str, retry_after_s: int = 1) -> None:
        super().__init__(f"idempotency key {key!r} is held by a request still in progress")
        self.key = key
        self.retry_after_s = retry_after_s


class EventStore(Protocol):
    """Append-only per-game event streams with optimistic concurrency and idempotency keys."""

    def append(self, game_id: str, events: list[dict], expected_version: int,
               idempotency_key: str | None = None, fingerprint: str = "",
               claim: str = "") -> AppendResult:
        """Append `events` if the stream is at `expected_version`; all or nothing. Every
        event of the batch is stamped with the store's time (`StoredEvent.recorded_at`).

        With `idempotency_key`: a key already answered with this `fingerprint` returns its
        first result (`duplicate`), one claimed by another request than `claim` raises
        IdempotencyInProgress. Raises ConcurrencyError (nothing written), IdempotencyKeyReused,
        IdempotencyInProgress, StoreUnavailable. An empty batch writes nothing and returns the
        current version."""

    def read(self, game_id: str, after: int = 0, upto: int | None = None) -> list[StoredEvent]:
        """Events with `after < version <= upto` (`upto=None`: to the end), oldest first."""

    def wait(self, game_id: str, after: int, timeout_s: float) -> list[StoredEvent]:
        """Events after `after`, blocking up to `timeout_s` seconds until one exists; [] on
        timeout. Once draining, it returns what there is at once."""

    @property
    def draining(self) -> bool:
        """True once `drain` was called: the process is shutting down."""

    def drain(self) -> None:
        """Shutdown: every `wait`, running or to come, returns what there is at once, so long
        polls answer and SSE streams end (issue 7 item 3, docs/streams.md)."""

    def version(self, game_id: str) -> int:
        """The stream's last version (0 for an unknown game)."""

    def claim(self, game_id: str, idempotency_key: str, fingerprint: str, claim: str) -> int | None:
        """Claim the key for the request `fingerprint` before deciding it: None when the
        caller (`claim`, a random id of its request) now holds it, or the version the key's
        first append produced (answer that). Raises IdempotencyKeyReused when the key stands
        for another fingerprint, IdempotencyInProgress while another request holds it. A claim
        expires by itself after a short TTL (a claimant that died does not wedge the key)."""

    def release(self, game_id: str, idempotency_key: str, claim: str) -> None:
        """Drop the claim `claim` on the key if its request appended nothing (a retry is then
        decided afresh); a key already answered stays."""

    def own_connection(self) -> AbstractContextManager[None]:
        """A block within which the calling thread's appends may hold one backend connection
        instead of taking one per call (a turn loop, workers.turns); nothing else changes."""


def check_batch(events: list[dict]) -> None:
    """Raise ValueError unless every event has a str `type`, an int `schema` and a dict `data`."""
    for event in events:
        if not (isinstance(event.get("type"), str) and isinstance(event.get("schema"), int)
                and isinstance(event.get("data"), dict)):
            raise ValueError(f"not a serialized event: {event!r}")


@dataclass
class _KeyEntry:
    """What the in-memory store keeps of an idempotency key: its fingerprint, the version its
    append produced (None while claimed), the claim and when it lapses (monotonic seconds)."""

    fingerprint: str
    version: int | None = None
    claim: str | None = None
    claim_until: float = 0.0


class InMemoryEventStore:
    """EventStore in process memory with the Redis store's semantics (answered idempotency
    keys never expire here; claims lapse after `claim_ttl_s`; `recorded_at` is this process's
    clock). Thread safe; `wait` sleeps on a
    Condition notified by every append."""

    def __init__(self, claim_ttl_s: float = 10.0) -> None:
        self._streams: dict[str, list[StoredEvent]] = {}
        self._idem: dict[tuple[str, str], _KeyEntry] = {}
        self._claim_ttl_s = claim_ttl_s
        self._changed = threading.Condition()
        self.draining = False

    def _entry(self, game_id: str, key: str) -> _KeyEntry | None:
        """The key's entry, None when unseen or only claimed by a claim that lapsed."""
        entry = self._idem.get((game_id, key))
        if entry is not None and entry.version is None and entry.claim_until <= time.monotonic():
            del self._idem[(game_id, key)]
            return None
        return entry

    def append(self, game_id: str, events: list[dict], expected_version: int,
               idempotency_key: str | None = None, fingerprint: str = "",
               claim: str = "") -> AppendResult:
        """See EventStore.append."""
        check_batch(events)
        with self._changed:
            entry = None if idempotency_key is None else self._entry(game_id, idempotency_key)
            if entry is not None:
                if entry.fingerprint != fingerprint:
                    raise IdempotencyKeyReused(idempotency_key)
                if entry.version is not None:
                    return AppendResult(entry.version, duplicate=True)
                if entry.claim != claim:
                    raise IdempotencyInProgress(idempotency_key)
            stream = self._streams.get(game_id, [])
            if len(stream) != expected_version:
                raise ConcurrencyError(expected_version, len(stream))
            if not events:
                return AppendResult(expected_version)
            stream = self._streams.setdefault(game_id, [])
            now = int(time.time() * 1000)
            for offset, event in enumerate(events, start=1):
                stream.append(StoredEvent(expected_version + offset, event["type"],
                                          event["schema"], dict(event["data"]), now))
            if idempotency_key is not None:
                self._idem[(game_id, idempotency_key)] = _KeyEntry(fingerprint, len(stream))
            self._changed.notify_all()
            return AppendResult(len(stream), recorded_at=now)

    def read(self, game_id: str, after: int = 0, upto: int | None = None) -> list[StoredEvent]:
        """See EventStore.read."""
        with self._changed:
            end = None if upto is None else max(upto, 0)
            return self._streams.get(game_id, [])[max(after, 0):end]

    def wait(self, game_id: str, after: int, timeout_s: float) -> list[StoredEvent]:
        """See EventStore.wait."""
        deadline = time.monotonic() + max(timeout_s, 0)
        with self._changed:
            while True:
                events = self.read(game_id, after)
                remaining = deadline - time.monotonic()
                if events or remaining <= 0 or self.draining:
                    return events
                self._changed.wait(remaining)

    def own_connection(self) -> AbstractContextManager[None]:
        """See EventStore.own_connection (no connections here: nothing to hold)."""
        return nullcontext()

    def drain(self) -> None:
        """See EventStore.drain."""
        with self._changed:
            self.draining = True
            self._changed.notify_all()

    def version(self, game_id: str) -> int:
        """See EventStore.version."""
        with self._changed:
            return len(self._streams.get(game_id, []))

    def claim(self, game_id: str, idempotency_key: str, fingerprint: str, claim: str) -> int | None:
        """See EventStore.claim."""
        with self._changed:
            entry = self._entry(game_id, idempotency_key)
            if entry is None:
                self._idem[(game_id, idempotency_key)] = _KeyEntry(
                    fingerprint, claim=claim, claim_until=time.monotonic() + self._claim_ttl_s)
                return None
            if entry.fingerprint != fingerprint:
                raise IdempotencyKeyReused(idempotency_key)
            if entry.version is not None:
                return entry.version
            if entry.claim != claim:
                raise IdempotencyInProgress(idempotency_key)
            return None

    def release(self, game_id: str, idempotency_key: str, claim: str) -> None:
        """See EventStore.release."""
        with self._changed:
            entry = self._idem.get((game_id, idempotency_key))
            if entry is not None and entry.version is None and entry.claim == claim:
                del self._idem[(game_id, idempotency_key)]
