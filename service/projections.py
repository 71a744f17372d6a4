"""What the service derives from each append beyond the game index: who joined which seat
(service.seat_players), the per-player index (service.player_index) and, with webhooks
configured, the webhook events (service.webhooks).
`AfterAppend` is the `after_append(record, version, previous, state, events, recorded_at)` hook
GameService calls after every append; bootstrap installs it."""
from __future__ import annotations

from typing import Callable

from domain import awaiting
from service.clock import rfc3339
from service.player_index import PlayerIndex, player_status
from service.records import GameRecord
from service.seat_players import JoinedPlayers, has_open_seats
from service.table_events import PlayerSeated
from service.webhook_events import webhook_events
from service.webhooks import WebhookOutbox

# (record, version, state before or None at creation, state after, events appended (domain
# and table events), their recorded_at ms) -> None
Projection = Callable[[GameRecord, int, object, object, list, "int | None"], None]


def seat_players(players: PlayerIndex, joined: JoinedPlayers) -> Projection:
    """The projection of the PlayerSeated table events (a player joined a seat by code):
    `joined` learns who sits there and the game enters the player's index under its status,
    before the webhooks of the same append name the players (a join that starts the game)."""
    def project(record: GameRecord, version: int, previous: object, state: object,
                events: list, recorded_at: int | None) -> None:
        if record.origin == "import":  # a past game re-created: its players are not seated
            return
        for event in events:
            if isinstance(event, PlayerSeated) and event.player_id is not None:
                joined.add(record.id, event.seat, event.player_id)
                players.record(event.player_id, record.id, event.seat, record.created_ms,
                               awaiting(state).status)
    return project


def index_players(players: PlayerIndex, joined: JoinedPlayers) -> Projection:
    """The projection that keeps `players` up to date: at creation and at each change of the
    game's status (service.player_index.player_status), every seat with a player (given at
    creation, or who joined by code: `joined`) is recorded under the new status."""
    def project(record: GameRecord, version: int, previous: object, state: object,
                events: list, recorded_at: int | None) -> None:
        if not has_open_seats(record) and not any(s.get("player_id") for s in record.seats):
            return
        status = player_status(awaiting(state).status)
        if previous is not None and player_status(awaiting(previous).status) == status:
            return
        for seat, player in joined.of(record).items():
            players.record(player, record.id, seat, record.created_ms, status)
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


def publish_webhooks(outbox: WebhookOutbox, joined: JoinedPlayers,
                     deadline: Callable) -> Projection:
    """The projection that fills the webhook `outbox` (service.webhooks) with the webhook
    events of each append (service.webhook_events), for the games with a target and a seat
    that is not a bot's, naming the players of `joined`. `deadline(game_id, version, state, (events, recorded_at))`: the
    service's deadline of a version (service.queries.GameReads.deadline)."""
    def project(record: GameRecord, version: int, previous: object, state: object,
                events: list, recorded_at: int | None) -> None:
        if all(seat["kind"] == "bot" for seat in record.seats) or not outbox.targets(record.id):
            return

        def due() -> str | None:
            found = deadline(record.id, version, state, (events, recorded_at))
            return rfc3339(None if found is None else found.due_ms)
        found = webhook_events(record, version, previous, state, events, recorded_at, due,
                               lambda: joined.of(record))
        if found:
            outbox.publish(found)
    return project
