"""Shared reads: concurrent identical reads in one process make one Redis call (docs/streams.md).

When a game moves, the notifier (service.notify) wakes every local listener of it at once: a
game watched by 100 SSE streams and long polls in one process would send 100 identical XRANGEs
in the same millisecond, and a burst of such games exhausts the connection pool. A read keyed
like another still in flight waits for that one's answer instead ("single flight").

The key must say when a shared answer is fresh enough: RedisEventStore.wait keys by (game,
after, the notifier's wake generation of the game), so a caller woken by a later notification
never takes an answer read before that notification.
"""
from __future__ import annotations

import threading
from typing import Callable, Hashable, TypeVar

T = TypeVar("T")


class _Flight:
    """One read in flight: its answer or error once `done` is set."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.result: object = None
        self.error: BaseException | None = None


class SharedReads:
    """Single-flight reads, thread and greenlet safe. Nothing is cached past the read itself."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._flights: dict[Hashable, _Flight] = {}

    def read(self, key: Hashable, fetch: Callable[[], T]) -> T:
        """`fetch()`, or the answer of the call with the same `key` still in flight (its error
        re-raised likewise)."""
        with self._lock:
            flight = self._flights.get(key)
            leader = flight is None
            if leader:
                flight = self._flights[key] = _Flight()
        if not leader:
            flight.done.wait()
            if flight.error is not None:
                raise flight.error
            return flight.result  # type: ignore[return-value]
        try:
            flight.result = fetch()
            return flight.result
        except BaseException as error:
            flight.error = error
            raise
        finally:
            with self._lock:
                del self._flights[key]
            flight.done.set()

    def in_flight(self) -> int:
        """How many distinct reads are in flight now."""
        with self._lock:
            return len(self._flights)
