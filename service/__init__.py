"""The application layer: event store (Redis Streams, in memory), snapshots, game index,
tokens, and GameService (load -> fold -> decide -> append -> enqueue), wired by
service.bootstrap. The names below are what api/ and workers/ use."""
from service.errors import Forbidden, GameNotFound, ServiceError, Unauthorized
from service.principal import Principal
from service.store import (AppendResult, ConcurrencyError, EventStore, IdempotencyKeyReused,
                           InMemoryEventStore, StoreError, StoreUnavailable, StoredEvent)

__all__ = ["AppendResult", "ConcurrencyError", "EventStore", "Forbidden", "GameNotFound",
           "IdempotencyKeyReused", "InMemoryEventStore", "Principal", "ServiceError",
           "StoreError", "StoreUnavailable", "StoredEvent", "Unauthorized"]
