"""The deal of R2.3: a shuffled deck dealt one card at a time from the dealer's left."""
from __future__ import annotations


def deal_from_deck(deck: tuple[str, ...], dealer: int, seats: int, size: int
                   ) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...], tuple[str, ...]]:
    """Deal `deck` (R2.3): `size` cards to each seat one at a time, starting at the dealer's left.

    Returns (hands sorted, discard pile holding the upcard, stock top first).
    """
    dealt = seats * size
    first = (dealer + 1) % seats
    hands = tuple(tuple(sorted(deck[(seat - first) % seats:dealt:seats])) for seat in range(seats))
    return hands, tuple(deck[dealt:dealt + 1]), tuple(deck[dealt + 1:])
