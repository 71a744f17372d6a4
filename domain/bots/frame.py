"""The candidate frame of a planning analysis: which one-card changes leave it unchanged.

`planning.analyze` (rounds 1-6) scores plans over a few *candidate* group ranks (the
``n_groups + 1`` ranks holding most cards) and run windows (the ``n_runs + 2`` windows
holding most distinct ranks), each chosen by a total order of keys: ``(-cards, points,
rank)`` for ranks and ``(-held, low, suit)`` for windows. A plan's need depends only on the
hand's cards of its ranks and windows, so when one card is added to or removed from a hand
and the candidates stay the same without involving that card, every plan scores the same
and the analysis of the new hand is the analysis of the old one, identical in every field
(the card has no support either way, R2.1/R4.2 arithmetic untouched):

- removing a natural ``x``: its rank is not a candidate and no candidate window holds it
  (its rank and windows can only fall in the order, so they stay out);
- adding a natural ``y``: its rank is not a candidate and its raised key still ranks after
  the last candidate's, and no candidate window holds ``y`` and every window holding it,
  raised by one held rank if ``y`` is new to the hand, still ranks after the last
  candidate window.

A joker changes every plan's need, so it never keeps the frame. When fewer ranks (windows)
hold a card than there are candidates, every rank (window) with a card is a candidate and
the cut is None: any new one would enter. Contracts without groups (runs) ignore ranks
(windows). Standard library only; pure.
"""
from __future__ import annotations

from domain.cards import ACE_HIGH, JOKER, SUITS, card_at, card_points, number_and_suit
from domain.hand_tally import RUN_LOWS

RUN_SIZE = 4

# Per natural: rank number (ace 1), its rank's points, and the windows holding it as
# ((suit, low), that window's codes); an ace sits in the lowest and the highest window.
_RANK = {}
_RANK_POINTS = {}
_RANK_CODES = {n: tuple(card_at(n, s) for s in SUITS) for n in range(1, 14)}
_WINDOWS = {}
for _suit in SUITS:
    _codes = {n: card_at(n, _suit) for n in range(1, ACE_HIGH + 1)}
    for _n in range(1, 14):
        _code = _codes[_n]
        _RANK[_code] = number_and_suit(_code)[0]
        _RANK_POINTS[_code] = card_points(_code)
        _positions = (1, ACE_HIGH) if _n == 1 else (_n,)
        _WINDOWS[_code] = tuple(
            ((_suit, low), tuple(_codes[p] for p in range(low, low + RUN_SIZE)))
            for low in RUN_LOWS if any(low <= p < low + RUN_SIZE for p in _positions))


class Frame:
    """The candidates an analysis was built on, as far as a one-card change needs them.

    - ``ranks``: tuple of the candidate group ranks, best key first, padded with None (None:
      the contract has no group);
    - ``rank_cut``: key ``(-cards, points, rank)`` of the last candidate rank, None when
      every rank holding a card is a candidate;
    - ``codes``: frozenset of the codes of every candidate window (None: no run);
    - ``window_cut``: key ``(-held, low, suit)`` of the last candidate window, or None.
    """

    __slots__ = ("ranks", "rank_cut", "codes", "window_cut")

    def __init__(self, ranks, rank_cut, codes, window_cut):
        self.ranks, self.rank_cut, self.codes, self.window_cut = ranks, rank_cut, codes, window_cut


def keeps_without(frame, card):
    """True if the hand without one ``card`` has the same analysis as the hand."""
    if card == JOKER:
        return False
    if frame.ranks is not None and _RANK[card] in frame.ranks:
        return False
    return frame.codes is None or card not in frame.codes


def keeps_with(frame, hand, card):
    """True if ``hand`` (a tuple of codes) plus ``card`` has the same analysis as
    ``hand``: the card's rank and windows stay out of the candidates."""
    if card == JOKER:
        return False
    if frame.ranks is not None:
        rank = _RANK[card]
        if rank in frame.ranks or frame.rank_cut is None:
            return False
        held = 1 + sum(map(hand.count, _RANK_CODES[rank]))
        if (-held, _RANK_POINTS[card], rank) < frame.rank_cut:
            return False
    if frame.codes is not None:
        if card in frame.codes or frame.window_cut is None:
            return False
        if card not in hand:        # new to the hand: each window holding it gains a rank
            cut = frame.window_cut
            for (suit, low), (a, b, c, d) in _WINDOWS[card]:   # RUN_SIZE codes, unrolled
                held = 1 + (a in hand) + (b in hand) + (c in hand) + (d in hand)
                if (-held, low, suit) < cut:
                    return False
    return True
