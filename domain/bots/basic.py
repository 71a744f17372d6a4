"""The baseline bot (level "basic"): legal, sensible and cheap.

`choose(view, rng) -> action` reads one seat's view (docs/architecture.md §1 "Views") and
returns an action of FORMAT.md's vocabulary, one of ``view["legal_actions"]`` or the same
action built from the hand:

- buy offer (R6): buy when the card lowers the hand's contract deficit and the seat has not
  opened, else pass;
- draw (R5.1-R5.3): the discard top when it lowers the deficit (before opening) or can be
  laid off (after opening, not in round 7); otherwise the stock;
- play: open as soon as the legal actions offer it (R4.2, R8.2); after an earlier opening lay
  off and swap jokers, costliest card first, while the engine allows it (R7, R5.6); then
  discard the least useful card, costliest first among equals, never the card just taken from
  the discard pile (R5.5).

Pure: no state between calls, randomness only through ``rng`` (unused: ties break by card
order, which keeps the level deterministic).
"""
from __future__ import annotations

from domain.bots import planning as P
from domain.bots.frame import keeps_with
from domain.cards import JOKER
from domain.bots.profiles import final_round, opening_with
from domain.legal import DRAW_DISCARD, DRAW_STOCK

BUY, PASS = {"type": "buy"}, {"type": "pass"}


def choose(view, rng):
    """Return the basic bot's action for ``view`` (a seat view dict with legal actions)."""
    legal = view["legal_actions"]
    if not legal:
        raise ValueError("the seat has no legal action")
    # legal_actions lists buy, draw and the opening first when they are offered at all
    # (domain/legal.py's order), so the first type tells the phase without a set of types.
    first = legal[0]["type"]
    if first == "buy":
        return decide_buy(view)
    if first == "draw":
        return decide_draw(view, None)
    if first == "open":
        return pick_opening(view, [a for a in legal if a["type"] == "open"])
    shed = pick_shed(view, legal)
    if shed is not None:
        return shed
    if legal[-1]["type"] == "discard":   # discards come last
        return {"type": "discard", "card": pick_discard(view)}
    return legal[0]


def _kinds(view):
    return tuple(view["contract"])


def _opened(view):
    return view["opened"][view["seat"]] is not None


def _final(view):
    return final_round(view)


def analysis(view):
    """The planning analysis of the seat's hand for its contract (cached per hand)."""
    return P.analyze(_kinds(view), tuple(view["hand"]), _final(view))


def helps_contract(view, card, final=None):
    """True if ``card`` added to the hand lowers its contract deficit (planning.need).

    ``final``: `_final(view)` when the caller knows it already.
    """
    kinds, hand = _kinds(view), tuple(view["hand"])
    if final is None:
        final = _final(view)
    current = P.analyze(kinds, hand, final)
    if card == JOKER:
        return current.need > 0
    if current.frame is not None and keeps_with(current.frame, hand, card):
        return False                # the card leaves every candidate plan as it was
    if not P.may_lower_need(kinds, hand, card, current):   # skips most analyses
        return False
    return P.lowers_need(kinds, hand, card, current.need, final, current.frame)


def goes_out_with(view, card):
    """R8.2: the final round's hand plus ``card`` can be laid whole as three runs."""
    return opening_with(view, list(view["hand"]) + [card]) is not None


def decide_buy(view):
    """R6.2: buy a card that brings an unopened hand nearer its contract, else pass.

    Never in the final round: the penalty card too would have to fit the runs (R8.2).
    The card on offer is the discard top (R6.1): read as the view's ``discard_top``, one
    card, rather than its ``offer`` entry, which lists every seat's answer.
    """
    if _opened(view):
        return PASS
    final = _final(view)
    if not final and helps_contract(view, view["discard_top"], final):
        return BUY
    return PASS


def decide_draw(view, types):
    """R5.1: the discard top if it helps (contract, or a lay-off after opening), else stock."""
    top = view.get("discard_top")
    can_take = DRAW_DISCARD in view["legal_actions"]   # one dict test, not a generator
    if top is not None and can_take:
        if _final(view):
            if helps_contract(view, top, True) or goes_out_with(view, top):
                return DRAW_DISCARD
        elif not _opened(view):
            if helps_contract(view, top, False):
                return DRAW_DISCARD
        elif (top == JOKER or P.fits_table(view["melds"], top)):
            return DRAW_DISCARD
    return DRAW_STOCK


def pick_opening(view, openings):
    """R4.2: of the arrangements offered, the one laying the most points (jokers kept last)."""
    def laid_points(action):
        """Points the opening lays down (jokers count 0, so openings keeping them score less)."""
        return sum(P.POINTS.get(c, 15) if c[:2] != JOKER else 0
                   for meld in action["melds"] for c in meld)
    return max(openings, key=laid_points)


def pick_shed(view, legal):
    """R7.1-R7.5: the lay-off or joker swap shedding the costliest card, or None.

    The engine lists only lay-offs that keep a card for the discard (R5.6). A joker is shed
    last: it fits anywhere later, but still before it could be caught in hand.
    """
    best, best_key = None, None
    for action in legal:
        kind = action["type"]
        if kind not in ("lay_off", "swap_joker"):
            continue
        card = action["card"]
        physical = JOKER if card[:2] == JOKER else card
        key = (P.POINTS[physical], kind == "swap_joker")
        if best_key is None or key > best_key:
            best, best_key = action, key
    return best


def pick_discard(view):
    """R5.5: the hand's least useful card, costliest first; never the card just taken."""
    hand = view["hand"]
    candidates = discard_candidates(view)
    if _opened(view):
        return _discard_after_opening(view, candidates)
    support = analysis(view).support
    # The same card as min(candidates, key=usefulness), but `potential` (the costly part of
    # the key) is computed only for the cards tied on the least support (the first element
    # of `usefulness`; a joker's is 9).
    first = {c: 9 if c == JOKER else support.get(c, 0.0) for c in candidates}
    least = min(first.values())
    tied = [c for c in candidates if first[c] == least]
    if len(tied) == 1:
        return tied[0]
    counts = P.naturals_of(hand)[0]
    kinds = _kinds(view)
    groups, runs = "group" in kinds, "run" in kinds

    def usefulness(code):
        """Sort key, least useful first: plan support, potential, then costliest, then code."""
        if code == JOKER:
            return (9, 0, 0, code)
        return (support.get(code, 0.0), P.potential(counts, code, groups, runs),
                -P.POINTS[code], code)
    return min(tied, key=usefulness)


def discard_candidates(view):
    """The distinct hand cards to discard from: never the card just taken (R5.5), unless the
    hand holds nothing else."""
    hand = view["hand"]
    taken = view.get("taken_from_discard")
    return [c for c in set(hand) if c != taken] or list(set(hand))


def _discard_after_opening(view, candidates):
    """After opening only lay-offs remain: drop the costliest card that fits no meld."""
    fitting = P.table_fits(view["melds"])

    def keep_value(code):
        """Sort key, first discarded first: fits no meld, costliest, then code; jokers last."""
        if code == JOKER:
            return (2, 0, code)
        return (1 if code in fitting else 0, -P.POINTS[code], code)
    return min(candidates, key=keep_value)
