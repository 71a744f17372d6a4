"""Finding an opening in a hand, and measuring how far a hand is from one (R4.2, R4.3, R8.2).

`find_opening` and `deficit` are the entry points; a cheap bound (`_may_open`) first rules
out most hands, which cannot open. Rounds 1-6 need the contract at minimum lengths (groups
of 3, runs of 4): a branch and bound over run windows, then greedy groups
(domain/search_contract.py). Round 7 lays the whole hand as three runs: a small dynamic
programme per suit (domain/search_final.py).
"""
from functools import lru_cache

from domain.cards import JOKER
from domain.contracts import CONTRACTS, FINAL_ROUND
from domain.hand_tally import GROUP_LEN as _GROUP_LEN, NATURAL as _NATURAL, RUN_LEN as _RUN_LEN
from domain.melds import RUN
from domain.search_contract import (
    contract_plan as _contract_plan, marginals as _marginals, suit_windows as _suit_windows,
)
from domain.search_final import final_plan as _final_plan, may_go_out as _may_go_out


def find_opening(round_, hand):
    """Return a legal opening for ``round_`` made of ``hand``'s cards, or None if there is none.

    ``hand`` is a sequence of card codes (a multiset). The result is a list of melds, each a
    list of codes in FORMAT.md notation (runs low to high, ``"JK=<card>"`` in runs, ``"JK"``
    in groups), accepted by :func:`domain.contracts.check_opening`. Rounds 1-6: exactly the
    contract, every meld at its minimum length (R4.2), same-suit runs apart (R4.3). Round 7:
    the whole hand as three runs (R8.2, R4.3). Deterministic for a given multiset. Raises
    ``ValueError`` for a string that is not a card code.
    """
    if not _may_open(round_, hand):
        return None
    plan = _opening_plan(round_, tuple(sorted(hand)))
    return None if plan is None else [list(meld) for meld in plan]


@lru_cache(maxsize=1024)  # a hand is searched again by the bot that saw it (draw, open)
def _opening_plan(round_, key):
    """The melds (tuples) `find_opening` returns for a sorted hand, or None."""
    if round_ == FINAL_ROUND:
        plan = _final_plan(key)
    else:
        plan = _contract_plan(CONTRACTS[round_], key, True)[1]
    return None if plan is None else tuple(tuple(meld) for meld in plan)


def _may_open(round_, hand):
    """A cheap necessary condition of an opening: False when the search would find none.

    Most hands a seat holds cannot open, and this rules out nearly all of them in a fraction
    of the search. Rounds 1-6: the fewest holes any opening has (the cheapest groups on the
    whole hand's rank counts, plus each run at the best window's holes: taking cards for one
    meld never makes another cheaper) must not exceed the jokers, which is the search's own
    bound at its root. Round 7: see `search_final.may_go_out`. A string that is not a card code passes,
    so the search raises on it.
    """
    if round_ == FINAL_ROUND:
        return _may_go_out(hand)
    kinds = CONTRACTS[round_]
    jokers = 0
    totals = [0] * 14
    held = [0, 0, 0, 0]
    for code in hand:
        found = _NATURAL.get(code)
        if found is None:
            if code != JOKER:
                return True
            jokers += 1
        else:
            number, si, bits = found
            totals[number] += 1
            held[si] |= bits
    holes = 0
    n_runs = kinds.count(RUN)
    if n_runs:
        holes = n_runs * min(_least_holes(mask) for mask in held)
    n_groups = len(kinds) - n_runs
    if n_groups and holes <= jokers:
        marginals = [m for c in totals if c for m in _marginals(c)[:n_groups]]
        marginals.sort()
        marginals += [_GROUP_LEN] * n_groups
        holes += sum(marginals[:n_groups])
    return holes <= jokers


@lru_cache(maxsize=None)  # one entry per suit mask seen (at most 2**14)
def _least_holes(mask):
    """The fewest holes of a run window in one suit's position mask (4: none holds a card)."""
    return min((holes for holes, _ in _suit_windows(mask)), default=_RUN_LEN)


def deficit(round_, hand):
    """The fewest cards ``hand`` lacks to hold its round's contract, jokers used as wild.

    0 exactly when rounds 1-6 can open (see :func:`find_opening`). Each missing card is one a
    later draw must supply; a meld with no natural at all counts at least one. For round 7 it
    measures three runs of four (R8.2) and ignores the rule that every card be used, so a bot
    still has to shed the extra cards. Cached per multiset: bots ask about many near hands.
    Raises ``ValueError`` for a string that is not a card code.
    """
    return _deficit(round_, tuple(sorted(hand)))


@lru_cache(maxsize=65536)
def _deficit(round_, key):
    kinds = CONTRACTS[round_]
    if round_ == FINAL_ROUND:
        kinds = (RUN, RUN, RUN)
    return _contract_plan(kinds, key, False)[0]
