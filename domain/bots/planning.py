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

from functools import lru_cache
from operator import itemgetter

from domain.bots.analysis import Analysis
from domain.bots.card_tables import (  # noqa: F401  (NUM, SUIT, POINTS: the bots' tables)
    CARD_WINDOWS, GROUP, NUM, POINTS, RANK_CODES, RANK_SETS, RUN, RUN_REACH, SUIT, SUIT_MATES,
)
from domain.bots.final_round import analyze_final as _analyze_final
from domain.bots.frame import keeps_with, keeps_without
from domain.bots.plans import (
    bounded_need, candidates, candidates_with, framed_candidates, from_scratch, least_need,
    naturals_of, plan_need, shares_codes,
)
from domain.cards import JOKER, physical_card
from domain.layoffs import layoff_targets
from domain.melds import Meld


# Plans within this many cards of the best still lend weight to the cards they use.
NEAR = 1
NEAR_WEIGHT = 0.25
# A hand is asked about again within a few turns (offers, draw, discard), never much later, so a
# small cache hits as often as a big one; a big one would keep tens of thousands of objects
# that every full garbage collection walks (that cost ~25% of a simulated game at 50,000).
_CACHE_MAX = 1024

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
    (`plans.least_need`, about half an analysis) unless the full analysis is already cached.
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
        naturals, jokers = naturals_of(key[1])
        need = _needs[key] = least_need(kinds, naturals, jokers)
    return need


def lowers_need(kinds, hand, card, need, final=False, frame=None):
    """True if ``hand`` plus ``card`` has a smaller ``need`` than ``need`` (the hand's own).

    The same answer as ``need_with(...) < need``, cheaper in rounds 1-6: adding a card only
    lifts the ranks and windows holding it among the candidates, so every candidate plan of
    the new hand that does not use the card was already a plan of the hand, no better than
    ``need``. Only the plans using the card are scored (a joker is used by every plan).
    ``frame``: the `frame.Frame` of the hand's analysis, given when the caller found that
    ``card`` does not keep it (`frame.keeps_with`): that check is skipped, and the group
    candidates are the frame's with the card's rank let in (`plans.candidates_with`).
    """
    if final or card == JOKER:
        return need_with(kinds, hand, card, final) < need
    if frame is None and _keeps(kinds, hand, card):
        return False
    naturals, jokers = naturals_of(hand)
    naturals[card] = naturals.get(card, 0) + 1
    if frame is None:
        group_sets, run_sets = candidates(kinds, naturals)
    else:
        group_sets, run_sets = candidates_with(kinds, naturals, frame, card)
    if not run_sets:
        return from_scratch(kinds) < need
    rank = NUM[card]
    windows = CARD_WINDOWS[card]
    runs_using = [runs for runs in run_sets if not windows.isdisjoint(runs)]
    # Most offered cards lower nothing (about 7 in 10): each plan is first bounded from
    # per-meld counts, and scored in full only when the bound passes and melds share a code.
    got = {}
    for groups in group_sets:
        for runs in (run_sets if rank in groups else runs_using):
            if bounded_need(naturals, jokers, groups, runs, got) < need and (
                    not shares_codes(groups, runs)
                    or plan_need(naturals, jokers, groups, runs) < need):
                return True
    return False


def _keeps(kinds, hand, card):
    """The cached analysis of ``hand`` if adding ``card`` leaves it unchanged, else None."""
    found = _cache.get((kinds, tuple(sorted(hand)), False))
    if found is not None and keeps_with(found.frame, hand, card):
        return found
    return None


def may_lower_need(kinds, hand, card, analysis):
    """Cheap filter before `lowers_need`: False when ``card`` certainly cannot lower ``need``.

    A card can only help a plan it fills a hole of (``analysis.wanted``) or a plan built
    around cards it joins: a rank mate (groups) or a suit mate within a run's reach (runs,
    `card_tables.RUN_REACH`). Set tests against the hand, not a loop over it: asked at most
    draws and buy offers.
    """
    if card == JOKER or card in analysis.wanted:
        return True
    if GROUP in kinds and not RANK_SETS[NUM[card]].isdisjoint(hand):
        return True
    return RUN in kinds and not RUN_REACH[card].isdisjoint(hand)


def _analyze(kinds, hand, base=None, card=None):
    """The `Analysis` of a hand for rounds 1-6: every candidate plan filled and ranked.

    ``base``: the analysis of a hand that differs from ``hand`` by one natural ``card``
    (one more or one fewer), or None. A plan's need, used codes and slots depend only on the
    hand's cards of its ranks and windows and on the jokers, so a plan of ``base`` whose
    ranks and windows do not hold ``card`` scores the same here and is taken as it is.
    """
    naturals, jokers = naturals_of(hand)
    group_sets, run_sets, frame = framed_candidates(kinds, naturals)
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
                found = (plan_need(naturals, jokers, groups, runs, used, gaps), used, gaps)
            table[plan] = found
            scored.append((found[0], -len(found[1]), groups, runs, found[1], found[2]))
    if not scored:                     # too few candidates: every meld from scratch
        return Analysis(from_scratch(kinds), frozenset(), {}, [], jokers, (), frame, table)
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


def potential(hand_counts, code, groups=True, runs=True):
    """How a spare natural might still join a meld: same-rank mates and near suit mates.

    ``hand_counts`` maps the hand's codes to copies (a dict or Counter); ``groups``/``runs``
    say which meld kinds the contract has (rank mates only matter for groups, suit mates for
    runs). Cheap; used to break ties between spare cards.
    """
    if code == JOKER:
        return 99
    get = hand_counts.get   # dict.get: a Counter's [] on a missing code is a Python call
    score = 0
    if groups:
        a, b, c, d = RANK_CODES[NUM[code]]
        score += 2 * (get(a, 0) + get(b, 0) + get(c, 0) + get(d, 0)) - 2
    if runs:
        for mate, weight in SUIT_MATES[code]:
            if get(mate):
                score += weight
    return score


# ---- the table after opening: which cards could be laid off (R7.2, R7.3) ----

def fits_table(melds, code):
    """True if hand card ``code`` (a natural or ``"JK"``) could be laid off on one of the view's
    ``melds`` (dicts with ``kind`` and ``cards``) by R7.2/R7.3, as `layoffs.layoff_targets` says.

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
