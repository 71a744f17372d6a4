"""Lookup tables of the planning bots: each natural code's rank, suit, points and bits, the
run windows and group ranks (RULES.md R1.2, R3.1, R3.2, R4.2). Built once at import; pure.

A run window ``(suit, low)`` is the 4 positions ``low..low+3`` of one suit (14 = high ace);
an ace sits at position 1 and 14.
"""
from __future__ import annotations

from domain.cards import ACE_HIGH, JOKER, SUITS, card_at, card_points, number_and_suit
from domain.hand_tally import RUN_LOWS

GROUP, RUN = "group", "run"
GROUP_SIZE, RUN_SIZE = 3, 4            # minimum meld lengths at opening (R4.2)

# Per natural code: rank number (ace 1), suit, points; per (number 1..14, suit): code.
NUM = {}
SUIT = {}
POINTS = {JOKER: card_points(JOKER)}
for _suit in SUITS:
    for _n in range(1, 14):
        _code = card_at(_n, _suit)
        NUM[_code], SUIT[_code] = number_and_suit(_code)
        POINTS[_code] = card_points(_code)
WINDOW_CODES = {(s, low): tuple(card_at(n, s) for n in range(low, low + RUN_SIZE))
                for s in SUITS for low in RUN_LOWS}
WINDOW_SETS: dict[tuple[str, int] | None, frozenset[str]] = {
    window: frozenset(codes) for window, codes in WINDOW_CODES.items()}
WINDOW_SETS[None] = frozenset()        # a run slot with no candidate window holds nothing
# Per natural code: the windows holding it (an ace sits in the lowest and the highest).
CARD_WINDOWS = {code: frozenset(w for w, codes in WINDOW_SETS.items() if code in codes)
                for code in NUM}
# Per suit, the code at each run position 1..14 (both ends are the ace; index 0 unused).
POSITION_CODES = {s: (None,) + tuple(card_at(n, s) for n in range(1, ACE_HIGH + 1))
                  for s in SUITS}
# Bit n of a suit mask = rank number n held (an ace sets bits 1 and 14).
SUIT_INDEX = {code: SUITS.index(SUIT[code]) for code in NUM}
BIT = {code: (1 << NUM[code]) | ((1 << ACE_HIGH) if NUM[code] == 1 else 0) for code in NUM}
POPCOUNT4 = tuple(bin(i).count("1") for i in range(16))
RANK_CODES = {n: tuple(card_at(n, s) for s in SUITS) for n in range(1, 14)}
RANK_POINTS = {n: POINTS[card_at(n, SUITS[0])] for n in range(1, 14)}
RANK_SETS = {n: frozenset(codes) for n, codes in RANK_CODES.items()}


def _reach(a, b):
    """Rank distance within a run, the ace counting low or high (R3.2)."""
    d = abs(a - b)
    if min(a, b) == 1:
        d = min(d, ACE_HIGH - max(a, b))
    return d


# Per natural code: the codes of its suit close enough to share a run with it (R3.2: rank
# distance under RUN_SIZE, the ace low or high), itself included.
RUN_REACH = {code: frozenset(c for c in NUM if SUIT[c] == SUIT[code]
                             and _reach(NUM[c], NUM[code]) < RUN_SIZE) for code in NUM}


def _suit_mates(code):
    """``(code, weight)`` of the suit mates `planning.potential` looks for around natural
    ``code``: ranks 1 apart weigh 2, ranks 2 apart 1. Below an ace (1) it looks at position
    14, which `card_at` gives as the ace itself: kept as the bots have always scored it."""
    n, s = NUM[code], SUIT[code]
    mates = []
    for d in (-2, -1, 1, 2):
        m = n + d
        if m == 0:
            m = ACE_HIGH if d == -1 else None
        if m is not None and 1 <= m <= ACE_HIGH:
            mates.append((card_at(m, s), 2 if abs(d) == 1 else 1))
    return tuple(mates)


SUIT_MATES = {code: _suit_mates(code) for code in NUM}
