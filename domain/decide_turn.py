"""The active seat's draw and discard (R5.1-R5.7, R10.4)."""
from __future__ import annotations

import random

from domain.decide_buying import offer_or_draw
from domain.decide_claims import after_discard
from domain.decide_common import Batch, card_field, require_turn
from domain.errors import MalformedAction, RuleViolation
from domain.events import CardDiscarded, CardDrawn, Event, RoundEnded, StockChosen
from domain.state import DRAW, PLAY, GameState

SOURCES = ("stock", "discard")


def draw(state: GameState, seat: object, action: dict, rng: random.Random) -> list[Event]:
    """`{"type": "draw", "from": "stock"|"discard"}` (R5.1-R5.3).

    The discard top is taken at once (no buying, R5.2). Choosing the stock opens a buy offer
    when one can be paid (R6.1, R6.8), else takes the stock top, rebuilding it if needed
    (R10.1), or ends the round when no card can be supplied (R10.2). Raises RuleViolation
    R2.4/R5.1/R6.9 (see `require_turn`) or R5.1 (empty discard pile); MalformedAction for a
    bad source.
    """
    source = action.get("from")
    if source not in SOURCES:
        raise MalformedAction("R5.1", f"draw from 'stock' or 'discard', not {source!r}")
    rnd = require_turn(state, seat, DRAW)
    batch = Batch(state)
    if source == "discard":
        if not rnd.discard:
            raise RuleViolation("R5.1", "the discard pile is empty: draw from the stock")
        batch.add(CardDrawn(seat=seat, source="discard", card=rnd.discard[-1]))
    else:
        batch.add(StockChosen(seat=seat), changes_table=False)   # only a seat's timeouts
        offer_or_draw(batch, rng, barred=None)
    return batch.events


def discard(state: GameState, seat: object, action: dict, rng: random.Random) -> list[Event]:
    """`{"type": "discard", "card": "4D", "shanghai"?: bool}`: ends the turn (R5.5); the last
    card goes out (R5.6).

    The turn passes left, unless the hand is now empty (went out, R5.7) or the round reached
    the profile's `max_turns_per_round` (no winner, R10.4). Under `shanghai_call` an uncalled
    discard that fits a meld opens a claim; a called one is protected (R11.18). Raises
    RuleViolation R1.4 (not in hand), R5.5 (the card code taken from the discard pile this
    turn) or R11.18 (a call without `shanghai_call`), plus the turn guards.
    """
    rnd = require_turn(state, seat, PLAY)
    card = card_field(action)
    called = action.get("shanghai", False)
    if not isinstance(called, bool):
        raise MalformedAction("R11.18", f"shanghai is true or false, not {called!r}")
    if called and not state.profile.shanghai_call:
        raise RuleViolation("R11.18", "this profile has no Shanghai call")
    hand = rnd.hands[seat]
    if card not in hand:
        raise RuleViolation("R1.4", f"{card} is not in your hand")
    if card == rnd.taken_from_discard and any(other != card for other in hand):
        raise RuleViolation("R5.5", f"you took {card} from the discard pile this turn: "
                                    f"discard another card")
    batch = Batch(state)
    batch.add(CardDiscarded(seat=seat, card=card))
    if len(hand) == 1:
        batch.add(RoundEnded(winner=seat, reason="went_out"))
    elif rnd.turns >= state.profile.max_turns_per_round:
        batch.add(RoundEnded(winner=None, reason="turn_cap"))
    elif state.profile.shanghai_call:
        after_discard(batch, seat, card, called)
    return batch.events
