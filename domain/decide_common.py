"""What every command shares: the event batch, turn guards, field parsing, stock supply (R10)."""
from __future__ import annotations

import random

from domain.cards import parse_card, parse_entry
from domain.errors import MalformedAction, RuleViolation
from domain.events import CardDrawn, Event, RoundEnded, StockRebuilt
from domain.fold import fold
from domain.state import BUYING, CLAIM, CUT, DRAW, FINISHED, SCORING, GameState, RoundState


class Batch:
    """The events a command produces, with the state they lead to (decide's scratch pad).

    `add` appends an event; `state` folds the events added since it was last read, so later
    choices see the table the earlier events made, and a command's last events (which nothing
    reads) are not folded at all. The caller's state is never touched.
    """

    def __init__(self, state: GameState) -> None:
        self._state = state
        self._unfolded = 0
        self.events: list[Event] = []

    def add(self, event: Event, changes_table: bool = True) -> None:
        """Append `event`; it is folded only when a later choice reads `state`.

        `changes_table=False`: the event leaves every field a later choice of the command
        reads as it was (StockChosen; an offer's answers and closing, see
        `decide_buying.resolve`), so `state` skips it unless events before it wait to be
        folded; the caller folds every event anyway. Saves a fold per stock draw.
        """
        self.events.append(event)
        if changes_table or self._unfolded:
            self._unfolded += 1

    @property
    def state(self) -> GameState:
        """The state after every event added so far (folds the pending ones first)."""
        if self._unfolded:
            self._state = fold(self.events[-self._unfolded:], self._state)
            self._unfolded = 0
        return self._state

    @property
    def round(self) -> RoundState:
        """The round of `state`: the table after every event added so far."""
        return self.state.round


def require_in_play(state: GameState) -> RoundState:
    """The round in play; raises RuleViolation R5.7 while it awaits scoring, R9.4 when over."""
    if state.status == SCORING:
        raise RuleViolation("R5.7", "the round is over and waits to be scored")
    if state.status == FINISHED:
        raise RuleViolation("R9.4", "the game is over")
    return state.round


def require_seat(state: GameState, seat: object) -> int:
    """`seat` as a seat number; raises MalformedAction (R1.1) for anything else."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.seats:
        raise MalformedAction("R1.1", f"seat must be 0-{state.seats - 1}, not {seat!r}")
    return seat


def require_turn(state: GameState, seat: object, phase: str) -> RoundState:
    """The round, after checking it is `seat`'s turn in `phase` ("draw" or "play").

    Raises RuleViolation R2.4 (not this seat's turn; a purchase is not a turn, R6.3), R6.9
    (the active seat waits while its buy offer is open) or R5.1 (draw first / one draw).
    """
    rnd = require_in_play(state)
    seat = require_seat(state, seat)
    if seat != rnd.turn:
        raise RuleViolation("R2.4", f"it is seat {rnd.turn}'s turn, not yours")
    if rnd.phase == BUYING:
        raise RuleViolation("R6.9", f"wait: {rnd.offer.card if rnd.offer else 'the discard'} "
                                    f"is being offered to the other players")
    if rnd.phase == CLAIM:
        raise RuleViolation("R11.18", "wait: the other players may claim the discard first")
    if rnd.phase == CUT:
        raise RuleViolation("R11.19", "the deal waits for the cut")
    if rnd.phase != phase:
        if phase == DRAW:
            raise RuleViolation("R5.1", "you have drawn this turn already")
        raise RuleViolation("R5.1", "draw a card first: a turn starts with the draw")
    return rnd


def require_answered(action: dict, asked: str, rule: str, window: str) -> None:
    """An answer may name the card it answers (`action["card"]`, optional): raise
    RuleViolation `rule` when it names another card than `asked`, the one the `window`
    ("offer" R6.1, "claim" R11.18) is for now, so a late answer never takes a card its seat
    did not see; MalformedAction R1.2 for a `card` that is not a card code."""
    if "card" in action and (answered := card_field(action)) != asked:
        where = "on offer" if window == "offer" else "open to a claim"
        raise RuleViolation(rule, f"your answer is for {answered}, but the card {where} is "
                                  f"now {asked}: look again and answer that {window}")


def card_field(action: dict, key: str = "card") -> str:
    """The card code in `action[key]`; raises MalformedAction (R1.2) for a missing/bad code."""
    try:
        return parse_card(action[key])
    except (KeyError, TypeError, ValueError):
        raise MalformedAction("R1.2", f"{key!r} must be a card code like 10H or JK, "
                                      f"not {action.get(key)!r}") from None


def entry_field(action: dict, key: str = "card") -> str:
    """A meld entry (``9S``, ``JK``, ``JK=9S``) in `action[key]`; MalformedAction (R1.2)."""
    try:
        return parse_entry(action[key])
    except (KeyError, TypeError, ValueError, AttributeError):
        raise MalformedAction("R1.2", f"{key!r} must be a card code or JK=<card>, "
                                      f"not {action.get(key)!r}") from None


def meld_index(rnd: RoundState, value: object) -> int:
    """`value` as the index of an exposed meld; raises MalformedAction (R7.4) otherwise."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < len(rnd.melds):
        raise MalformedAction("R7.4", f"there is no meld {value!r} on the table")
    return value


def end_field(value: object) -> str | None:
    """An optional run end, "low" or "high"; raises MalformedAction (R7.4) otherwise."""
    if value not in (None, "low", "high"):
        raise MalformedAction("R7.4", f"end is 'low' or 'high', not {value!r}")
    return value


def supply_stock_card(batch: Batch, rng: random.Random, keep: int = 1) -> bool:
    """Make sure the stock has a top card, rebuilding it from the pile when empty (R10.1, R10.3).

    The rebuild shuffles the discard pile except its top `keep` cards (2 while a bought card
    still lies on the new top) and records the order in StockRebuilt. Returns False when no
    card can be supplied (R10.2), also when the profile's rebuilds are spent (R11.17).
    """
    rnd = batch.round
    if rnd.stock:
        return True
    if len(rnd.discard) <= keep or not batch.state.profile.rebuild_allowed(rnd.rebuilds):
        return False
    pile = list(rnd.discard[:-keep])
    rng.shuffle(pile)
    batch.add(StockRebuilt(stock=tuple(pile), discard=rnd.discard[-keep:]))
    return True


def draw_from_stock(batch: Batch, rng: random.Random) -> None:
    """The active seat takes the stock top (R5.3), or the round ends with no winner (R10.2)."""
    if supply_stock_card(batch, rng):
        batch.add(CardDrawn(seat=batch.round.turn, source="stock", card=batch.round.stock[0]))
    else:
        batch.add(RoundEnded(winner=None, reason="no_card"))
