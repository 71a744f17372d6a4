"""Domain events: frozen dataclasses, past tense, one per fact, with a versioned JSON form.

Serialized form: ``{"type": "CardDiscarded", "schema": 1, "data": {"seat": 2, "card": "4D"}}``.
Tuples serialize as lists and come back as tuples; dict fields (a profile, a position) are kept
as JSON objects. `event_from_dict` applies registered upcasters ``(type, from_schema)`` until the
current schema, so stored events of older shapes still load.

Hidden information lives in events (the deck in `RoundDealt`, a stock card in `CardDrawn` and
`CardBought`, the new order in `StockRebuilt`); `domain.views.redact` hides it per seat.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Callable, ClassVar

EVENT_TYPES: dict[str, type] = {}
UPCASTERS: dict[tuple[str, int], Callable[[dict], dict]] = {}
# an event class -> its field names, in order (event_to_dict: ~2,500 events a game in a worker)
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


class Event:
    """Base class of every event; subclasses set `SCHEMA` and are frozen dataclasses."""

    SCHEMA: ClassVar[int] = 1


def _event(cls: type) -> type:
    """Register an event class under its name (the serialized `type`)."""
    cls = dataclass(frozen=True)(cls)
    EVENT_TYPES[cls.__name__] = cls
    return cls


def register_event(cls: type) -> type:
    """Register an event class defined in its capability's own module (domain.lobby): a
    frozen dataclass under its name, like the events of this module."""
    return _event(cls)


def register_upcaster(event_type: str, from_schema: int, fn: Callable[[dict], dict]) -> None:
    """Register `fn(data) -> data` turning `event_type` data of `from_schema` into the next."""
    UPCASTERS[(event_type, from_schema)] = fn


@_event
class GameCreated(Event):
    """A game began: the rule profile (`RuleProfile.to_json()`), seat count, first dealer
    drawn at random (R2.2) and the seed when the game was seeded (hidden until the end)."""

    profile: dict
    seats: int
    first_dealer: int
    seed: int | str | None = None


@_event
class PositionLoaded(Event):
    """A game began from a position: the normalized table, every card listed (/docs/format)."""

    position: dict


@_event
class RoundDealt(Event):
    """A round was dealt (R2.3) from `deck`, the shuffled 107 cards (hidden information):
    one card at a time from the dealer's left, then the upcard, the rest is the stock."""

    round: int
    dealer: int
    deck: tuple[str, ...]


@_event
class StockChosen(Event):
    """The active seat chose the stock (R5.3); an offer, a draw or a round end follows."""

    seat: int


@_event
class OfferOpened(Event):
    """The discard top `card` is offered to the other seats (R6.1, R6.4); `barred` is the
    seat that bought the previous card of this turn's chain, or None."""

    card: str
    barred: int | None = None


@_event
class BuyRequested(Event):
    """`seat` asked to buy the offered card (R6.2); recorded even when a nearer seat may win."""

    seat: int


@_event
class BuyPassed(Event):
    """`seat` declined the offered card (R6.2, R6.9)."""

    seat: int


@_event
class OfferClosed(Event):
    """The offer on `card` resolved (R6.9): `buyer` gets it, or None when all declined."""

    card: str
    buyer: int | None


@_event
class CardBought(Event):
    """`seat` took the offered `card` and the stock top `penalty` (R6.3; penalty hidden;
    None when the profile takes no penalty card, R11.10; further ones: PenaltyCardTaken)."""

    seat: int
    card: str
    penalty: str | None


@_event
class CardDrawn(Event):
    """`seat` drew `card` from `source` ("stock" or "discard") (R5.1; a stock card is hidden)."""

    seat: int
    source: str
    card: str


@_event
class ContractOpened(Event):
    """`seat` went down with `melds` (R4.2; runs low to high, jokers as ``JK=<card>``)."""

    seat: int
    melds: tuple[tuple[str, ...], ...]


@_event
class CardLaidOff(Event):
    """`seat` laid `card` (as written: ``9S``, ``JK``, ``JK=9S``) on meld `meld` (R7.1-R7.4);
    `end` is "low" or "high" on a run, None on a group."""

    seat: int
    meld: int
    card: str
    end: str | None


