"""Small tuple edits the fold handlers share (domain.fold, domain.fold_variants): the state is
tuples, so each change builds a new one."""
from __future__ import annotations

from bisect import bisect_left

from domain.melds import Meld


def replaced(items: tuple, index: int, value: object) -> tuple:
    """`items` with `value` at `index`."""
    return items[:index] + (value,) + items[index + 1:]


def without(hand: tuple[str, ...], card: str) -> tuple[str, ...]:
    """`hand` less one `card` (ValueError when absent)."""
    i = hand.index(card)
    return hand[:i] + hand[i + 1:]


def with_card(hand: tuple[str, ...], card: str) -> tuple[str, ...]:
    """The sorted `hand` with `card` inserted in order."""
    i = bisect_left(hand, card)
    return hand[:i] + (card,) + hand[i:]


def give(rnd: dict, seat: int, hand: tuple[str, ...]) -> None:
    """Set `seat`'s hand in the round fields `rnd`."""
    rnd["hands"] = replaced(rnd["hands"], seat, hand)


def placed(meld: Meld, card: str, end: str | None) -> Meld:
    """`meld` with the entry `card` added at `end` ("low" first, else last)."""
    cards = (card,) + meld.cards if end == "low" else meld.cards + (card,)
    return Meld(meld.owner, meld.kind, cards)
