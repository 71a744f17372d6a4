"""Table events: facts of a game that the rules never read, kept in the game's stream like
every other fact (issue 8 "every new fact is an event in the game's stream").

Who plays a seat for which player, that a spectator was let in, that a rematch was made, that a
seat's token was issued again: the service decides these, not the rules, so they are
envelope-level service events. They share the stream, its versions and its serialized form
(`{"type", "schema", "data"}`) with the domain events, but the domain never sees them: the
loader and every fold skip them (`rules_events`, `rules_dicts`), so a game's state is the same
with or without them. The secrets stay out: a token is never in an event, only that one was
granted. A player id is the integrator's own reference to a person: a seat's, the public's
and the game admin's feeds show it as null (`as_seen`), as the table's seats never show it
(docs/players.md); the server admin key sees it.

Redis keeps, beside the stream, what answers fast lookups (the joined players' hash, the
grants hash, the rematch link): projections of these events, written after them.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Callable, ClassVar, Iterable

from domain import event_from_dict
from domain.errors import RuleViolation
from domain.state import ABORTED, EXPIRED
from service.players import PLAYER_ID_PATTERN

MAX_SEATS = 8  # R11.1
PLAYER_ID = re.compile(PLAYER_ID_PATTERN)
GAME_ID = re.compile(r"[0-9a-f]{16}")  # service.creation.new_game_id

TABLE_EVENT_TYPES: dict[str, type] = {}


class TableEvent:
    """Base class of the table events (frozen dataclasses, serialized like domain events by
    domain.event_to_dict)."""

    SCHEMA: ClassVar[int] = 1


def _table_event(cls: type) -> type:
    cls = dataclass(frozen=True)(cls)
    TABLE_EVENT_TYPES[cls.__name__] = cls
    return cls


@_table_event
class PlayerSeated(TableEvent):
    """The person who joined `seat` by code (SeatJoined, in the same append) is the
    integrator's player `player_id` (docs/players.md): the seat is in that player's inbox and
    the player's credentials act for it. A seat's, the public's and the game admin's feeds
    show `player_id` as null."""

    seat: int
    player_id: str


@_table_event
class SpectatorAdded(TableEvent):
    """The game's admin let one more spectator in: a spectator token was granted (the token
    itself is never stored in the stream)."""


@_table_event
class RematchCreated(TableEvent):
    """This finished game's rematch was created: the follow-up game `game_id`, with the same
    seats, profile, clock and visibility."""

    game_id: str


@_table_event
class RematchOf(TableEvent):
    """This game is the rematch of the finished game `game_id` (in the creation's append)."""

    game_id: str


@_table_event
class SeatTokenIssued(TableEvent):
    """A new token of `seat` was issued (`reason` "rematch": the former seat's holder took its
    seat of this rematch); it revokes the seat's token issued before."""

    seat: int
    reason: str = "rematch"


def is_table_event(event_type: str) -> bool:
    """Whether `event_type` (a serialized event's `type`) names a table event."""
    return isinstance(event_type, str) and event_type in TABLE_EVENT_TYPES


def rules_events(events: Iterable) -> list:
    """The domain events of `events` (event objects), table events left out: what fold takes."""
    return [event for event in events if not isinstance(event, TableEvent)]


# What each field of a table event may hold (a record to import is client input): a seat of
# the largest table (R11.1; the import checks it against the game's), a player id as given at
# creation (or null: an export shows it so but to the server admin key), a game id of
# service.creation, a SeatTokenIssued reason.
FIELD_CHECKS: dict[str, Callable[[object], bool]] = {
    "seat": lambda value: type(value) is int and 0 <= value < MAX_SEATS,
    "player_id": lambda value: value is None or (isinstance(value, str)
                                                 and PLAYER_ID.fullmatch(value) is not None),
    "game_id": lambda value: isinstance(value, str) and GAME_ID.fullmatch(value) is not None,
    "reason": lambda value: value == "rematch",
}


def table_event_from_dict(raw: dict) -> TableEvent:
    """The table event of its serialized form. Raises ValueError for another type, a schema
    newer than this code, or data that is not the event's fields with values they may hold
    (FIELD_CHECKS)."""
    cls = TABLE_EVENT_TYPES.get(raw.get("type"))
    if cls is None:
        raise ValueError(f"not a table event: {raw.get('type')!r}")
    if raw.get("schema", 1) > cls.SCHEMA:
        raise ValueError(f"{cls.__name__} schema {raw['schema']} is newer than this code")
    data, fields = raw.get("data"), {f.name: f for f in dataclasses.fields(cls)}
    required = {name for name, f in fields.items() if f.default is dataclasses.MISSING}
    if (not isinstance(data, dict) or not required <= data.keys() <= fields.keys()
            or not all(FIELD_CHECKS[name](value) for name, value in data.items())):
        raise ValueError(f"{cls.__name__}: data must be its fields "
                         f"({', '.join(fields) or 'none'}) with values they may hold")
    return cls(**data)


def event_of(raw: dict) -> object:
    """The event of a serialized `raw` event: a table event or a domain event (upcast). Raises
    ValueError for an unknown type or data that does not fit it."""
    if is_table_event(raw.get("type")):
        return table_event_from_dict(raw)
    return event_from_dict(raw)


def record_table_events(games, game_id: str, events: list, idempotency_key: str | None = None
                        ) -> int:
    """Append the table `events` to `game_id`'s stream at its latest version (decided again
    when another append wins the race), with the post-append work of every append (index,
    deadline, projections, listeners woken); `games` is the GameService. With
    `idempotency_key` (the caller scopes it by what it records), a retry appends nothing.
    Returns the stream's version after. Raises GameNotFound, StoreUnavailable,
    IdempotencyKeyReused, IdempotencyInProgress, RuleViolation (refuse_when_closed)."""
    action = {"type": "table", "events": [type(event).__name__ for event in events]}

    def decision(state, at):
        refuse_when_closed(state)
        return list(events)
    version, _ = games.decide_system(game_id, action, idempotency_key, decision=decision)
    return version


def refuse_when_closed(state) -> None:
    """Raise RuleViolation unless more may be appended to the game of `state`: T1 once it was
    aborted, L1 once its lobby expired (nothing follows GameAborted or LobbyExpired)."""
    if state.status == ABORTED:
        raise RuleViolation("T1", "The game was aborted: nothing more is added to it.")
    if state.status == EXPIRED:
        raise RuleViolation("L1", "The game's lobby expired: nothing more is added to it.")


def as_seen(event: dict, server: bool) -> dict:
    """The serialized table `event` as a caller sees it: whole for the server admin key
    (`server`), the player id hidden (null) for everyone else. A new dict."""
    if server or event["type"] != "PlayerSeated":
        return {**event, "data": dict(event["data"])}
    return {**event, "data": {**event["data"], "player_id": None}}
