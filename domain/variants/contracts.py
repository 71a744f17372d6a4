"""The opening check under any profile (R4.2, R4.3, R8.2 generalised by R11.5, R11.6)."""
from __future__ import annotations

from collections import Counter

from domain.contracts import check_in_hand, check_runs_apart
from domain.errors import MalformedAction, RuleViolation
from domain.melds import make_meld


def describe(kinds: tuple[str, ...], mins: tuple[int, ...]) -> str:
    """A contract in words, e.g. ``"group of 3, run of 3, run of 3"``."""
    return ", ".join(f"{kind} of {low}" for kind, low in zip(kinds, mins))


def check_opening(profile, round_: int, melds, hand, owner: int = 0) -> list:
    """Validate an opening of round `round_` under `profile`; return its melds (Meld objects).

    Not the final round: exactly the contract's melds, each exactly at its requirement's
    `min` (R4.2, R11.5). The final round under `whole_hand_no_discard`: the whole hand as
    exactly the contract's melds, each at least its `min` (R8.2, R11.5). Same-suit runs apart
    (R4.3); cards held (R1.4). Raises RuleViolation citing R3.x, R4.2, R8.2, R4.3, R1.4,
    R11.13-R11.15; MalformedAction for input that is not a list of card lists.
    """
    if not isinstance(melds, (list, tuple)) or not all(isinstance(m, (list, tuple)) for m in melds):
        raise MalformedAction("R4.2", "an opening lists its melds, each a list of card codes")
    rules = profile.meld_rules
    built = [make_meld(owner, cards, rules) for cards in melds]
    final = profile.final_whole_hand(round_)
    _check_shape(built, profile.kinds(round_), profile.mins(round_), final)
    used = Counter(entry.split("=", 1)[0] if entry[:2] != "JK" else "JK"
                   for meld in built for entry in meld.cards)
    check_in_hand(used, Counter(hand))
    check_runs_apart(built)
    if final and used != Counter(hand):
        left = sorted((Counter(hand) - used).elements())
        raise RuleViolation("R8.2", f"going out in the final round lays the whole hand; "
                                    f"{', '.join(left)} would be left")
    return built


def _check_shape(built, kinds, mins, final: bool) -> None:
    rule = "R8.2" if final else "R4.2"
    wanted = f"exactly {describe(kinds, mins)}"
    if sorted(m.kind for m in built) != sorted(kinds):
        raise RuleViolation(rule, f"this round is opened with {wanted}, no other melds")
    for kind in set(kinds):
        lengths = sorted(len(m.cards) for m in built if m.kind == kind)
        lows = sorted(low for k, low in zip(kinds, mins) if k == kind)
        ok = all(n >= low for n, low in zip(lengths, lows)) if final else lengths == lows
        if not ok:
            raise RuleViolation(rule, f"this round is opened with {wanted}"
                                      + ("" if final else "; extra cards wait for a lay-off"))
