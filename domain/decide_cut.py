"""The cut before a deal (RULES.md R11.19): the seat at the dealer's right lifts about
`count` cards; an exact cut earns the profile's bonus off that round's score."""
from __future__ import annotations

import random

from domain.decide_common import require_in_play, require_seat
from domain.errors import RuleViolation
from domain.events import Event, RoundDealt
from domain.events_variants import DeckCut
from domain.state import CUT, GameState

SPREAD = 3  # a hand lifts k + e cards, e uniform in -3..3 (R11.19 ruling)


def cut(state: GameState, seat: object, action: dict, rng: random.Random) -> list[Event]:
    """`{"type": "cut", "count": k}`, 1 <= k < deck size (R11.19): DeckCut, then RoundDealt
    with the deck turned at the lifted card.

    Raises RuleViolation R11.19 (no cut awaited, or a bad count) or R2.4 (not the cutter).
    """
    rnd = require_in_play(state)
    seat = require_seat(state, seat)
    if rnd.phase != CUT:
        raise RuleViolation("R11.19", "no cut is awaited now")
    if seat != rnd.turn:
        raise RuleViolation("R2.4", f"seat {rnd.turn}, at the dealer's right, cuts")
    deck = rnd.stock
    count = action.get("count")
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count < len(deck):
        raise RuleViolation("R11.19", f"cut 1 to {len(deck) - 1} cards, not {count!r}")
    lifted = min(max(count + rng.randint(-SPREAD, SPREAD), 1), len(deck) - 1)
    dealt = state.seats * state.profile.deal_size(rnd.number)
    return [DeckCut(seat=seat, count=count, lifted=lifted, exact=lifted == dealt),
            RoundDealt(round=rnd.number, dealer=rnd.dealer, deck=deck[lifted:] + deck[:lifted])]

