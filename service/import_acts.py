"""A seat's acts in an imported record, decided again (service.import_replay): each must be the
event the rules make of the action it records. The fold applies what an event says, so
without this a record could open with a "run" of 8C 8D 9H, lay off a card on a meld it does
not fit, or discard a card its seat does not hold, and every view of the game would show it.

The decision's other events (an offer, a purchase with its penalty cards, the stock drawn after
the offers, a round's end at the turn cap) are what the record must hold next, in that order
(`unlike`): the server appends a decision's events at once. Where the rules leave a choice to
chance (a rebuilt stock's order, R10.1; the card a claimer gives, R11.18) the record's own
choice stands, and what the decision makes after it, drawn from that choice, is not compared.
"""
from __future__ import annotations

import dataclasses
import random

from domain import decide
from domain.errors import RuleViolation
from domain.events import StockRebuilt
from domain.events_variants import CardClaimed


def recorded_action(name: str, event: object, following: object | None) -> dict | None:
    """The action `event` (of type `name`) records, or None when it is no seat's act (a draw
    from the stock after an offer, a purchase: consequences of an act). `following`: the event
    after it (a discard followed by ShanghaiCalled was called Shanghai, R11.18)."""
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
             following: object | None) -> tuple[str | None, list]:
    """``(why, then)``: why `event`, an act of its seat on `state`, is not what the rules decide
    of the action it records (None when it is, and for an event that is no act), and the
    events the same decision makes after it, which the record must hold next (`unlike`). A
    refusal of the rules names the rule the decision cites (R4.2, R6.7, R7.2, ...): an act
    out of turn, an answer of a seat no offer asks. A seat may answer an offer behind a
    nearer seat's request (R6.2: it is recorded), so no check of who the table awaits comes
    before this one."""
    action = recorded_action(name, event, following)
    if action is None:
        return None, []
    try:
        decided = decide(state, event.seat, action, random.Random(0))
    except RuleViolation as refused:  # MalformedAction too
        return f"is an act the rules refuse there ({refused.rule}: {refused.message})", []
    except Exception:  # noqa: BLE001 - no table to act on (a draw before any deal, say)
        return "does not follow from the events before it", []
    if not decided or decided[0] != event:
        return "is not the event the rules make of the act it records", []
    return None, list(decided[1:])


# Events holding a choice of chance: a recorded one matches in all the rules fix, and what its
# decision makes after it (drawn from the rebuilt stock, say) is the record's own.
CHANCE = (StockRebuilt, CardClaimed)


def unlike(decided: object, recorded: object) -> bool:
    """Whether `recorded` is not the event `decided` by the rules at that point of an act's
    decision: another type or other fields, but for the shuffled order of a rebuilt stock
    (the same cards, R10.1) and the card a claimer gives (R11.18; the fold takes it from the
    claimer's hand, and the deck check sees any other card)."""
    if type(recorded) is not type(decided):
        return True
    if isinstance(decided, StockRebuilt):
        return (sorted(recorded.stock) != sorted(decided.stock)
                or recorded.discard != decided.discard)
    if isinstance(decided, CardClaimed):
        return dataclasses.replace(recorded, given=decided.given) != decided
    return recorded != decided


def _placed(action: dict, end: str | None) -> dict:
    """`action` with its run `end` ("low"/"high"), when it has one (None on a group)."""
    return {**action, "end": end} if end is not None else action


def _declared(written: str) -> str | None:
    """What a wild card written ``JK=9S`` (or ``2C=7S``) stands for; None for a bare ``JK``."""
    return written.partition("=")[2] or None
