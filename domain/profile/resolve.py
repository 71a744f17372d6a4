"""Resolving and validating a rule profile as a whole (RULES.md §11).

A profile is a preset name (R11.20) or an object of options that may name a `preset`; options
not given take the preset's value, then the defaults by table size (R11.2, R11.20). Every
option is type- and range-checked against its rule, then the constraints between options
(R11.3-R11.5, R11.8) are checked; a refusal names the option and the rule.
"""
from __future__ import annotations

import dataclasses
import json

from domain.profile.options import (
    DISCARD, GROUP, RUN, STANDARD_MIN, WHOLE_HAND, RuleProfile, requirement,
)
from domain.profile.presets import PRESETS, default_jokers, default_packs


class UnsupportedProfile(ValueError):
    """A rule profile that breaks a constraint of RULES.md §11 (or is no profile at all).

    `.option` names the option, `.rule` the rule id (R11.x, R10.4); `str()` is the message.
    """

    def __init__(self, option: str, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.option, self.rule, self.message = option, rule, message


_NAMES = {f.name for f in dataclasses.fields(RuleProfile)}


# The largest integer every JSON client holds exactly (a JavaScript number): an option's value
# is in every view of the game, so no count may pass it.
SAFE_INT = 2**53 - 1
# A cut bonus is taken off a total once a round, at most 18 rounds (15 contracts, 3 play-offs:
# R11.5, R11.16), so totals stay far within SAFE_INT; Liverpool's is 50.
CUT_BONUS_MAX = 10**12


def _positive(v): return _int(v) and 1 <= v <= SAFE_INT
def _count(v): return _int(v) and 0 <= v <= SAFE_INT
def _int(v): return isinstance(v, int) and not isinstance(v, bool)
def _bool(v): return isinstance(v, bool)
def _between(low, high): return lambda v: _int(v) and low <= v <= high
def _optional(check): return lambda v: v is None or check(v)
def _one_of(*values): return lambda v: isinstance(v, str) and v in values


# option -> (rule, check of the value alone, what the value must be)
OPTION_CHECKS = {
    "players": ("R11.1", _between(3, 8), "an integer 3-8"),
    "packs": ("R11.2", _between(2, 4), "an integer 2-4"),
    "jokers": ("R11.3", _between(0, 8), "an integer 0 to 2 x packs"),
    "deal_sizes": ("R11.4", lambda v: isinstance(v, list) and all(_positive(x) for x in v),
                   "a list of positive integers, one per contract"),
    "contracts": ("R11.5", lambda v: isinstance(v, list), "a list of 1-15 contracts"),
    "final_round": ("R11.6", _one_of(WHOLE_HAND, DISCARD), f"{WHOLE_HAND!r} or {DISCARD!r}"),
    "lay_off_on_opening_turn": ("R11.7", _bool, "true or false"),
    "buying": ("R11.8", _bool, "true or false"),
    "buying_from_round": ("R11.8", _positive, "a round number from 1 to the number of contracts"),
    "purchases_per_player_per_round": ("R11.9", _optional(_positive),
                                       "null (unlimited) or a positive integer"),
    "penalty_cards_per_purchase": ("R11.10", _between(0, 3), "an integer 0-3"),
    "joker_penalty": ("R11.11", _between(0, 100), "an integer 0-100"),
    "pip_scoring": ("R11.12", _one_of("face_value", "bands"), "'face_value' or 'bands'"),
    "jokers_per_run": ("R11.13", _optional(_positive), "null (unlimited) or a positive integer"),
    "ace": ("R11.14", _one_of("low_or_high", "high_only"), "'low_or_high' or 'high_only'"),
    "wild_twos": ("R11.15", _bool, "true or false"),
    "ties": ("R11.16", _one_of("shared", "play_off"), "'shared' or 'play_off'"),
    "stock_rebuilds": ("R11.17", _optional(_count),
                       "null (unlimited) or a non-negative integer"),
    "shanghai_call": ("R11.18", _bool, "true or false"),
    "cut_bonus": ("R11.19", _between(0, CUT_BONUS_MAX), "an integer 0 to 10^12"),
    "max_turns_per_round": ("R10.4", _positive, "a positive integer"),
}


def resolve(value: str | dict | None) -> RuleProfile:
    """The profile `value` names: None, a preset name, JSON object text or a dict of options.

    Raises UnsupportedProfile naming the option and rule for an unknown preset or option, a
    value of the wrong type or range, or options that break a constraint together.
    """
    if value is None:
        value = "standard"
    if isinstance(value, str):
        value = _parse(value)
    key = json.dumps(value, sort_keys=True) if isinstance(value, dict) else None
    if key in _RESOLVED:
        return _RESOLVED[key]
    profile = _resolve(value)
    if len(_RESOLVED) < 1024:  # one profile object per option set: cheap identity checks
        _RESOLVED[key] = profile
    return profile


_RESOLVED: dict[str, RuleProfile] = {}


def _resolve(value: object) -> RuleProfile:
    if not isinstance(value, dict):
        raise UnsupportedProfile("profile", "R11", "a rule profile is a preset name or an "
                                                   "object of RULES.md §11 options")
    given = dict(value)
    preset = given.pop("preset", "standard")
    if not isinstance(preset, str) or preset not in PRESETS:  # a list or an object too
        raise UnsupportedProfile("preset", "R11.20", f"unknown preset {preset!r}; presets are "
                                                     f"{', '.join(PRESETS)}")
    for name, raw in given.items():
        _check_option(name, raw)
    options = {**PRESETS[preset][0], **given}
    players = options.setdefault("players", 4)
    packs = options.setdefault("packs", default_packs(players))
    options.setdefault("jokers", default_jokers(preset, players, packs))
    profile = RuleProfile(**{name: _frozen(name, raw) for name, raw in options.items()})
    check_whole(profile)
    return _RESOLVED.setdefault(json.dumps(profile.as_json, sort_keys=True), profile)


def _parse(text: str) -> object:
    if text in PRESETS:
        return {"preset": text}
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise UnsupportedProfile("preset", "R11.20", f"{text!r} is neither a preset "
                                                     f"({', '.join(PRESETS)}) nor a JSON "
                                                     f"object of options") from None


def _check_option(name: str, raw: object) -> None:
    if name not in _NAMES:
        raise UnsupportedProfile(name, "R11", f"unknown rule option {name!r}")
    rule, check, wanted = OPTION_CHECKS[name]
    if not check(raw):
        raise UnsupportedProfile(name, rule, f"{name} must be {wanted}, not {raw!r}")
    if name == "contracts":
        _check_contracts(raw)


def _check_contracts(contracts: list) -> None:
    if not 1 <= len(contracts) <= 15:
        raise UnsupportedProfile("contracts", "R11.5", "a profile has 1-15 contracts")
    for contract in contracts:
        if not isinstance(contract, list) or not 1 <= len(contract) <= 6:
            raise UnsupportedProfile("contracts", "R11.5", "a contract lists 1-6 meld "
                                                           "requirements")
        for req in contract:
            _check_requirement(req)


def _check_requirement(req: object) -> None:
    if req in (GROUP, RUN):
        return
    if not isinstance(req, dict) or set(req) != {"kind", "min"} or req["kind"] not in (GROUP, RUN):
        raise UnsupportedProfile("contracts", "R11.5", f'a requirement is "group", "run" or '
                                                       f'{{"kind", "min"}}, not {req!r}')
    top = 13 if req["kind"] == GROUP else 14
    if not _int(req["min"]) or not 3 <= req["min"] <= top:
        raise UnsupportedProfile("contracts", "R11.5", f"a {req['kind']}'s min is 3-{top}, "
                                                       f"not {req['min']!r}")


def _frozen(name: str, raw: object) -> object:
    if name == "contracts":
        return tuple(tuple(_stored(r) for r in c) for c in raw)
    if isinstance(raw, list):
        return tuple(raw)
    return raw


def _stored(req: str | dict | tuple) -> str | tuple:
    if isinstance(req, str):
        return req
    kind, low = (req["kind"], req["min"]) if isinstance(req, dict) else req
    return kind if STANDARD_MIN[kind] == low else (kind, low)


def check_whole(p: RuleProfile) -> None:
    """Check the constraints between options (R11.3-R11.5, R11.8); UnsupportedProfile."""
    if p.jokers > 2 * p.packs:
        raise UnsupportedProfile("jokers", "R11.3", f"at most 2 x packs = {2 * p.packs} "
                                                    f"jokers, not {p.jokers}")
    if len(p.deal_sizes) != p.rounds:
        raise UnsupportedProfile("deal_sizes", "R11.4", f"one deal size per contract: "
                                                        f"{p.rounds} expected")
    if p.players * max(p.deal_sizes) + 2 > p.deck_size:
        raise UnsupportedProfile("deal_sizes", "R11.3", f"{p.players} hands of "
                                 f"{max(p.deal_sizes)} plus the upcard and a stock card need "
                                 f"more than the {p.deck_size} cards of the deck")
    for number in range(1, p.rounds + 1):
        _check_contract_fits(p, number)
    if p.buying_from_round > p.rounds:
        raise UnsupportedProfile("buying_from_round", "R11.8", f"buying_from_round is 1-"
                                                               f"{p.rounds}")


def _check_contract_fits(p: RuleProfile, number: int) -> None:
    lays = sum(p.mins(number))
    least = lays - 1 if p.final_whole_hand(number) else lays
    if p.deal_size(number) < least:
        raise UnsupportedProfile("deal_sizes", "R11.4", f"round {number} deals "
                                 f"{p.deal_size(number)} cards but its contract lays {lays}")
    wild = p.jokers + (4 * p.packs if p.wild_twos else 0)
    for req in p.contracts[number - 1]:
        kind, low = requirement(req)
        if kind == RUN and low > p.meld_rules.longest_run:
            raise UnsupportedProfile("contracts", "R11.5", f"no run is {low} cards long "
                                     f"(at most {p.meld_rules.longest_run})")
        if kind == GROUP and low > 4 * p.packs + wild:
            raise UnsupportedProfile("contracts", "R11.5", f"no group of {low} cards can be "
                                                           f"made from this deck")
