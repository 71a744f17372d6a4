"""Checks of an exported record before it is imported again (GameService.import_game): its
events must be events of this code, follow one from another, keep the profile's deck, and
score each round as the rules do. A record is client input: every refusal is a ValueError
naming the event, never Python's own message. Its table events (service.table_events) are
checked for their shape and kept where they stand, so the imported game's versions are the
record's; the fold skips them."""
from __future__ import annotations

import dataclasses
import random
from collections import Counter

from domain import decide, fold, full_deck, full_view, public_view
from domain.bots import BOT_LEVELS
from domain.cards import physical_card
from domain.errors import RuleViolation
from domain.events import EVENT_TYPES
from service.clock import clock_event
from service.seating import seat_name
from service.table_events import TABLE_EVENT_TYPES, event_of, rules_events

ENDINGS = ("GameEnded", "GameAborted", "LobbyExpired")  # the events nothing follows


def imported_state(raw: list[dict]) -> object:
    """The state after a record's `raw` events (`{"type", "schema", "data"}` each). Raises
    ValueError naming the first event that is not an event of this code or does not follow
    from the ones before it, or when the cards of the deck are not each in one place (R1.2,
    R1.4, R11.3)."""
    state = _fold_record(raw)
    if not _conserves_deck(state):
        raise ValueError("the record's events do not keep the cards of the deck, each "
                         "in one place (R1.2, R1.4, R11.3)")
    _check_table(state)
    return state


def _check_table(state: object) -> None:
    """Raise ValueError unless the table a record made is one a created game could have: its
    clock within the clock's bounds (service.clock.clock_event), its lobby one entry per
    seat (bot levels, seat names, a dealer of the table), and its views built without error
    (a record is client input: a shape the fold took must not turn into a 500 later)."""
    if state.clock is not None:
        clock_event(dict(state.clock.__dict__), 1)  # raises ValueError naming the field
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
    try:
        full_view(state), public_view(state)
    except Exception:  # noqa: BLE001 - any error here is a record no game could have made
        raise ValueError("the record's events make a table no game could have") from None


def _is_seat_name(name: object) -> bool:
    try:
        return seat_name(name) == name
    except ValueError:
        return False


def _fold_record(raw: list[dict]) -> object:
    """The state after a record's events. Raises ValueError naming the first event that is not
    an event of this code, else the first event of play after the game's end, else the first
    that does not follow from the ones before it (never Python's own message: a record is
    client input)."""
    events = [_record_event(version, event) for version, event in enumerate(raw, 1)]
    _nothing_after_the_end(events)
    try:
        state = fold(rules_events(events))
    except Exception:  # noqa: BLE001 - find the event, below
        state = _refused_event(events)
    _scoring_checked(events)
    return _seats_checked(events, state)


SCORE = {"type": "score_round"}


def _scoring_checked(events: list) -> None:
    """Raise ValueError naming the first RoundScored whose scores or totals are not the rules'
    for the round before it (R9.1-R9.3, R11.11, R11.12, R11.19), or whose next event is not
    the one scoring decides: GameEnded with its winners and totals (R9.4), else the next
    round's deal by the next dealer (R2.2, R11.16; its deck is the record's own shuffle).
    The fold applies the scores it is given; scoring is where a record could change who won."""
    state, start = None, 0
    played = [(version, event) for version, event in enumerate(events, 1)
              if rules_events((event,))]
    for index, (version, event) in enumerate(played):
        if type(event).__name__ != "RoundScored":
            continue
        state = fold([e for _, e in played[start:index]], state)
        start = index
        following = played[index + 1][1] if index + 1 < len(played) else None
        try:
            scored, then = decide(state, None, SCORE, random.Random(0))
            rescored = event == scored and _follows(then, following)
        except Exception:  # noqa: BLE001 - no round awaited its scoring there (R9)
            rescored = False
        if not rescored:
            raise ValueError(f"event {version} (RoundScored) does not score the round before "
                             "it as the rules do, or what follows it does not (R9.1-R9.4)")


def _follows(decided: object, recorded: object) -> bool:
    """Whether `recorded` is the event scoring decided after RoundScored: the same GameEnded,
    or a deal of the same round by the same dealer (None: the record stops there)."""
    if recorded is None or type(decided).__name__ == "GameEnded":
        return recorded is None or recorded == decided
    return (type(recorded) is type(decided) and recorded.round == decided.round
            and recorded.dealer == decided.dealer)


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


def _refused_event(events: list) -> object:
    """Fold `events` one at a time to name the first the fold refuses: raises ValueError
    naming it (returns the state should none be refused)."""
    state = None
    for version, event in enumerate(events, 1):
        if not rules_events((event,)):
            continue
        try:
            state = fold((event,), state)
        except Exception as error:  # noqa: BLE001 - any error of the fold is a bad record
            rule = f" ({error.rule}: {error.message})" if isinstance(error, RuleViolation) else ""
            raise ValueError(f"event {version} ({type(event).__name__}) does not follow from "
                             f"the events before it{rule}") from None
    return state


def _seats_checked(events: list, state: object) -> object:
    """`state`, once every table event names a seat of its table. Raises ValueError naming the
    first that does not."""
    for version, event in enumerate(events, 1):
        if not rules_events((event,)) and getattr(event, "seat", 0) >= state.seats:
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
        return event_of(raw)
    except Exception:  # noqa: BLE001 - a record is client input: name the event, not the error
        names = ", ".join(f.name for f in dataclasses.fields(cls))
        raise ValueError(f"event {version} ({name}): its data must be an object with the "
                         f"fields of {name} schema {cls.SCHEMA} ({names})") from None


def _conserves_deck(state: object) -> bool:
    """Whether the state's round holds the cards of the profile's deck, each once (R1.2, R1.4,
    R11.3)."""
    rnd = getattr(state, "round", None)
    if rnd is None:
        return True
    try:
        cards = Counter(rnd.stock) + Counter(rnd.discard)
        for hand in rnd.hands:
            cards.update(hand)
        for meld in rnd.melds:
            cards.update(physical_card(entry) for entry in meld.cards)
    except Exception:  # noqa: BLE001 - cards that are not card codes: not the deck
        return False
    profile = state.profile
    return cards == Counter(full_deck(profile.packs, profile.jokers))
