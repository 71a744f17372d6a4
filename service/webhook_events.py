"""The webhook events of an append (docs/players.md "Webhooks"): a projection of the domain
events appended and of who is awaited before and after them. Pure: no Redis, no clock.

Each event has a stable id derived from the game, the version of the event that caused it and
its subject, so a retried delivery, or the same event projected twice, carries the same
`webhook-id` and a receiver dedupes by it (Standard Webhooks "Idempotency"). A payload names
games, seats, players, deadlines, totals and winners: never a card (a hand, a draw, the
stock, a discard)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from domain import awaiting
from service.clock import rfc3339
from service.records import GameRecord

EVENT_TYPES = ("game.started", "seat.awaited", "seat.timed_out", "seat.taken_over",
               "game.finished")
# The domain events that start a game: its first deal, or a loaded position.
STARTS = ("RoundDealt", "PositionLoaded")


@dataclass(frozen=True)
class WebhookEvent:
    """One webhook event: `id` (the webhook-id, stable), `type` (one of EVENT_TYPES), `body`
    (the JSON payload, Standard Webhooks' `{"type", "timestamp", "data"}`), `game_id`."""

    id: str
    type: str
    game_id: str
    body: dict


def webhook_events(record: GameRecord, version: int, previous: object, state: object,
                   events: list, recorded_at: int | None, deadline: Callable[[], str | None],
                   players: Callable[[], dict[int, str]]) -> list[WebhookEvent]:
    """The webhook events of the append that took `record`'s game from `previous` (None at
    creation) to `state` at `version` with the domain `events`, recorded at `recorded_at` ms.
    `deadline()`: the RFC 3339 deadline of what the game awaits from its humans at `version`
    (docs/clock.md), asked only when a seat is newly awaited; `players()`: seat -> player id
    (service.seat_players), asked only when there is an event to tell. An imported game (a
    past game re-created) has none."""
    if record.origin == "import":
        return []
    first = version - len(events) + 1
    at = rfc3339(recorded_at)
    found: list[WebhookEvent] = []
    asked: list[dict[int, str]] = []

    def who() -> dict[int, str]:
        if not asked:
            asked.append(players())
        return asked[0]

    def _seat(seat: int) -> dict:
        return {"seat": seat, "player_id": who().get(seat)}

    def _seats() -> list[dict]:
        return [{"seat": s["seat"], "kind": s["kind"], "player_id": who().get(s["seat"])}
                for s in record.public_seats(state)]  # an open seat as joined or filled

    def add(kind: str, at_version: int, subject: str, data: dict) -> None:
        found.append(WebhookEvent(
            id=f"msg_{record.id}_{at_version}_{kind}_{subject}", type=kind, game_id=record.id,
            body={"type": kind, "timestamp": at,
                  "data": {"game_id": record.id, "version": at_version, **data}}))

    for offset, event in enumerate(events):
        name, at_version = type(event).__name__, first + offset
        if name in STARTS and (name == "PositionLoaded" or event.round == 1):
            add("game.started", at_version, "game", {"seats": _seats()})
        elif name == "TurnTimedOut":
            add("seat.timed_out", at_version, str(event.seat), _seat(event.seat))
        elif name == "SeatTakenOver":
            add("seat.taken_over", at_version, str(event.seat),
                {**_seat(event.seat), "level": event.level, "reason": event.reason})
        elif name == "GameEnded":
            add("game.finished", at_version, "game",
                {"seats": _seats(), "totals": list(event.totals),
                 "winners": list(event.winners)})
    newly = sorted(_awaited_humans(record, state) - _awaited_humans(record, previous))
    if newly:
        due, phase = deadline(), awaiting(state).phase
        for seat in newly:
            add("seat.awaited", version, str(seat),
                {**_seat(seat), "phase": phase, "deadline": due})
    return found


def _awaited_humans(record: GameRecord, state: object) -> set[int]:
    """The seats that must act in `state` and are played by their humans (none before the
    game's first event)."""
    if state is None:
        return set()
    wait = awaiting(state)
    if wait.status != "playing":
        return set()
    return set(wait.seats) & set(record.human_seats(state))
