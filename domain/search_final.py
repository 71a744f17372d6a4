"""Round 7's opening (R8.2): the whole hand as three runs, same-suit runs apart (R4.3).

A small dynamic programme per suit over rank positions 1..14 decides where runs start and
stop (`_suit_runs`); `final_plan` shares the three runs and the jokers among the suits.
`may_go_out` is the cheap necessary condition checked first. Pure.
"""
from functools import lru_cache

from domain.cards import ACE_HIGH, JOKER, SUITS, card_at, joker_as
from domain.hand_tally import NATURAL, RUN_LEN, tally


def may_go_out(hand):
    """Round 7's necessary condition (R8.2): the whole hand can be three runs only if its
    naturals lie in at most three suits and the fewest holes those runs could have does not
    exceed the jokers (every card is used, so the holes are exactly the jokers).

    Each suit with naturals gets at least one of the three runs. A suit with one run holds
    all its naturals in one interval of at least 4 positions, one natural per position: at
    least ``max(4, span) - naturals`` holes (the span with its aces low or high, whichever is
    shorter; a repeated card rules one run out, two aces need the run from ace to ace). A
    suit with r runs has at least ``4r - naturals`` holes. True for an unknown code (the
    search raises on it).
    """
    jokers = 0
    suits = {}   # suit index -> [naturals, rank mask, a card repeated, aces]
    for code in hand:
        found = NATURAL.get(code)
        if found is None:
            if code != JOKER:
                return True
            jokers += 1
            continue
        number, si, _ = found
        row = suits.get(si)
        if row is None:
            row = suits[si] = [0, 0, False, 0]
        row[0] += 1
        if number == 1:
            row[3] += 1
        elif row[1] >> number & 1:
            row[2] = True
        row[1] |= 1 << number
    if len(suits) > 3:
        return False
    if not suits:
        return True
    rows = list(suits.values())
    least = min(sum(_suit_holes(row, r) for row, r in zip(rows, runs))
                for runs in _RUN_SHARES[len(rows)])
    return least <= jokers


# Ways to share the three runs among 1, 2 or 3 suits, each suit at least one.
_RUN_SHARES = {1: ((3,),), 2: ((1, 2), (2, 1)), 3: ((1, 1, 1),)}


def _suit_holes(row, runs):
    """The fewest holes ``runs`` runs of one suit can have (see `_may_go_out`); ``row`` is
    ``[naturals, rank mask (bit n: rank n held), a non-ace card repeated, aces]``."""
    naturals, mask, repeated, aces = row
    if runs > 1:
        return max(0, RUN_LEN * runs - naturals)
    if repeated or aces > 2:
        return ACE_HIGH + 1          # more than any hand's jokers: one run cannot hold them
    others = mask & ~2               # the ranks 2..13 held
    if aces == 2:
        span = ACE_HIGH              # ace low and ace high: the run goes from ace to ace
    elif not others:
        span = 1
    else:
        low, high = (others & -others).bit_length() - 1, others.bit_length() - 1
        if aces:
            span = min(high, ACE_HIGH - low + 1)   # the ace low (1..high) or high (low..14)
        else:
            span = high - low + 1
    return max(RUN_LEN, span) - naturals


def final_plan(hand):
    """Three runs using every card of ``hand`` (R8.2), same-suit runs apart (R4.3), or None."""
    jokers, counts, _, _ = tally(hand)
    suits = [si for si in range(len(SUITS)) if any(counts[si])]
    if not suits or len(suits) > 3:
        return None
    for runs_per_suit in _splits(3, len(suits), 1):
        for jokers_per_suit in _splits(jokers, len(suits), 0):
            spans = []
            for si, m, j in zip(suits, runs_per_suit, jokers_per_suit):
                found = _suit_runs(tuple(counts[si]), m, j)
                if found is None:
                    break
                spans.append((si, found))
            else:
                return _build_final(spans)
    return None


def _splits(total, parts, least):
    """Every tuple of ``parts`` integers >= ``least`` summing to ``total``."""
    if parts == 1:
        return [(total,)] if total >= least else []
    return [(first,) + rest for first in range(least, total + 1)
            for rest in _splits(total - first, parts - 1, least)]


@lru_cache(maxsize=4096)
def _suit_runs(row, n_runs, n_jokers):
    """Runs of one suit covering exactly its naturals: ``(intervals, need)`` or None.

    ``row[r]`` counts the suit's naturals of rank r (1..13); exactly ``n_jokers`` fill the
    rest. Each ace goes low (position 1) or high (14); ``need[p]`` is then the naturals at
    position p. ``intervals`` are ``(low, high)`` positions of ``n_runs`` runs, each at least 4
    long, no two meeting end to start (R4.3).
    """
    aces = row[1]
    for low_aces in range(aces, -1, -1):
        need = list(row) + [aces - low_aces]
        need[1] = low_aces
        need = tuple(need)
        found = _cover(need, n_runs, n_jokers)
        if found is not None:
            return found, need
    return None


def _cover(need, n_runs, n_jokers):
    """Intervals ``((low, high), ...)`` of ``n_runs`` runs covering ``need`` with ``n_jokers``, or None."""
    return _step(need, 1, (), n_runs, n_jokers)


@lru_cache(maxsize=1 << 16)
def _step(need, p, opened, runs_left, jokers_left):
    """Positional DP over positions p..14: at each boundary close runs or start runs, not both.

    ``opened`` holds the start positions of the runs covering p-1. Closing a run that ends at
    p-1 and starting one at p would make them contiguous (R4.3); overlapping runs are fine.
    Cached across calls (keyed by ``need``): round-7 hands differ by a card or two.
    """
    if p > ACE_HIGH:
        done = runs_left == 0 and jokers_left == 0 and all(p - s >= RUN_LEN for s in opened)
        return tuple((s, ACE_HIGH) for s in opened) if done else None
    if not opened and not runs_left:
        return () if jokers_left == 0 and not any(need[p:]) else None
    may_start = runs_left if p <= ACE_HIGH - RUN_LEN + 1 else 0
    for closing, still in _closings(opened, p):
        for n_new in range(0, (0 if closing else may_start) + 1):
            now = still + (p,) * n_new
            holes = len(now) - need[p]
            if holes < 0 or holes > jokers_left:
                continue
            rest = _step(need, p + 1, now, runs_left - n_new, jokers_left - holes)
            if rest is not None:
                return tuple((s, p - 1) for s in closing) + rest
    return None


@lru_cache(maxsize=None)
def _closings(opened, p):
    """``(closing, still_open)`` splits of the open runs (their starts) ending at p-1.

    Only runs at least 4 long may close; the empty closing comes first. Cached: at most
    three runs are open, so there are few distinct arguments.
    """
    seen = {}
    for mask in range(1 << len(opened)):
        closing = tuple(s for i, s in enumerate(opened) if mask >> i & 1)
        if all(p - s >= RUN_LEN for s in closing) and closing not in seen:
            seen[closing] = tuple(s for i, s in enumerate(opened) if not mask >> i & 1)
    return tuple(sorted(seen.items(), key=lambda item: len(item[0])))


def _build_final(spans):
    """Card lists: each position gets a natural while the suit has one there, else a joker."""
    melds = []
    for si, (intervals, need) in spans:
        suit = SUITS[si]
        left = list(need)
        for low, high in intervals:
            run = []
            for p in range(low, high + 1):
                if left[p]:
                    left[p] -= 1
                    run.append(card_at(p, suit))
                else:
                    run.append(joker_as(card_at(p, suit)))
            melds.append(run)
    return melds
