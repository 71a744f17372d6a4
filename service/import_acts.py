"""A seat's acts in an imported record, and the seat-control actions (a timeout, a resignation,
a reclaim), decided again (service.import_replay): each must be the event the rules make of the
action it records. The fold applies what an event says, so without this a record could open
with a "run" of 8C 8D 9H, lay off a card on a meld it does not fit, or discard a card its seat
does not hold, and every view of the game would show it.

The decision's other events (an offer and whom it bars, a purchase with its penalty cards, the
stock drawn after the offers, a round's end at the turn cap) are what the record must hold next,
in that order: the server appends a decision's events at once. Where the rules leave a choice
to chance (a rebuilt stock's order, R10.1; the card a claimer gives, R11.18; how far a cut
lifts, R11.19) the decision is made again with the record's own choice (`RecordedChance`), so
everything after it is compared too. An event that only a decision makes (`consequence_only`)
and that no decision before it owes is refused, but for the start of a deadline's closing
(`CLOSINGS`).
"""
from __future__ import annotations

import random

from domain import decide
from domain.errors import RuleViolation
from domain.events import StockRebuilt
from domain.events_variants import CardClaimed, DeckCut

# Events only a decision makes, never a seat's act on its own: an offer and its close, a
# purchase and its penalty cards, a rebuilt stock, a round's end, a claim window and its end,
# a Shanghai call (a stock draw is one too: `consequence_only`).
CONSEQUENCES = frozenset({
    "OfferOpened", "OfferClosed", "CardBought", "PenaltyCardTaken", "StockRebuilt",
    "RoundEnded", "ClaimOpened", "ClaimClosed", "CardClaimed", "ShanghaiCalled"})

# The deadline's system actions that begin with a consequence when no seat still owes an
# answer (R6.9, R11.18: a loaded position's offer, say).
CLOSINGS = {"OfferClosed": {"type": "close_offer"}, "ClaimClosed": {"type": "close_claim"}}


def consequence_only(name: str, event: object) -> bool:
    """Whether `event` (of type `name`) is only ever made by a decision, after an act or a
    system action (a draw from the stock after the offers, R5.3, R6.5; a takeover after the
    timeout that makes it, rule T2), never on its own."""
    return (name in CONSEQUENCES or (name == "CardDrawn" and event.source == "stock")
            or (name == "SeatTakenOver" and event.reason == "timeouts"))


class RecordedChance(random.Random):
    """The randomness of one decision, replaying the choices a record made: a shuffle of a
    rebuilt stock (R10.1) gives the order of the record's next StockRebuilt, a claim's choice
    of the card given (R11.18) is the record's next CardClaimed's `given`, and a cut's spread
    (R11.19) is what the record's next DeckCut lifted beyond its count, when they are possible
    there (the same cards; a card of the hand; within the spread). When one is not, it
    draws as `random.Random(0)`: the decision then differs from the record, which is refused.
    `events`: the record's events from the act on."""

    def __init__(self, events: list) -> None:
        super().__init__(0)
        self._events = events
        self._next: dict[type, object] = {}   # event type -> iterator over those events

    def _recorded(self, kind: type) -> object | None:
        """The record's next event of type `kind` not yet replayed, or None."""
        found = self._next.setdefault(kind, (e for e in self._events if isinstance(e, kind)))
        return next(found, None)

    def randint(self, low: int, high: int) -> int:
        """The record's next cut's spread, kept within ``low..high`` (the lift is clamped to
        the deck after it: domain.decide_cut)."""
        cut = self._recorded(DeckCut)
        if cut is None:
            return super().randint(low, high)
        return min(max(cut.lifted - cut.count, low), high)

    def shuffle(self, cards: list) -> None:
        """`cards` in the order of the record's next rebuilt stock, if it holds the same."""
        rebuilt = self._recorded(StockRebuilt)
        if rebuilt is not None and sorted(rebuilt.stock) == sorted(cards):
            cards[:] = rebuilt.stock
        else:
            super().shuffle(cards)

    def choice(self, cards):
        """The card the record's next claim gives, if `cards` hold it."""
        claimed = self._recorded(CardClaimed)
        return claimed.given if claimed is not None and claimed.given in cards else (
            super().choice(cards))


# Seat control: the system action or the seat's act each event records (rules T2-T4).
CONTROL = {"TurnTimedOut": lambda e: (None, {"type": "time_out", "seat": e.seat}),
           "SeatReclaimed": lambda e: (e.seat, {"type": "reclaim"})}