@_event
class JokerSwapped(Event):
    """`seat` put natural `card` in place of its joker in run `meld` and laid the joker, as
    `joker_card` (``JK=<card>`` or ``JK``), on meld `joker_to` at `joker_end` (R7.5)."""

    seat: int
    meld: int
    card: str
    joker_to: int
    joker_card: str
    joker_end: str | None


@_event
class CardDiscarded(Event):
    """`seat` discarded `card` (R5.5); the turn passes left unless the round ends."""

    seat: int
    card: str


@_event
class StockRebuilt(Event):
    """The stock was empty when a card was needed (R10.1): `stock` is the new order (top
    first, hidden) and `discard` the pile left (bottom first)."""

    stock: tuple[str, ...]
    discard: tuple[str, ...]


@_event
class RoundEnded(Event):
    """The round ended: `winner` went out, or None with `reason` "no_card" (R10.2) or
    "turn_cap" (R10.4); `reason` is "went_out" otherwise (R5.7, R8.2)."""

    winner: int | None
    reason: str


@_event
class RoundScored(Event):
    """Round `round` was scored (R9.1, R9.2): `scores` this round, `totals` after it (R9.3)."""

    round: int
    scores: tuple[int, ...]
    totals: tuple[int, ...]


@_event
class GameEnded(Event):
    """The game ended after round 7: `winners` share the lowest total (R9.4)."""

    winners: tuple[int, ...]
    totals: tuple[int, ...]


@_event
class ClockSet(Event):
    """The game's clock, set at creation (right after GameCreated or PositionLoaded): seconds
    a seat has for its turn (`turn_s`, draw and play together; None: no turn clock) and for a
    buy offer (`offer_s`), how many consecutive turn timeouts hand a seat to a bot
    (`timeouts_before_takeover`) and that bot's level (`takeover_level`). The domain never
    reads time: the service computes deadlines from these and the events' recorded times."""

    turn_s: int | None
    offer_s: int
    timeouts_before_takeover: int
    takeover_level: str


@_event
class TurnTimedOut(Event):
    """`seat` let its turn's deadline pass: the takeover level's bot plays the rest of this
    turn (its moves follow as ordinary events) and the seat's consecutive timeouts grow."""

    seat: int


@_event
class SeatTakenOver(Event):
    """A bot of `level` plays `seat` from now on: `reason` "timeouts" (too many consecutive
    turn timeouts; the human may reclaim the seat) or "resigned" (final)."""

    seat: int
    level: str
    reason: str


@_event
class SeatReclaimed(Event):
    """The human of `seat` took the seat back from the bot; it is awaited again."""

    seat: int


@_event
class GameAborted(Event):
    """The game was stopped before its end (`reason`, e.g. "admin"): nothing follows."""

    reason: str = "admin"


def event_to_dict(event: Event) -> dict:
    """Return ``{"type", "schema", "data"}`` for `event` (JSON-ready)."""
    cls = type(event)
    names = _FIELD_NAMES.get(cls)
    if names is None:  # dataclasses.fields builds a new tuple per call: kept per class
        names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))
    data = {}
    for name in names:
        value = getattr(event, name)
        data[name] = _to_json(value) if isinstance(value, tuple) else value
    return {"type": cls.__name__, "schema": event.SCHEMA, "data": data}


def event_from_dict(raw: dict) -> Event:
    """Rebuild an event from its serialized form, upcasting older schemas first.

    Raises ValueError for an unknown type, a schema newer than the code, or a missing
    upcaster.
    """
    cls = EVENT_TYPES.get(raw.get("type"))
    if cls is None:
        raise ValueError(f"unknown event type {raw.get('type')!r}")
    schema, data = raw.get("schema", 1), raw["data"]
    if schema > cls.SCHEMA:
        raise ValueError(f"{cls.__name__} schema {schema} is newer than this code ({cls.SCHEMA})")
    while schema < cls.SCHEMA:
        upcast = UPCASTERS.get((cls.__name__, schema))
        if upcast is None:
            raise ValueError(f"no upcaster for {cls.__name__} schema {schema}")
        data, schema = upcast(dict(data)), schema + 1
    return cls(**{name: _from_json(value) for name, value in data.items()})


def _to_json(value: object) -> object:
    if isinstance(value, tuple):
        return [_to_json(item) for item in value]
    return value


def _from_json(value: object) -> object:
    if isinstance(value, list):
        return tuple(_from_json(item) for item in value)
    return value


from domain import events_variants  # noqa: E402,F401  (registers the §11 events)
