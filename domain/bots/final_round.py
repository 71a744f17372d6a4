"""The final round's planning analysis (RULES.md R8.2): the whole hand as three runs, chosen
greedily span by span (R4.3: same-suit runs apart). Standard library only; pure."""
from __future__ import annotations

from functools import lru_cache

from domain.bots.analysis import Analysis
from domain.bots.card_tables import BIT, POSITION_CODES, RUN_SIZE, SUIT
from domain.cards import ACE_HIGH, JOKER, SUITS
from domain.hand_tally import RUN_LOWS

FINAL_RUNS = 3
# Every span (low, high) of at least 4 positions, 1..14 (14 = high ace), longest first.
SPANS = tuple(sorted(((lo, hi) for lo in RUN_LOWS
                      for hi in range(lo + RUN_SIZE - 1, ACE_HIGH + 1)),
                     key=lambda span: (span[0] - span[1], span[0])))


def analyze_final(hand):
    """Round 7 (R8.2): three runs taking the whole hand, chosen greedily span by span.

    Each pick is the same-suit span ``(low, high)`` covering the most naturals net of its
    holes, not touching an earlier span of its suit (R4.3). ``need`` = holes the jokers cannot
    fill + naturals no span takes (each must be discarded and replaced by a draw). ``wanted``
    holds the hole cards and the cards extending a span at either end.
    """
    left = {}                           # natural code -> copies no span has taken yet
    present = dict.fromkeys(SUITS, 0)   # per suit: bit n set while position n is held
    jokers = 0
    for code in hand:
        if code == JOKER:
            jokers += 1
        else:
            left[code] = left.get(code, 0) + 1
            present[SUIT[code]] |= BIT[code]
    spans, holes, used, wanted, slots = [], 0, [], set(), []
    taken = dict.fromkeys(SUITS, ())    # per suit: the (low, high) spans picked so far
    for _ in range(FINAL_RUNS):
        pick = _best_span(present, taken)
        if pick is None:
            holes += RUN_SIZE
            continue
        suit, lo, hi = pick
        spans.append(pick)
        taken[suit] += ((lo, hi),)
        codes = POSITION_CODES[suit]
        for code in codes[lo:hi + 1]:
            copies = left.get(code)
            if copies:
                left[code] = copies - 1
                used.append(code)
                if copies == 1:         # the last copy: the position is no longer held
                    present[suit] &= ~BIT[code]
            else:
                holes += 1
                wanted.add(code)
                slots.append((code,))
        if lo > 1:
            wanted.add(codes[lo - 1])
        if hi < ACE_HIGH:
            wanted.add(codes[hi + 1])
    orphans = len(hand) - jokers - len(used)
    need = max(0, holes - jokers) + orphans
    support = {}                        # a dict: building a Counter costs more than this loop
    for code in used:
        support[code] = support.get(code, 0) + 1
    for code in support:
        support[code] /= support[code] + left[code]  # the copies held: used + left
    plans = [(need, (), tuple(spans))]
    return Analysis(need, frozenset(wanted), support, plans, jokers, ((need, used, slots),))


def _best_span(present, taken):
    """The span with the best (naturals covered - holes), or None if a suit has no natural.

    ``present``: per suit, the bits of the positions still held (see `BIT`); ``taken``: per
    suit, the ``(low, high)`` spans already picked. Ties go to the first suit, then the
    first span in ``SPANS`` order.
    """
    best, best_gain = None, None
    for suit, held in present.items():
        if not held:                    # no natural left in the suit: no span
            continue
        found = _suit_best_span(held, taken[suit])
        if found is not None and (best_gain is None or found[0] > best_gain):
            best_gain, best = found[0], (suit, found[1], found[2])
    return best


# (low, high, bits of its positions, length) of each span, in SPANS order.
_SPAN_BITS = tuple((lo, hi, ((1 << (hi + 1)) - 1) ^ ((1 << lo) - 1), hi - lo + 1)
                   for lo, hi in SPANS)


@lru_cache(maxsize=1 << 16)  # few distinct suits recur: the same rows come back every turn
def _suit_best_span(present, taken):
    """``(gain, low, high)`` of one suit's first best span, or None if it holds no natural.

    ``present`` has bit n set when position n (1..14, an ace at both ends) is held;
    ``taken`` are the ``(low, high)`` spans already picked in this suit, which a new span
    must not touch (R4.3).
    """
    if not present:
        return None
    best = None
    for lo, hi, bits, length in _SPAN_BITS:
        gain = 2 * (present & bits).bit_count() - length
        if best is not None and gain <= best[0]:
            continue
        if any(hi + 1 == tl or th + 1 == lo for tl, th in taken):
            continue
        best = (gain, lo, hi)
    return best
