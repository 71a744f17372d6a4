"""How far a hand is from going out in a final round of runs (RULES.md R8.2, R11.4-R11.6,
R11.13-R11.15), under any profile: the bots' guide for draws and discards there.

Going out in such a round lays the whole hand as the contract's runs, so a card no run can take
is as bad as a missing one: it must be discarded and replaced by a draw. `final_need` picks the
runs greedily, longest contract run first, each the same-suit span that covers the most
naturals net of its holes (R4.3: not touching an earlier span of its suit; overlapping spans
use other copies), and counts the holes its wild cards cannot fill plus the naturals no span
takes. It is a heuristic, not a legality check: going out itself is found by the search behind
the legal actions.

Shapes: a hand is a sorted tuple of card codes; `mins` the contract's minimum run lengths.
Standard library only.
"""
from __future__ import annotations

from functools import lru_cache

from domain.cards import ACE_HIGH, JOKER, SUITS, number_and_suit

LONGEST_RUN = 13  # a run holds each rank once (R3.2)


@lru_cache(maxsize=4096)  # a seat asks about the same few hands at its draw and its discard
def final_need(hand: tuple[str, ...], mins: tuple[int, ...], high_only: bool,
               wild_twos: bool, per_run: int | None) -> int:
    """Cards to replace before `hand` can be laid whole as runs of lengths `mins`.

    `high_only`: aces only above the king (R11.14); `wild_twos`: deuces are wild (R11.15);
    `per_run`: at most that many wild cards in one run (R11.13), None for no limit.
    """
    wilds = 0
    counts: dict[str, int] = {}
    for code in hand:
        if code == JOKER or (wild_twos and code[:-1] == "2"):
            wilds += 1
        else:
            counts[code] = counts.get(code, 0) + 1
    rows = {suit: [0] * (ACE_HIGH + 1) for suit in SUITS}
    for code, n in counts.items():
        number, suit = number_and_suit(code)
        rows[suit][number] = n
    holes = fillable = 0
    taken: list[tuple[str, int, int]] = []
    for length in sorted(mins, reverse=True):
        pick = _best_span(rows, taken, length, high_only, per_run)
        if pick is None:
            holes += length - 1   # a run to start from one natural still to draw
            fillable += 1
            continue
        suit, lo, hi, missing = pick
        taken.append((suit, lo, hi))
        row = rows[suit]
        for n in range(lo, hi + 1):
            if row[_index(n)]:
                row[_index(n)] -= 1
        allowed = missing if per_run is None else min(missing, per_run)
        holes += missing
        fillable += missing - allowed  # holes beyond the run's wild-card limit need naturals
    orphans = sum(sum(row[1:]) for row in rows.values())
    spare_wilds = 0 if per_run is None else max(0, wilds - per_run * len(mins))
    return max(0, holes - fillable - wilds) + fillable + orphans + spare_wilds


def _index(n: int) -> int:
    return 1 if n == ACE_HIGH else n


def _best_span(rows, taken, length, high_only, per_run):
    """`(suit, low, high, holes)` of the span of at least `length` with the best naturals
    covered net of holes, or None when no suit has a natural left."""
    best, best_gain = None, None
    first = 2 if high_only else 1
    for suit in SUITS:
        row = rows[suit]
        held = [False] + [bool(row[_index(n)]) for n in range(1, ACE_HIGH + 1)]
        if not any(held[first:]):
            continue
        near = [(lo, hi) for s, lo, hi in taken if s == suit]
        for lo in range(first, ACE_HIGH - length + 2):
            covered = 0
            for hi in range(lo, min(ACE_HIGH, lo + LONGEST_RUN - 1) + 1):
                covered += held[hi]
                size = hi - lo + 1
                if size < length or not covered:
                    continue
                missing = size - covered
                if per_run is not None and missing > per_run + 1:
                    break
                if any(hi + 1 == t_lo or t_hi + 1 == lo for t_lo, t_hi in near):
                    continue
                gain = 2 * covered - size
                if best_gain is None or gain > best_gain:
                    best, best_gain = (suit, lo, hi, missing), gain
    return best
