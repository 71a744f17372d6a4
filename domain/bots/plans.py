"""Plans of rounds 1-6 (RULES.md R2.1, R4.2, R4.3): the candidate group ranks and run
windows of a hand, and the need of each plan.

A plan is ``(groups, runs)``: a rank (1..13, or None: no candidate) per group and a window
``(suit, low)`` (or None) per run. Its need is the cards still to draw before opening with
it: the holes the jokers cannot fill plus one per meld without a natural (R3.3).
``naturals`` maps a hand's natural codes to their copies (`naturals_of`). Standard library
only; pure.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from domain.bots.card_tables import (
    BIT, GROUP, GROUP_SIZE, NUM, POPCOUNT4, RANK_CODES, RANK_POINTS, RUN_SIZE, SUIT_INDEX,
    WINDOW_CODES, WINDOW_SETS,
)
from domain.bots.frame import Frame
from domain.cards import JOKER, SUITS
from domain.hand_tally import RUN_LOWS


def naturals_of(cards):
    """``(naturals, jokers)`` of ``cards``: a dict natural code -> copies, in first-seen order,
    and the number of jokers. A plain dict: building a Counter costs several times more than
    this loop, and it is built at every analysis and buy question."""
    naturals = {}
    get = naturals.get
    for code in cards:
        naturals[code] = get(code, 0) + 1
    return naturals, naturals.pop(JOKER, 0)


def from_scratch(kinds):
    """The need of a contract with no card of it in hand."""
    n_groups = kinds.count(GROUP)
    return n_groups * GROUP_SIZE + (len(kinds) - n_groups) * RUN_SIZE


def least_need(kinds, naturals, jokers):
    """The ``need`` `planning._analyze` would find, without detailing any plan."""
    needs = [plan_need(naturals, jokers, groups, runs)
             for groups, runs in _candidate_plans(kinds, naturals)]
    return min(needs) if needs else from_scratch(kinds)


def _candidate_plans(kinds, naturals):
    """Every ``(groups, runs)`` plan over the candidate ranks and windows, in a fixed order."""
    group_sets, run_sets = candidates(kinds, naturals)
    return [(groups, runs) for groups in group_sets for runs in run_sets]


def candidates(kinds, naturals):
    """The candidate group ranks and run windows of a plan: ``(group sets, run sets)``."""
    return framed_candidates(kinds, naturals)[:2]


def framed_candidates(kinds, naturals):
    """``(group sets, run sets, frame)``: the candidates and their `frame.Frame`.

    Groups: each ``n_groups``-subset of the ``n_groups + 1`` likeliest ranks; runs: each
    ``n_runs``-subset of the ``n_runs + 2`` likeliest windows whose same-suit runs keep
    apart (R4.3). Contracts without runs skip the window search.
    """
    n_groups = kinds.count(GROUP)
    n_runs = len(kinds) - n_groups
    ranks, rank_cut = _group_candidates(naturals, n_groups + 1) if n_groups else ((), None)
    run_sets, window_cut, codes = _run_sets(n_runs, naturals)
    frame = Frame(ranks if n_groups else None, rank_cut, codes, window_cut)
    return list(combinations(ranks, n_groups)), run_sets, frame


def candidates_with(kinds, naturals, frame, card):
    """`candidates(kinds, naturals)` for ``naturals`` that count one natural ``card`` more than
    the hand whose analysis has ``frame``, without ranking every rank again: the same plans,
    a group set's ranks maybe in another order (for callers that only ask whether some plan
    qualifies).

    Adding the card lifts only its own rank's key, so that rank enters the group candidates
    exactly when its new key ranks before the frame's cut, in place of the last candidate
    (or of a None when the frame is padded). The windows are chosen afresh.
    """
    n_groups = kinds.count(GROUP)
    ranks = frame.ranks or ()
    rank = NUM[card]
    if n_groups and rank not in ranks:
        cut = frame.rank_cut
        if cut is None:            # every rank with a card is a candidate: it joins them
            pad = ranks.index(None)
            ranks = ranks[:pad] + (rank,) + ranks[pad + 1:]
        else:                      # the rank's key with the card counted
            held = sum(map(naturals.get, RANK_CODES[rank], (0, 0, 0, 0)))
            if (-held, RANK_POINTS[rank], rank) < cut:
                ranks = ranks[:-1] + (rank,)
    return list(combinations(ranks, n_groups)), _run_sets(len(kinds) - n_groups, naturals)[0]


def _run_sets(n_runs, naturals):
    """``(run sets, window cut, codes)`` of `_run_choice` for the suit masks of ``naturals``
    (``((),), None, None`` for a contract without runs)."""
    if not n_runs:
        return ((),), None, None
    masks = [0, 0, 0, 0]
    for code in naturals:
        masks[SUIT_INDEX[code]] |= BIT[code]
    return _run_choice(n_runs, *masks)


@lru_cache(maxsize=4096)  # hands one card apart share most suit masks
def _run_choice(n_runs, *masks):
    """``(run sets, window cut, codes of the candidate windows)`` for the suits' rank masks
    (in SUITS order): see `_run_candidates` and `frame.Frame`."""
    run_cands, window_cut = _run_candidates(masks, n_runs + 2)
    codes = frozenset().union(*(WINDOW_SETS[w] for w in run_cands))
    run_sets = tuple(combinations(run_cands, n_runs))
    if not _runs_apart(run_cands):   # only then can a set of them break R4.3
        run_sets = tuple(runs for runs in run_sets if _runs_apart(runs))
    return run_sets, window_cut, codes


def _group_candidates(naturals, k):
    """The ``k`` ranks with most cards (fewer points first on ties), padded with None, and
    the key of the last one (None when padded: every rank with a card is a candidate)."""
    by_rank = {}
    for code, n in naturals.items():
        by_rank[NUM[code]] = by_rank.get(NUM[code], 0) + n
    ranked = sorted([(-n, RANK_POINTS[rank], rank) for rank, n in by_rank.items()])[:k]
    if len(ranked) < k:
        return tuple(rank for _, _, rank in ranked) + (None,) * (k - len(ranked)), None
    return tuple(rank for _, _, rank in ranked), ranked[-1]


def _run_candidates(masks, k):
    """The ``k`` windows ``(suit, low)`` holding most distinct ranks, padded with None, and
    the key ``(-held, low, suit)`` of the last one (None when padded). ``masks``: per suit
    (SUITS order), the bits of the rank positions held (see `BIT`). Keys are distinct, so
    the first ``k`` of all suits are among each suit's own first ``k``: only those are sorted."""
    windows = []
    for suit, mask in zip(SUITS, masks):
        if mask:
            windows += _suit_windows(suit, mask)[:k]
    windows.sort()
    chosen = tuple((s, low) for _, low, s in windows[:k])
    if len(chosen) < k:
        return chosen + (None,) * (k - len(chosen)), None
    return chosen, windows[k - 1]


