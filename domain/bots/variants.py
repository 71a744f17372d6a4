"""The basic and strong bots' play of the §11 options their planning does not model.

Every level: the cut (R11.19) and claims (R11.18) are answered here. Basic and strong cut for
the exact deal, claim the first fitting card offered (a claim sheds a card: the discard goes
on a meld and one card goes to the discarder) and call Shanghai on a discard that fits a meld.
Under a profile whose contracts or melds differ from R2.1/R3 (`profiles.standard_play` is
False) `choose` plays a simple, legal policy: open when the search finds an opening, lay off
the costliest card, take the discard or buy only to open, keep wild cards and discard the
costliest card with the fewest neighbours. In a final round of runs (R8.2) it plays towards
going out instead (`final_choice`, guided by `bots.final_runs`), so that big tables end that
round with a winner rather than at the turn cap (R10.4). The strong bot keeps the standard
planning where `profiles.planning_fits` (Shanghai's rounds 1-6: aces high, one joker per run).
"""
from __future__ import annotations

import random
from collections import Counter

from domain.bots import planning as P
from domain.bots.final_runs import final_need
from domain.bots.profiles import final_round, opening_with, profile_of
from domain.cards import JOKER, number_and_suit
from domain.legal import DRAW_DISCARD, DRAW_STOCK

BUY, PASS = {"type": "buy"}, {"type": "pass"}


def phase_action(level: str, view, rng: random.Random) -> dict | None:
    """The action for a cut or an open claim, or None when the seat faces neither."""
    legal = view["legal_actions"]
    first = legal[0]["type"] if legal else None  # a buy offer lists buy first, a claim not
    if first == "cut":
        if level == "random":
            return rng.choice(legal)
        profile = profile_of(view)
        return {"type": "cut", "count": len(view["hand_sizes"]) * profile.deal_size(view["round"])}
    if first in ("claim", "pass"):
        claims = [a for a in legal if a["type"] == "claim"]
        if level == "random":
            return rng.choice(legal)
        return claims[0] if claims else PASS
    return None


def with_call(action: dict, view) -> dict:
    """`action`, calling Shanghai when it is a discard whose called form is legal (R11.18)."""
    if action.get("type") != "discard" or action.get("shanghai"):
        return action
    called = {**action, "shanghai": True}
    return called if called in view["legal_actions"] else action


def choose(view, rng: random.Random) -> dict:
    """The simple policy for profiles outside the planning's model (see the module doc)."""
    legal = view["legal_actions"]
    if _runs_to_go_out(view):
        return final_choice(view)
    kinds = {a["type"] for a in legal}
    if "buy" in kinds:
        return BUY if _opens_with(view, view["discard_top"]) else PASS   # on offer: R6.1
    if "draw" in kinds:
        top = view.get("discard_top")
        if DRAW_DISCARD in legal and top is not None and _wants(view, top):
            return DRAW_DISCARD
        return DRAW_STOCK
    opening = [a for a in legal if a["type"] == "open"]
    if opening:
        return opening[0]
    sheds = [a for a in legal if a["type"] in ("lay_off", "swap_joker")]
    if sheds:
        return max(sheds, key=lambda a: (_points(a["card"].split("=")[0]), a["type"]))
    discards = [a for a in legal if a["type"] == "discard" and not a.get("shanghai")]
    return {"type": "discard", "card": _least_useful(view, [a["card"] for a in discards])}


def final_choice(view) -> dict:
    """A turn of a final round of runs (R8.2): go out when the search finds it; otherwise
    keep the hand nearest to going out (`final_runs.final_need`): take the discard only when
    it brings the hand nearer, never buy (the penalty cards too would have to fit), discard
    the card whose loss leaves the hand nearest."""
    legal = view["legal_actions"]
    kinds = {a["type"] for a in legal}
    if "buy" in kinds:
        return PASS
    hand = tuple(sorted(view["hand"]))
    if "draw" in kinds:
        top = view.get("discard_top")
        if DRAW_DISCARD in legal and top is not None:
            with_top = tuple(sorted(hand + (top,)))
            if _best_discard(view, with_top)[0] < _need(view, hand):
                return DRAW_DISCARD
        return DRAW_STOCK
    opening = [a for a in legal if a["type"] == "open"]
    if opening:
        return opening[0]
    discards = {a["card"] for a in legal if a["type"] == "discard" and not a.get("shanghai")}
    return {"type": "discard", "card": _best_discard(view, hand, discards)[1]}


def _runs_to_go_out(view) -> bool:
    return final_round(view) and set(profile_of(view).kinds(view["round"])) == {"run"}


def _need(view, hand: tuple[str, ...]) -> int:
    profile = profile_of(view)
    rules = profile.meld_rules
    return final_need(hand, profile.mins(view["round"]), rules.ace_high_only,
                      rules.wild_twos, rules.jokers_per_run)


def _best_discard(view, hand: tuple[str, ...], allowed=None) -> tuple[int, str]:
    """`(need, card)` of the discard from the sorted `hand` that leaves it nearest to going
    out; ties keep wild cards and drop the costliest card."""
    best = None
    for i, card in enumerate(hand):
        if (i and hand[i - 1] == card) or (allowed is not None and card not in allowed):
            continue
        key = (_need(view, hand[:i] + hand[i + 1:]), _wild(view, card), -_points(card), card)
        best = key if best is None or key < best else best
    return best[0], best[3]


def _opened(view) -> bool:
    return view["opened"][view["seat"]] is not None


def _opens_with(view, card: str) -> bool:
    if _opened(view):
        return False
    return opening_with(view, list(view["hand"]) + [card]) is not None


def _wants(view, card: str) -> bool:
    if _wild(view, card):
        return not _opened(view) or not final_round(view)
    if not _opened(view):
        return _opens_with(view, card)
    return not final_round(view) and P.fits_table(view["melds"], card)


def _wild(view, card: str) -> bool:
    return card == JOKER or (profile_of(view).wild_twos and card[:-1] == "2")


def _points(card: str) -> int:
    return P.POINTS.get(card, 15)


def _least_useful(view, cards: list[str]) -> str:
    hand = Counter(view["hand"])
    opened = _opened(view)
    kinds = profile_of(view).kinds(view["round"])
    groups, runs = "group" in kinds, "run" in kinds

    def keep(card: str) -> tuple:
        if _wild(view, card):
            return (3, 0, card)
        if opened:
            return (1 if P.fits_table(view["melds"], card) else 0, -_points(card), card)
        number, suit = number_and_suit(card)
        near = sum(n for code, n in hand.items() if code != card and not _wild(view, code)
                   and _near(number_and_suit(code), number, suit, groups, runs))
        return (min(near + hand[card] - 1, 2), -_points(card), card)
    return min(cards, key=keep)


def _near(other: tuple[int, str], number: int, suit: str, groups: bool, runs: bool) -> bool:
    o_number, o_suit = other
    return ((groups and o_number == number)
            or (runs and o_suit == suit and 0 < abs(o_number - number) <= 2))
