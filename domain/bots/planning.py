"""Planning helpers shared by the basic and strong bots: contract deficit, card usefulness.

A *plan* is one way to aim at the round's contract (RULES.md R2.1): a rank for each group and a
4-card window ``(suit, low)`` (ranks ``low..low+3``, 14 = high ace, R3.2) for each run. Its
*need* is how many more cards the hand must draw before it can open (R4.2) with that plan:
the gaps the jokers cannot fill (R3.3), plus one for each meld with no natural card yet (every
meld needs a natural, R3.3). In the final round (R8.2) the whole hand must go into the runs,
so natural cards the plan cannot place count as needed too.

`analyze(kinds, hand)` evaluates the best plans over a few candidate ranks and windows and
returns an `Analysis`; it is cached per (contract, hand), because each seat asks about the same
hand several times a turn (draw choice, buy offers, discard). It is a heuristic for valuing
cards, not a legality check: opening itself is found by `domain.search` through the legal
actions.

Shapes: ``kinds`` is the view's ``"contract"`` as a tuple (``("group", "run")``), ``hand`` a
tuple of card codes. Standard library only.
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import combinations
from operator import itemgetter

from domain.bots.frame import Frame, keeps_with, keeps_without
from domain.cards import (
    ACE_HIGH, JOKER, SUITS, card_at, card_points, number_and_suit, physical_card,
)
from domain.melds import Meld, layoff_targets
from domain.search import RUN_LOWS

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
_WINDOW_SETS = {window: frozenset(codes) for window, codes in WINDOW_CODES.items()}
_WINDOW_SETS[None] = frozenset()        # a run slot with no candidate window holds nothing
# Per natural code: the windows holding it (an ace sits in the lowest and the highest).
CARD_WINDOWS = {code: frozenset(w for w, codes in _WINDOW_SETS.items() if code in codes)
                for code in NUM}
# Per suit, the code at each run position 1..14 (both ends are the ace; index 0 unused).
POSITION_CODES = {s: (None,) + tuple(card_at(n, s) for n in range(1, ACE_HIGH + 1))
                  for s in SUITS}
# Bit n of a suit mask = rank number n held (an ace sets bits 1 and 14).
SUIT_INDEX = {code: SUITS.index(SUIT[code]) for code in NUM}
BIT = {code: (1 << NUM[code]) | ((1 << ACE_HIGH) if NUM[code] == 1 else 0) for code in NUM}
_POPCOUNT4 = tuple(bin(i).count("1") for i in range(16))
RANK_CODES = {n: tuple(card_at(n, s) for s in SUITS) for n in range(1, 14)}
RANK_POINTS = {n: POINTS[card_at(n, SUITS[0])] for n in range(1, 14)}

# Plans within this many cards of the best still lend weight to the cards they use.
NEAR = 1
NEAR_WEIGHT = 0.25
# A hand is asked about again within a few turns (offers, draw, discard), never much later, so a
# small cache hits as often as a big one; a big one would keep tens of thousands of objects
# that every full garbage collection walks (that cost ~25% of a simulated game at 50,000).
_CACHE_MAX = 1024


class Analysis:
    """How far a hand is from the contract, and what each card is worth to it.

    - ``need``: cards still to draw before opening with the best plan (0: the contract is in
      hand, or in round 7 the whole hand is three runs as far as the heuristic sees).
    - ``wanted``: card codes that fill a gap of some best plan (taking one lowers ``need``).
    - ``support``: code -> weight of plans using that code (best plans 1, next best less),
      per copy held; cards with no support are the spare cards.
    - ``plans``: the best ``(need, groups, runs)`` found, best first.
    - ``options``: ``(need, used codes, slots)`` of every plan within ``NEAR`` of the best;
      a slot is one missing card, given as the tuple of codes that fill it (a run hole: one
      code; a group hole: the four codes of its rank). The strong bot re-weighs these.

    ``frame`` (rounds 1-6) is the `frame.Frame` of the candidates, None in round 7;
    ``scored`` (rounds 1-6) maps each candidate plan ``(groups, runs)`` to its ``(need, used,
    slots)``, which the analysis of a hand one card away reuses for the plans that card
    does not touch (see `_analyze`). Nothing may mutate these lists.
    """

    __slots__ = ("need", "wanted", "support", "plans", "jokers", "options", "frame", "scored")

    def __init__(self, need, wanted, support, plans, jokers, options=(), frame=None,
                 scored=None):
        self.need, self.wanted, self.support = need, wanted, support
        self.plans, self.jokers, self.options = plans, jokers, options
        self.frame, self.scored = frame, scored


_cache: dict = {}
_needs: dict = {}   # need_with's results for hands never analysed in full


def analyze(kinds, hand, final=False):
    """Return the cached `Analysis` of ``hand`` (codes) for contract ``kinds``.

    ``final``: the final round, where the whole hand must become the runs (R8.2).
    Rounds 1-6 reuse the analysis of a cached hand one card away when `frame` shows the
    card leaves it unchanged (a hand after a draw, or after the discard of a spare card).
    """
    key = (kinds, tuple(sorted(hand)), final)
    found = _cache.get(key)
    if found is None:
        if len(_cache) >= _CACHE_MAX:
            _cache.clear()
        if final:
            found = _analyze_final(key[1])
        else:
            found, base, card = _from_neighbour(kinds, key[1])
            if found is None:
                found = _analyze(kinds, key[1], base, card)
                _register_without(kinds, key[1], found)
        _cache[key] = found
    return found


def _from_neighbour(kinds, hand):
    """``(analysis, base, card)``: the cached analysis of ``hand`` minus one ``card`` when
    adding that card keeps it (then ``analysis`` is it), else ``(None, base, card)`` with
    ``base`` the first such cached analysis found (None if none) for `_analyze` to reuse."""
    last = base = base_card = None
    for i, card in enumerate(hand):
        if card == last:
            continue
        last = card
        smaller = hand[:i] + hand[i + 1:]
        found = _cache.get((kinds, smaller, False))
        if found is not None:
            if keeps_with(found.frame, smaller, card):
                return found, None, None
            if base is None:
                base, base_card = found, card
    return None, base, base_card


def _register_without(kinds, hand, analysis):
    """Cache ``analysis`` for ``hand`` minus each card whose removal keeps it (the hand after
    discarding a spare card is asked about next)."""
    last = None
    for i, card in enumerate(hand):
        if card != last and keeps_without(analysis.frame, card):
            _cache.setdefault((kinds, hand[:i] + hand[i + 1:], False), analysis)
        last = card


def need_with(kinds, hand, card, final=False):
    """``need`` of ``hand`` plus ``card`` (the hand a draw or a purchase would give).

    Most such hands are never held (the card is passed), so rounds 1-6 compute only the need
    (`_least_need`, about half an analysis) unless the full analysis is already cached.
    """
    key = (kinds, tuple(sorted(tuple(hand) + (card,))), final)
    found = _cache.get(key)
    if found is not None:
        return found.need
    if final:
        return analyze(kinds, key[1], final).need
    kept = _keeps(kinds, hand, card)
    if kept:
        return kept.need
    need = _needs.get(key)
    if need is None:
        if len(_needs) >= _CACHE_MAX:
            _needs.clear()
        naturals = Counter(key[1])
        jokers = naturals.pop(JOKER, 0)
        need = _needs[key] = _least_need(kinds, naturals, jokers)
    return need


def lowers_need(kinds, hand, card, need, final=False, kept_checked=False):
    """True if ``hand`` plus ``card`` has a smaller ``need`` than ``need`` (the hand's own).

    The same answer as ``need_with(...) < need``, cheaper in rounds 1-6: adding a card only
    lifts the ranks and windows holding it among the candidates, so every candidate plan of
    the new hand that does not use the card was already a plan of the hand, no better than
    ``need``. Only the plans using the card are scored (a joker is used by every plan).
    ``kept_checked``: the caller found that ``card`` does not keep the hand's cached
    analysis (`frame.keeps_with`), so that check is skipped.
    """
    if final or card == JOKER:
        return need_with(kinds, hand, card, final) < need
    if not kept_checked and _keeps(kinds, hand, card):
        return False
    naturals = Counter(hand)
    naturals[card] += 1
    jokers = naturals.pop(JOKER, 0)
    group_sets, run_sets = _candidates(kinds, naturals)
    if not run_sets:
        return _from_scratch(kinds) < need
    rank = NUM[card]
    runs_using = [runs for runs in run_sets if any(card in _WINDOW_SETS[w] for w in runs)]
    return any(_plan_need(naturals, jokers, groups, runs) < need for groups in group_sets
               for runs in (run_sets if rank in groups else runs_using))


def _keeps(kinds, hand, card):
    """The cached analysis of ``hand`` if adding ``card`` leaves it unchanged, else None."""
    found = _cache.get((kinds, tuple(sorted(hand)), False))
    if found is not None and keeps_with(found.frame, hand, card):
        return found
    return None


def may_lower_need(kinds, hand, card, analysis):
    """Cheap filter before `lowers_need`: False when ``card`` certainly cannot lower ``need``.

    A card can only help a plan it fills a hole of (``analysis.wanted``) or a plan built
    around cards it joins: a rank mate (groups) or a suit mate within a run's reach (runs).
    """
    if card == JOKER or card in analysis.wanted:
        return True
    n, s = NUM[card], SUIT[card]
    if GROUP in kinds and any(c in RANK_CODES[n] for c in hand):
        return True
    if RUN in kinds:
        for c in hand:
            if c != JOKER and SUIT[c] == s and _reach(NUM[c], n) < RUN_SIZE:
                return True
    return False


def _reach(a, b):
    """Rank distance within a run, the ace counting low or high (R3.2)."""
    d = abs(a - b)
    if min(a, b) == 1:
        d = min(d, ACE_HIGH - max(a, b))
    return d


def _analyze(kinds, hand, base=None, card=None):
    """The `Analysis` of a hand for rounds 1-6: every candidate plan filled and ranked.

    ``base``: the analysis of a hand that differs from ``hand`` by one natural ``card``
    (one more or one fewer), or None. A plan's need, used codes and slots depend only on the
    hand's cards of its ranks and windows and on the jokers, so a plan of ``base`` whose
    ranks and windows do not hold ``card`` scores the same here and is taken as it is.
    """
    naturals = Counter(hand)
    jokers = naturals.pop(JOKER, 0)
    group_sets, run_sets, frame = _framed_candidates(kinds, naturals)
    reuse = base.scored if base is not None and card != JOKER else None
    rank, windows = (NUM[card], CARD_WINDOWS[card]) if reuse is not None else (None, ())
    scored, table = [], {}
    for groups in group_sets:
        same_ranks = reuse is not None and rank not in groups
        for runs in run_sets:
            plan = (groups, runs)
            found = reuse.get(plan) if same_ranks and windows.isdisjoint(runs) else None
            if found is None:
                used, gaps = [], []
                found = (_plan_need(naturals, jokers, groups, runs, used, gaps), used, gaps)
            table[plan] = found
            scored.append((found[0], -len(found[1]), groups, runs, found[1], found[2]))
    if not scored:                     # too few candidates: every meld from scratch
        return Analysis(_from_scratch(kinds), frozenset(), {}, [], jokers, (), frame, table)
    scored.sort(key=itemgetter(0, 1))   # stable: ties keep the candidates' order
    best = scored[0][0]
    wanted, support, options = set(), {}, []
    for need, _, _, _, used, slots in scored:
        if need > best + NEAR:
            break
        weight = 1.0 if need == best else NEAR_WEIGHT
        if need == best:
            for slot in slots:
                wanted.update(slot)
        for code in used:
            support[code] = support.get(code, 0.0) + weight   # a dict: Counter's += is slower
        options.append((need, used, slots))
    for code in support:
        support[code] /= naturals[code]
    plans = [(p[0], p[2], p[3]) for p in scored[:4]]
    return Analysis(best, frozenset(wanted), support, plans, jokers, tuple(options), frame,
                    table)


def _from_scratch(kinds):
    """The need of a contract with no card of it in hand."""
    n_groups = kinds.count(GROUP)
    return n_groups * GROUP_SIZE + (len(kinds) - n_groups) * RUN_SIZE


def _least_need(kinds, naturals, jokers):
    """The ``need`` `_analyze` would find, without detailing any plan."""
    needs = [_plan_need(naturals, jokers, groups, runs)
             for groups, runs in _candidate_plans(kinds, naturals)]
    return min(needs) if needs else _from_scratch(kinds)


def _candidate_plans(kinds, naturals):
    """Every ``(groups, runs)`` plan over the candidate ranks and windows, in a fixed order."""
    group_sets, run_sets = _candidates(kinds, naturals)
    return [(groups, runs) for groups in group_sets for runs in run_sets]


def _candidates(kinds, naturals):
    """The candidate group ranks and run windows of a plan: ``(group sets, run sets)``."""
    return _framed_candidates(kinds, naturals)[:2]


def _framed_candidates(kinds, naturals):
    """``(group sets, run sets, frame)``: the candidates and their `frame.Frame`.

    Groups: each ``n_groups``-subset of the ``n_groups + 1`` likeliest ranks; runs: each
    ``n_runs``-subset of the ``n_runs + 2`` likeliest windows whose same-suit runs keep
    apart (R4.3). Contracts without runs skip the window search.
    """
    n_groups = kinds.count(GROUP)
    n_runs = len(kinds) - n_groups
    ranks, rank_cut = _group_candidates(naturals, n_groups + 1) if n_groups else ((), None)
    if n_runs:
        masks = [0, 0, 0, 0]
        for code in naturals:
            masks[SUIT_INDEX[code]] |= BIT[code]
        run_sets, window_cut, codes = _run_choice(n_runs, *masks)
    else:
        run_sets, window_cut, codes = ((),), None, None
    frame = Frame(frozenset(ranks) if n_groups else None, rank_cut, codes, window_cut)
    return list(combinations(ranks, n_groups)), run_sets, frame


@lru_cache(maxsize=4096)  # hands one card apart share most suit masks
def _run_choice(n_runs, *masks):
    """``(run sets, window cut, codes of the candidate windows)`` for the suits' rank masks
    (in SUITS order): see `_run_candidates` and `frame.Frame`."""
    run_cands, window_cut = _run_candidates(masks, n_runs + 2)
    codes = frozenset().union(*(_WINDOW_SETS[w] for w in run_cands))
    run_sets = tuple(runs for runs in combinations(run_cands, n_runs) if _runs_apart(runs))
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
    (SUITS order), the bits of the rank positions held (see `BIT`)."""
    windows = []
    for suit, mask in zip(SUITS, masks):
        windows += _suit_windows(suit, mask)
    windows.sort()
    chosen = tuple((s, low) for _, low, s in windows[:k])
    if len(chosen) < k:
        return chosen + (None,) * (k - len(chosen)), None
    return chosen, windows[k - 1]


@lru_cache(maxsize=None)  # at most 4 suits x 2**14 rank masks, far fewer in practice
def _suit_windows(suit, mask):
    """``(-held, low, suit)`` for every window of a suit's rank mask holding a card."""
    return tuple((-_POPCOUNT4[(mask >> low) & 15], low, suit)
                 for low in RUN_LOWS if (mask >> low) & 15)


def _runs_apart(runs):
    """R4.3: two same-suit runs may overlap but must not touch (lows 4 apart)."""
    for a, b in combinations(runs, 2):
        if a is not None and b is not None and a[0] == b[0] and abs(a[1] - b[1]) == RUN_SIZE:
            return False
    return True


def _plan_need(naturals, jokers, groups, runs, used=None, gaps=None):
    """The ``need`` of one plan; ``used``/``gaps`` (lists), when given, receive the codes the
    plan takes and one slot per missing card (see Analysis).

    Runs take their exact cards first (a group can use any suit of its rank, a run only one
    card), then groups take what is left of their rank (group ranks are distinct, so no
    group takes from another). `need_with` scores every candidate plan of hands it never
    details with neither list, so that path records nothing.
    """
    avail = dict(naturals)
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


# ---- the final round: the whole hand as three runs (R8.2) ----

FINAL_RUNS = 3
# Every span (low, high) of at least 4 positions, 1..14 (14 = high ace), longest first.
SPANS = tuple(sorted(((lo, hi) for lo in RUN_LOWS
                      for hi in range(lo + RUN_SIZE - 1, ACE_HIGH + 1)),
                     key=lambda span: (span[0] - span[1], span[0])))


def _analyze_final(hand):
    """Round 7 (R8.2): three runs taking the whole hand, chosen greedily span by span.

    Each pick is the same-suit span ``(low, high)`` covering the most naturals net of its
    holes, not touching an earlier span of its suit (R4.3). ``need`` = holes the jokers cannot
    fill + naturals no span takes (each must be discarded and replaced by a draw). ``wanted``
    holds the hole cards and the cards extending a span at either end.
    """
    rows = {s: [0] * (ACE_HIGH + 2) for s in SUITS}
    present = dict.fromkeys(SUITS, 0)   # per suit: bit n set while position n is held
    jokers = 0
    for code in hand:
        if code == JOKER:
            jokers += 1
        else:
            rows[SUIT[code]][NUM[code]] += 1
            present[SUIT[code]] |= BIT[code]
    spans, holes, used, wanted, slots = [], 0, [], set(), []
    for _ in range(FINAL_RUNS):
        pick = _best_span(present, spans)
        if pick is None:
            holes += RUN_SIZE
            continue
        suit, lo, hi = pick
        spans.append(pick)
        row, codes = rows[suit], POSITION_CODES[suit]
        for n in range(lo, hi + 1):
            r = 1 if n == ACE_HIGH else n
            if row[r]:
                row[r] -= 1
                used.append(codes[n])
                if not row[r]:          # the last copy: the position is no longer held
                    present[suit] &= ~BIT[codes[n]]
            else:
                holes += 1
                wanted.add(codes[n])
                slots.append((codes[n],))
        for n in (lo - 1, hi + 1):
            if 1 <= n <= ACE_HIGH:
                wanted.add(codes[n])
    orphans = sum(sum(row) for row in rows.values())
    need = max(0, holes - jokers) + orphans
    counts = Counter(c for c in hand if c != JOKER)
    support = Counter(used)
    for code in support:
        support[code] /= counts[code]
    plans = [(need, (), tuple(spans))]
    return Analysis(need, frozenset(wanted), support, plans, jokers, ((need, used, slots),))


def _best_span(present, taken):
    """The span with the best (naturals covered - holes), or None if a suit has no natural.

    ``present``: per suit, the bits of the positions still held (see `BIT`). Ties go to the
    first suit, then the first span in ``SPANS`` order.
    """
    best, best_gain = None, None
    for suit, held in present.items():
        found = _suit_best_span(held, tuple((lo, hi) for s, lo, hi in taken if s == suit))
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


def potential(hand_counts, code, groups=True, runs=True):
    """How a spare natural might still join a meld: same-rank mates and near suit mates.

    ``hand_counts`` is a Counter of the hand; ``groups``/``runs`` say which meld kinds the
    contract has (rank mates only matter for groups, suit mates for runs). Cheap; used to
    break ties between spare cards.
    """
    if code == JOKER:
        return 99
    n, s = NUM[code], SUIT[code]
    score = 0
    if groups:
        score += 2 * sum(hand_counts[c] for c in RANK_CODES[n]) - 2
    if runs:
        for d in (-2, -1, 1, 2):
            m = n + d
            if m == 0:
                m = ACE_HIGH if d == -1 else None
            if m is not None and 1 <= m <= ACE_HIGH and hand_counts[card_at(m, s)]:
                score += 2 if abs(d) == 1 else 1
    return score


# ---- the table after opening: which cards could be laid off (R7.2, R7.3) ----

def fits_table(melds, code):
    """True if hand card ``code`` (a natural or ``"JK"``) could be laid off on one of the view's
    ``melds`` (dicts with ``kind`` and ``cards``) by R7.2/R7.3, as `melds.layoff_targets` says.

    A guide for draws and discards only: the legal actions also apply R5.6 and R7.1.
    """
    return any(code in _fitting_cards(m["kind"], tuple(m["cards"])) for m in melds)


def table_fits(melds):
    """The hand cards (naturals, ``"JK"``) that `fits_table` accepts on the view's ``melds``:
    one set for a decision that asks about many cards."""
    fitting = set()
    for m in melds:
        fitting |= _fitting_cards(m["kind"], tuple(m["cards"]))
    return fitting


@lru_cache(maxsize=4096)  # melds recur unchanged over many decisions
def _fitting_cards(kind, cards):
    """The hand cards (naturals, ``"JK"``) that `layoff_targets` accepts on one meld."""
    return frozenset(physical_card(entry) for entry, _ in layoff_targets(Meld(0, kind, cards)))