@lru_cache(maxsize=None)  # at most 4 suits x 2**14 rank masks, far fewer in practice
def _suit_windows(suit, mask):
    """``(-held, low, suit)`` for every window of a suit's rank mask holding a card, sorted."""
    return tuple(sorted((-POPCOUNT4[(mask >> low) & 15], low, suit)
                        for low in RUN_LOWS if (mask >> low) & 15))


def _runs_apart(runs):
    """R4.3: two same-suit runs may overlap but must not touch (lows 4 apart)."""
    for a, b in combinations(runs, 2):
        if a is not None and b is not None and a[0] == b[0] and abs(a[1] - b[1]) == RUN_SIZE:
            return False
    return True


def bounded_need(naturals, jokers, groups, runs, got):
    """A lower bound of `plan_need`, equal to it when no two melds of the plan ask for the
    same code (`shares_codes`): each meld then takes its cards alone, and a shared code only
    lowers what a later meld gets (the need grows with each card short). ``got``: a dict
    kept by the caller over the plans of one hand, meld -> the cards it gets alone."""
    missing = empty = 0
    for window in runs:
        n = got.get(window)
        if n is None:
            if window is None:
                n = 0
            else:   # distinct codes of the window held (RUN_SIZE codes, unrolled)
                a, b, c, d = WINDOW_CODES[window]
                n = got[window] = ((a in naturals) + (b in naturals) + (c in naturals)
                                   + (d in naturals))
        missing += RUN_SIZE - n
        empty += not n
    for rank in groups:
        n = got.get(rank)
        if n is None:
            if rank is None:
                n = 0
            else:
                a, b, c, d = RANK_CODES[rank]
                n = naturals.get(a, 0) + naturals.get(b, 0) + naturals.get(c, 0) + naturals.get(d, 0)
                n = got[rank] = n if n < GROUP_SIZE else GROUP_SIZE
        missing += GROUP_SIZE - n
        empty += not n
    return max(0, missing - jokers) + empty


@lru_cache(maxsize=4096)  # a few hundred plans recur in every game; bounded for a worker
def shares_codes(groups, runs):
    """True when two melds of the plan ask for one code: same-suit windows that overlap (or
    the two ace windows of a suit), or a group rank with a code in one of the windows."""
    codes = [code for window in runs if window is not None for code in WINDOW_CODES[window]]
    ranks = {NUM[code] for code in codes}
    return len(set(codes)) < len(codes) or any(rank in ranks for rank in groups)


def plan_need(naturals, jokers, groups, runs, used=None, gaps=None):
    """The ``need`` of one plan; ``used``/``gaps`` (lists), when given, receive the codes the
    plan takes and one slot per missing card (see Analysis).

    Runs take their exact cards first (a group can use any suit of its rank, a run only one
    card), then groups take what is left of their rank (group ranks are distinct, so no
    group takes from another). `need_with` scores every candidate plan of hands it never
    details with neither list, so that path records nothing.
    """
    avail = naturals.copy()   # a clone of the table: cheaper than dict(naturals)
    missing = empty = 0
    for window in runs:
        if window is None:
            missing += RUN_SIZE
            empty += 1
            continue
        got = 0
        for code in WINDOW_CODES[window]:
            if avail.get(code):
                avail[code] -= 1
                got += 1
                if used is not None:
                    used.append(code)
            elif gaps is not None:
                gaps.append((code,))
        missing += RUN_SIZE - got
        empty += not got
    for rank in groups:
        got = 0
        if rank is not None:
            for code in RANK_CODES[rank]:
                take = avail.get(code)
                if take:
                    if take > GROUP_SIZE - got:
                        take = GROUP_SIZE - got
                    got += take
                    if used is not None:
                        used += [code] * take
            if gaps is not None:
                gaps.extend([RANK_CODES[rank]] * (GROUP_SIZE - got))
        missing += GROUP_SIZE - got
        empty += not got
    return max(0, missing - jokers) + empty

