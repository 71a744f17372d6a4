"""Load a game's state: the nearest snapshot, then fold the tail of the stream (DESIGN §4)."""
from __future__ import annotations

from domain import event_from_dict, fold
from service.errors import GameNotFound
from service.snapshots import Snapshots
from service.store import EventStore, StoredEvent
from service.table_events import is_table_event


def to_domain(events: list[StoredEvent]) -> list:
    """Stored events as domain events (upcast to their current schema); the table events
    (service.table_events) are left out: the rules never read them."""
    return [event_from_dict({"type": e.type, "schema": e.schema, "data": e.data})
            for e in events if not is_table_event(e.type)]


class GameLoader:
    """Folds a game's events onto its best snapshot and caches the result."""

    def __init__(self, store: EventStore, snapshots: Snapshots) -> None:
        self.store = store
        self.snapshots = snapshots

    def load(self, game_id: str, upto: int | None = None,
             near: int | None = None) -> tuple[int, object]:
        """(version, GameState) after the last event, or after event `upto` when given
        (capped at the stream's end); `near`: the version the caller expects (Snapshots.load).
        Raises GameNotFound for a game without events."""
        base_version, base = self.snapshots.load(game_id, upto, near) or (0, None)
        tail = self.store.read(game_id, after=base_version, upto=upto)
        if base is None and not tail:
            raise GameNotFound(game_id)
        state = fold(to_domain(tail), base)
        version = tail[-1].version if tail else base_version
        if tail:
            self.snapshots.save(game_id, version, state, folded=len(tail))
        return version, state

    def remember(self, game_id: str, version: int, state: object, folded: int) -> None:
        """Cache `state`, just reached at `version` by appending `folded` events."""
        self.snapshots.save(game_id, version, state, folded)
