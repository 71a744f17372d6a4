"""Checks of an exported record before it is imported again (GameService.import_game): its
events must be events of this code, follow one from another, keep the profile's deck, and
score each round as the rules do. A record is client input: every refusal is a ValueError
naming the event, never Python's own message. Its table events (service.table_events) are
checked for their shape and kept where they stand, so the imported game's versions are the
record's; the fold skips them."""
from __future__ import annotations

import dataclasses

from domain import normalize_position
from domain.bots import BOT_LEVELS
from domain.events import EVENT_TYPES
from service.event_shapes import misshapen_field
from service.import_replay import replayed, viewable
from service.seating import seat_name
from service.table_events import TABLE_EVENT_TYPES, event_of, rules_events

ENDINGS = ("GameEnded", "GameAborted", "LobbyExpired")  # the events nothing follows


def imported_state(raw: list[dict]) -> object:
    """The state after a record's `raw` events (`{"type", "schema", "data"}` each). Raises
    ValueError naming the first event that is not an event of this code, has a field of
    another type than its event declares (service.event_shapes) or a position the server did
    not normalize, follows the game's end, comes out of the order play makes, does not fold,
    leaves the cards of the deck not each in one place (R1.2, R1.4, R11.3), makes a table no
    game could have, or scores a round otherwise than the rules (R9): see
    service.import_replay.replayed."""
    state = _fold_record(raw)
    _check_table(state)
    return state


def _check_table(state: object) -> None:
    """Raise ValueError unless the table a record made is one a created game could have: its
    lobby one entry per seat (bot levels, seat names, a dealer of the table), and its views
    built without error (a record is client input: a shape the fold took must not turn into
    a 500 later). Its clock was checked at each ClockSet (service.import_replay.unfit)."""
    lobby = state.lobby
    if lobby is not None and not (
            all(len(entries) == state.seats for entries in (lobby.open, lobby.joined, lobby.bots))
            and all(level is None or level in BOT_LEVELS for level in (*lobby.open, *lobby.bots))
            and all(name is None or _is_seat_name(name) for name in lobby.joined)
            and type(lobby.dealer) is int and 0 <= lobby.dealer < state.seats
            and isinstance(lobby.auto_start, bool)):
        raise ValueError("the record's lobby events (SeatsOpened, SeatJoined) do not fit its "
                         f"{state.seats}-seat table: one bot level or null per seat, seat "
                         "names, a dealer of the table")
    if not viewable(state):
        raise ValueError("the record's events make a table no game could have")


def _is_seat_name(name: object) -> bool:
    try:
        return seat_name(name) == name
    except ValueError:
        return False


def _fold_record(raw: list[dict]) -> object:
    """The state after a record's events. Raises ValueError naming the first event that is not
    an event of this code, else the first event of play after the game's end, else the first
    the replay refuses (service.import_replay), else the first table event naming a seat the
    table does not have (never Python's own message: a record is client input)."""
    events = [_record_event(version, event) for version, event in enumerate(raw, 1)]
    _nothing_after_the_end(events)
    return _seats_checked(events, replayed(events))


def _nothing_after_the_end(events: list) -> None:
    """Raise ValueError naming the first domain event after the one that ended the game
    (GameEnded, GameAborted, LobbyExpired): nothing follows them (R9.4, rules T1 and L1),
    and the fold, which applies what it is given, would take a game played on after its end.
    Table events may follow (a rematch, a spectator)."""
    ended = None
    for version, event in enumerate(events, 1):
        if not rules_events((event,)):
            continue
        if ended is not None:
            raise ValueError(f"event {version} ({type(event).__name__}) follows the end of the "
                             f"game at event {ended[0]} ({ended[1]}): nothing follows it "
                             "(R9.4, T1, L1)")
        if type(event).__name__ in ENDINGS:
            ended = (version, type(event).__name__)


def _seats_checked(events: list, state: object) -> object:
    """`state`, once every table event names a seat of its table. Raises ValueError naming the
    first that does not."""
    for version, event in enumerate(events, 1):
        if not rules_events((event,)) and not 0 <= getattr(event, "seat", 0) < state.seats:
            raise ValueError(f"event {version} ({type(event).__name__}): seat {event.seat} is "
                             f"not a seat of this {state.seats}-seat table")
    return state


def _record_event(version: int, raw: dict) -> object:
    """The domain event of a record's `raw` event. Raises ValueError naming the event."""
    name = raw.get("type")
    cls = (EVENT_TYPES.get(name) or TABLE_EVENT_TYPES.get(name)) if isinstance(name, str) else None
    if cls is None:
        raise ValueError(f"event {version}: {str(name)[:40]!r} is not an event type")
    schema = raw.get("schema", 1)
    if not isinstance(schema, int) or not 1 <= schema <= cls.SCHEMA:
        raise ValueError(f"event {version} ({name}): schema {str(schema)[:20]} is not one "
                         f"this server reads (1 to {cls.SCHEMA})")
    try:
        event = event_of(raw)
    except Exception:  # noqa: BLE001 - a record is client input: name the event, not the error
        names = ", ".join(f.name for f in dataclasses.fields(cls))
        raise ValueError(f"event {version} ({name}): its data must be an object with the "
                         f"fields of {name} schema {cls.SCHEMA} ({names})") from None
    field = misshapen_field(event)
    if field is not None:
        raise ValueError(f"event {version} ({name}): its {field} is not of the type "
                         f"{name} holds there")
    if name == "PositionLoaded" and not _normalized(event.position):
        raise ValueError(f"event {version} (PositionLoaded): its position is not one the "
                         "server wrote (a normalized FORMAT.md position, every card listed)")
    return event


def _normalized(position: dict) -> bool:
    """Whether `position` is what normalize_position makes of it (what a PositionLoaded the
    server appended holds: domain.decide.start_from_position)."""
    try:
        return normalize_position(position) == position
    except Exception:  # noqa: BLE001 - any refusal of the position is a bad record
        return False