def recorded(name: str, event: object, following: object | None) -> tuple[int | None,
                                                                             dict] | None:
    """``(seat, action)``: who took the action `event` (of type `name`) records (None: the
    system, at a deadline) and the action, or None when it is no act, seat control nor the
    start of a deadline's closing (a consequence, a deal, a table event; a takeover after
    timeouts is the timeout's)."""
    if name in CLOSINGS:
        return None, CLOSINGS[name]
    if name in CONTROL:
        return CONTROL[name](event)
    if name == "SeatTakenOver":
        return (event.seat, {"type": "resign"}) if event.reason == "resigned" else None
    action = recorded_action(name, event, following)
    return None if action is None else (event.seat, action)


def recorded_action(name: str, event: object, following: object | None) -> dict | None:
    """The action a seat's act `event` (of type `name`) records, or None when it is no seat's
    act of play (a draw from the stock after an offer, a purchase: consequences of an act).
    `following`: the event after it (a discard followed by ShanghaiCalled was called
    Shanghai, R11.18)."""
    if name == "DeckCut":
        return {"type": "cut", "count": event.count}
    if name == "StockChosen":
        return {"type": "draw", "from": "stock"}
    if name == "CardDrawn":
        return {"type": "draw", "from": "discard"} if event.source == "discard" else None
    if name == "BuyRequested":
        return {"type": "buy"}
    if name in ("BuyPassed", "ClaimPassed"):
        return {"type": "pass"}
    if name == "ContractOpened":
        return {"type": "open", "melds": [list(meld) for meld in event.melds]}
    if name == "CardLaidOff":
        return _placed({"type": "lay_off", "meld": event.meld, "card": event.card}, event.end)
    if name == "JokerSwapped":
        # `as`: what it stands for on a run (a deuce may stand for itself, written bare),
        # null on a group (the joker is written JK, a deuce 2C=5 there)
        declared = (None if event.joker_end is None
                    else _declared(event.joker_card) or event.joker_card)
        joker_to = _placed({"meld": event.joker_to, "as": declared}, event.joker_end)
        return {"type": "swap_joker", "meld": event.meld, "card": event.card,
                "joker_to": joker_to}
    if name == "CardDiscarded":
        called = type(following).__name__ == "ShanghaiCalled"
        return {"type": "discard", "card": event.card, **({"shanghai": True} if called else {})}
    if name == "ClaimRequested":
        declared = _declared(event.card)
        return _placed({"type": "claim", "meld": event.meld,
                        **({"as": declared} if declared else {})}, event.end)
    return None


def misruled(name: str, event: object, state: object,
             upcoming: list) -> tuple[str | None, list]:
    """``(why, then)``: why `event`, an act of its seat, a seat-control action or a deadline's
    closing on `state` (`recorded`), is not what the rules decide of the action it records, or
    a consequence no decision before it owes (`consequence_only`); None when it is right, and
    for any other event. `then`: the events the same decision makes after it, which the record
    must hold next. `upcoming`:
    the record's events after `event` (enough to hold its decision's; `RecordedChance`). A
    refusal of the rules names the rule the decision cites (R4.2, R6.7, R7.2, ...): an act
    out of turn, an answer of a seat no offer asks. A seat may answer an offer behind a
    nearer seat's request (R6.2: it is recorded), so no check of who the table awaits comes
    before this one."""
    taken = recorded(name, event, upcoming[0] if upcoming else None)
    if taken is None:
        if consequence_only(name, event):   # no decision before it owes it
            return ("is made only by a decision, and no act or action before it makes it "
                    "(R5.3, R6, R10, R11.18)"), []
        return None, []
    try:
        decided = decide(state, *taken, RecordedChance([event, *upcoming]))
    except RuleViolation as refused:  # MalformedAction too
        return f"is an act the rules refuse there ({refused.rule}: {refused.message})", []
    except Exception:  # noqa: BLE001 - no table to act on (a draw before any deal, say)
        return "does not follow from the events before it", []
    if not decided or decided[0] != event:
        return "is not the event the rules make of the act it records", []
    return None, list(decided[1:])


def _placed(action: dict, end: str | None) -> dict:
    """`action` with its run `end` ("low"/"high"), when it has one (None on a group)."""
    return {**action, "end": end} if end is not None else action


def _declared(written: str) -> str | None:
    """What a wild card written ``JK=9S`` (or ``2C=7S``) stands for; None for a bare ``JK``."""
    return written.partition("=")[2] or None
