"""Rounds 1-6's opening search: the contract at minimum lengths (R4.2, R4.3), for
`domain.search`.

A branch and bound over the few run windows (suit, low rank) a hand nearly fills, then a greedy
choice of groups from rank counts: a group only cares how many naturals of a rank are left and
the marginal cost of each further group of a rank never falls, so the cheapest groups are
simply the cheapest marginals. Jokers: the deck holds three (R1.2), so a meld of four or more
never lacks a natural and at most one group ever needs to borrow a natural from a run.
Round 7's search is domain/search_final.py.
"""
from functools import lru_cache

from domain.cards import JOKER, SUITS, card_at, joker_as, number_and_suit
from domain.hand_tally import (
    GROUP_LEN as _GROUP_LEN, RUN_LEN as _RUN_LEN, RUN_LOWS, position_rank as _rank,
    tally as _tally,
)
from domain.melds import GROUP, RUN


def _windows(held, max_holes):
    """Run windows (holes, suit index, low) with at least one natural, fewest holes first."""
    out = [(holes, si, low) for si, mask in enumerate(held)
           for holes, low in suit_windows(mask) if holes <= max_holes]
    out.sort()
    return out


@lru_cache(maxsize=None)  # one entry per suit mask seen (at most 2**14)
def suit_windows(mask):
    """(holes, low) of every window of one suit's position mask holding a natural."""
    return tuple((_RUN_LEN - have, low) for low in RUN_LOWS
                 if (have := ((mask >> low) & 0b1111).bit_count()))


def contract_plan(kinds, hand, stop_at_zero):
    """Branch and bound over run windows, then greedy groups.

    Minimises ``max(holes - jokers, melds without a natural)``, the number of cards still to
    draw. With ``stop_at_zero`` only plans of cost 0 matter (an opening now). Returns
    ``(cost, melds or None)``; melds are built only for cost 0.
    """
    n_groups, n_runs = kinds.count(GROUP), kinds.count(RUN)
    jokers, counts, totals, held = _tally(hand)
    windows = _windows(held, jokers if stop_at_zero else _RUN_LEN - 1)
    if not stop_at_zero:
        windows.append((_RUN_LEN, None, None))  # a run still to be drawn entirely
    group_floor = _groups(totals, n_groups, ())[0]
    worst = _RUN_LEN * n_runs + _GROUP_LEN * n_groups
    best = [1 if stop_at_zero else worst + 1, None]
    chosen = []  # (suit index, low, taken ranks by position or 0)

    def descend(i, first, holes, empty):
        if empty >= best[0]:
            return
        if i == n_runs:
            settle(holes, empty)
            return
        for w in range(first, len(windows)):
            floor, si, low = windows[w]
            if holes + floor * (n_runs - i) + group_floor - jokers >= best[0]:
                break  # windows are sorted by holes: none further can do better
            if si is None:
                chosen.append((None, None, ()))
                descend(i + 1, w, holes + _RUN_LEN, empty + 1)
                chosen.pop()
            elif not _touches(chosen, si, low):
                taken = _take(counts[si], totals, low)
                have = sum(1 for r in taken if r)
                chosen.append((si, low, taken))
                descend(i + 1, w, holes + _RUN_LEN - have, empty + (have == 0))
                chosen.pop()
                _give_back(counts[si], totals, taken)
            if best[0] == 0 and stop_at_zero:
                return

    def settle(holes, empty):
        cost, zero, plan = _groups(totals, n_groups, ())
        if zero:  # a group without a natural may borrow one from a run
            cost, zero, plan = _groups(totals, n_groups, _lendable(chosen))
        total = max(holes + cost - jokers, empty + zero)
        if total < best[0]:
            best[0] = total
            if total == 0:
                best[1] = _build_contract(chosen, plan, counts)

    descend(0, 0, 0, 0)
    descend = None  # it refers to itself through its cell: a cycle only the GC would free
    return best[0], best[1]


def _touches(chosen, si, low):
    """R4.3: a run of the same suit ending just below or starting just above this window."""
    return any(s == si and (other == low + _RUN_LEN or low == other + _RUN_LEN)
               for s, other, _ in chosen)


