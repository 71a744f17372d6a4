"""What the service derives from each append beyond the game index: the per-player index
(service.player_index) and, with webhooks configured, the webhook events (service.webhooks).
`AfterAppend` is the `after_append(record, version, previous, state, events, recorded_at)` hook
GameService calls after every append; bootstrap installs it."""
from __future__ import annotations

from typing import Callable

from domain import awaiting
from service.player_index import PlayerIndex, player_status
from service.records import GameRecord

# (record, version, state before or None at creation, state after, domain events appended,
# their recorded_at ms) -> None
Projection = Callable[[GameRecord, int, object, object, list, "int | None"], None]


def index_players(players: PlayerIndex) -> Projection:
    """The projection that keeps `players` up to date: at creation and at each change of the
    game's status (service.player_index.player_status), every seat with a player_id is
    recorded under the new status."""
    def project(record: GameRecord, version: int, previous: object, state: object,
                events: list, recorded_at: int | None) -> None:
        status = player_status(awaiting(state).status)
        if previous is not None and player_status(awaiting(previous).status) == status:
            return
        for seat in record.seats:
            if seat.get("player_id") is not None:
                players.record(seat["player_id"], record.id, seat["seat"], record.created_ms,
                               status)
    return project


class AfterAppend:
    """Runs each projection after an append; the service logs (never raises) a failure, so
    an append always stands."""

    def __init__(self, *projections: Projection) -> None:
        self.projections = projections

    def __call__(self, record: GameRecord, version: int, previous: object, state: object,
                 events: list, recorded_at: int | None) -> None:
        for project in self.projections:
            project(record, version, previous, state, events, recorded_at)
