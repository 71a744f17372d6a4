"""Buy-offer arithmetic (RULES.md §6): seat priority, who still owes an answer, the outcome."""
from __future__ import annotations

from functools import lru_cache

from domain.state import Offer, RoundState, adopt

PENDING = "pending"


@lru_cache(maxsize=None)  # a handful of (active, seats) pairs, asked at every offer step
def priority_order(active: int, seats: int) -> tuple[int, ...]:
    """The other seats, nearest to the active seat's left first (R6.2)."""
    return tuple((active + step) % seats for step in range(1, seats))


@lru_cache(maxsize=None)  # a handful of (active, seats, barred, capped), asked at every step
def _eligible(active: int, seats: int, barred: int | None,
              capped: tuple[int, ...]) -> tuple[int, ...]:
    """Seats that may answer an offer: not the active seat (R6.7), not the barred one (R6.4),
    none at the purchase cap (R11.9)."""
    return tuple(s for s in priority_order(active, seats) if s != barred and s not in capped)


def with_answer(offer: Offer, seat: int, buys: bool) -> Offer:
    """`offer` after `seat` asked to buy (`buys`) or passed (R6.2, R6.9)."""
    # Built without the frozen dataclass's __init__ (one object.__setattr__ per field): the
    # answers of big tables are most of a game's events (bench/variant_fold.py). The copied
    # fields become the new offer's instance dict as they are (no second copy); dict.copy
    # clones the table whole (`domain.fold`).
    fields = offer.__dict__.copy()
    if buys:
        fields["buyers"] = offer.buyers + (seat,)
    else:
        fields["passed"] = offer.passed + (seat,)
    return adopt(Offer, fields)


def with_passes(offer: Offer, seats: tuple[int, ...]) -> Offer:
    """`offer` after `seats` passed, in that order (R6.2, R6.9); built like `with_answer`."""
    fields = offer.__dict__.copy()
    fields["passed"] = offer.passed + seats
    return adopt(Offer, fields)


def outcome(offer: Offer, active: int, seats: int) -> int | None | str:
    """The offer's resolution as far as it is certain (R6.9).

    Returns the winning buyer's seat, None when every eligible seat declined, or PENDING while
    a seat ahead of the best request has not answered.
    """
    return _settled(active, seats, offer.barred, offer.capped, offer.buyers, offer.passed)[0]


def waiting_for(offer: Offer, active: int, seats: int) -> tuple[int, ...]:
    """Seats whose answer still matters: unanswered eligible seats ahead of the best request."""
    return _settled(active, seats, offer.barred, offer.capped, offer.buyers, offer.passed)[1]


def first_waiting(offer: Offer, active: int, seats: int) -> int | None:
    """`waiting_for(...)[0]`, None when no answer matters."""
    waiting = waiting_for(offer, active, seats)
    return waiting[0] if waiting else None


# Every decision of an offer asks who must answer (the loop, the legal actions, the view)
# and each answer asks the outcome: a few hundred distinct offers recur (seats, who is
# barred or capped, who answered), so both are kept per offer's fields, bounded.
@lru_cache(maxsize=4096)
def _settled(active: int, seats: int, barred: int | None, capped: tuple[int, ...],
             buyers: tuple[int, ...], passed: tuple[int, ...]) -> tuple:
    """``(outcome, waiting_for)`` of an offer with these fields (see those functions)."""
    waiting = []
    for seat in _eligible(active, seats, barred, capped):
        if seat in buyers:   # the best request: settled unless a seat ahead owes an answer
            return (PENDING if waiting else seat), tuple(waiting)
        if seat not in passed:
            waiting.append(seat)
    return (PENDING if waiting else None), tuple(waiting)


def purchase_payable(rnd: RoundState, penalty_cards: int = 1, rebuild: bool = True) -> bool:
    """R6.8 generalised (R11.10): with S the stock, P the pile after the discard top leaves
    and R = P - 1 when a rebuild is still allowed (R11.17, one rebuild keeps the pile's top)
    else 0, can all penalty cards and then the active seat's own card be supplied:
    S + R >= penalty_cards + 1?"""
    pile_after = len(rnd.discard) - 1
    spare = max(0, pile_after - 1) if rebuild else 0
    return len(rnd.stock) + spare >= penalty_cards + 1