def _take(row, totals, low):
    """Take the window's naturals from the counts; return the rank taken per position (0: hole)."""
    taken = []
    for p in range(low, low + _RUN_LEN):
        r = _rank(p)
        if row[r]:
            row[r] -= 1
            totals[r] -= 1
            taken.append(r)
        else:
            taken.append(0)
    return tuple(taken)


def _give_back(row, totals, taken):
    for r in taken:
        if r:
            row[r] += 1
            totals[r] += 1


def _lendable(chosen):
    """Ranks a run can lend to a group and keep a natural (R3.3): {rank: run index}."""
    out = {}
    for index, (_, _, taken) in enumerate(chosen):
        if sum(1 for r in taken if r) >= 2:
            for r in taken:
                if r:
                    out.setdefault(r, index)
    return out


@lru_cache(maxsize=None)  # one entry per count of naturals a rank can have
def marginals(c):
    """Marginal holes of the 1st, 2nd, ... group of a rank with ``c`` naturals (one per natural)."""
    return tuple(max(0, _GROUP_LEN * j - c) - max(0, _GROUP_LEN * (j - 1) - c)
                 for j in range(1, c + 1))


def _groups(totals, n_groups, lendable):
    """Cheapest ``n_groups`` groups from rank totals: ``(holes, groups without natural, plan)``.

    ``plan`` lists ``(rank, borrowed)`` per group, rank 0 for a group still to be drawn.
    Marginal holes of the j-th group of a rank with c naturals: max(0, 3j-c) minus the same for
    j-1; they never fall, so the k smallest marginals are the best k groups. A group with no
    natural left costs 3 holes; it is one natural short unless it borrows from a run.
    """
    if not n_groups:
        return 0, 0, ()
    items = [(holes, 0, r, False) for r in range(1, 14)
             for holes in marginals(totals[r])[:n_groups]]
    items.extend((_GROUP_LEN, 0, r, True) for r in lendable)
    items.extend([(_GROUP_LEN, 1, 0, False)] * n_groups)
    items.sort()
    holes = zero = 0
    plan = []
    borrowed = False
    for cost, missing, r, borrow in items:
        if len(plan) == n_groups:
            break
        if borrow and borrowed:
            continue  # one run natural lent is all three jokers can ever pay for
        borrowed = borrowed or borrow
        holes += cost
        zero += missing
        plan.append((r, borrow))
    return holes, zero, tuple(plan)


def _build_contract(chosen, plan, counts):
    """Card lists for the chosen windows and group plan (cost 0: holes are all jokers)."""
    runs = []
    for si, low, taken in chosen:
        suit = SUITS[si]
        runs.append([card_at(p, suit) if r else joker_as(card_at(p, suit))
                     for p, r in zip(range(low, low + _RUN_LEN), taken)])
    groups = []
    for r, borrow in plan:
        if borrow:
            groups.append([_borrow(runs, r), JOKER, JOKER])
    per_rank = {}
    for r, borrow in plan:
        if not borrow:
            per_rank[r] = per_rank.get(r, 0) + 1
    for r, n in sorted(per_rank.items()):
        groups.extend(_deal_rank(counts, r, n))
    return groups + runs


def _borrow(runs, r):
    """Swap the natural of rank ``r`` out of a run that keeps another natural; return it."""
    for run in runs:
        if sum(1 for e in run if e[:2] != JOKER) < 2:
            continue
        for i, entry in enumerate(run):
            if entry[:2] != JOKER and number_and_suit(entry)[0] == r:
                run[i] = joker_as(entry)
                return entry
    raise AssertionError("no run could lend a natural")  # _lendable promised one


def _deal_rank(counts, r, n):
    """Split the remaining naturals of rank ``r`` into ``n`` groups of 3, jokers filling."""
    cards = [card_at(r, suit) for si, suit in enumerate(SUITS) for _ in range(counts[si][r])]
    groups = []
    for i in range(n):
        size = min(_GROUP_LEN, len(cards) - (n - i - 1))  # leave one for each later group
        group, cards = cards[:size], cards[size:]
        groups.append(group + [JOKER] * (_GROUP_LEN - size))
    return groups
