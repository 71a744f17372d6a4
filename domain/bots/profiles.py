"""What a bot reads of the game's rule profile (RULES.md §11) from its seat view."""
from __future__ import annotations

import json
from functools import lru_cache

from domain.profile import RuleProfile, resolve
from domain.profile.options import STANDARD_CONTRACTS
from domain.search import find_opening as find_standard_opening
from domain.variants.search import find_opening as find_general_opening


_STANDARD = RuleProfile()
# The contracts of rounds 1-6 of R2.1, as sorted kind tuples.
_PLANNED_CONTRACTS = frozenset(tuple(sorted(c)) for c in STANDARD_CONTRACTS[:6])
_last: list = [None, _STANDARD]  # the options object last read and its profile


def profile_of(view) -> RuleProfile:
    """The game's profile (the view's `profile` entry; standard when absent)."""
    try:
        options = view["profile"]
    except KeyError:  # a view made by hand, without the profile entry
        return _STANDARD
    if options is _last[0]:  # in-process views share one options dict per profile
        return _last[1]
    if options is None:
        return _STANDARD
    profile = _resolved(json.dumps(options, sort_keys=True))
    _last[:] = [options, profile]
    return profile


@lru_cache(maxsize=64)  # one entry per profile seen: views repeat the same options
def _resolved(options: str) -> RuleProfile:
    return resolve(json.loads(options))


def standard_play(view) -> bool:
    """True when the planning of the basic and strong bots applies to this round: a contract
    of R2.1 with the melds, packs and jokers of R3 and R1.2 (domain/bots/planning.py relies
    on them)."""
    profile = profile_of(view)
    return profile.packs == 2 and profile.standard_round(view["round"]) is not None


def planning_fits(view) -> bool:
    """True when the planning of the basic and strong bots is a fair guide though the melds
    differ from R3 (aces high only, R11.14; a joker limit per run, R11.13; more jokers,
    R11.3): two packs, no wild deuces and a contract of R2.1 at its minimum lengths, outside
    the final round (whose exit those differences decide: `bots.final_runs` covers it). The
    planning only values cards: every action is still chosen among the legal ones."""
    profile = profile_of(view)
    number = view["round"]
    contract = profile.contracts[profile.contract_index(number)]
    return (profile.packs == 2 and not profile.wild_twos and not profile.final_whole_hand(number)
            and all(isinstance(req, str) for req in contract)
            and tuple(sorted(contract)) in _PLANNED_CONTRACTS)


def final_round(view) -> bool:
    """True in the final round of R8 (whole hand, no discard) under the view's profile."""
    return profile_of(view).final_whole_hand(view["round"])


def opening_with(view, hand) -> list | None:
    """An opening of the view's round made of `hand` under its profile, or None."""
    profile = profile_of(view)
    standard_round = profile.standard_round(view["round"])
    if standard_round is not None:
        return find_standard_opening(standard_round, hand)
    return find_general_opening(profile, view["round"], hand)
