"""What a bot reads of the game's rule profile (RULES.md §11) from its seat view."""
from __future__ import annotations

import json
from functools import lru_cache

from domain.profile import RuleProfile, resolve
from domain.search import find_opening as find_standard_opening
from domain.variants.search import find_opening as find_general_opening


_STANDARD = RuleProfile()
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
