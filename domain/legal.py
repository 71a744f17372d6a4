"""legal_actions: every action a seat may take now, in a fixed order (bots, clients, tests).

Order: draws (stock, discard), buy/pass, claims then pass (R11.18), cuts (R11.19), the
opening found by search, lay-offs (by meld, then target), joker swaps with each placement of
the released joker, discards (distinct cards; under `shanghai_call` also the called discard
of each card that fits a meld). Every listed action is accepted by `decide`.
"""
from __future__ import annotations

from domain.cards import JOKER
from domain.decide_claims import waiting_for_claim
from domain.layoffs import joker_swaps, layoff_targets, layoffs_for_hand, swap_joker
from domain.melds import GROUP
from domain.offers import waiting_for
from domain.search import find_opening
from domain.state import BUYING, CLAIM, CUT, DRAW, PLAY, PLAYING, GameState, RoundState
from domain.variants import melds as general
from domain.variants.search import find_opening as find_general_opening

DRAW_STOCK = {"type": "draw", "from": "stock"}
DRAW_DISCARD = {"type": "draw", "from": "discard"}


def legal_actions(state: GameState, seat: int) -> list[dict]:
    """The actions `seat` may take in `state` (empty when it need not act)."""
    rnd = state.round
    if state.status != PLAYING or rnd is None:
        return []
    if rnd.phase == BUYING:
        waiting = rnd.offer is not None and seat in waiting_for(rnd.offer, rnd.turn, state.seats)
        return [{"type": "buy"}, {"type": "pass"}] if waiting else []
    if rnd.phase == CLAIM:
        waiting = seat in waiting_for_claim(rnd.claim, rnd, state.seats)
        return _claims(state, rnd, seat) + [{"type": "pass"}] if waiting else []
    if seat != rnd.turn:
        return []
    if rnd.phase == CUT:
        return [{"type": "cut", "count": k} for k in range(1, len(rnd.stock))]
    if rnd.phase == DRAW:
        return [dict(DRAW_STOCK)] + ([dict(DRAW_DISCARD)] if rnd.discard else [])
    if rnd.phase == PLAY:
        return _play_actions(state, rnd, seat)
    return []


def _play_actions(state: GameState, rnd: RoundState, seat: int) -> list[dict]:
    hand = rnd.hands[seat]
    actions = []
    if rnd.opened[seat] is None:
        actions += _opening(state, rnd, hand)
    if rnd.opened[seat] is not None and _may_lay_off(state, rnd, seat):
        actions += _lay_offs(state, rnd, hand)
        if rnd.opened[seat] == "earlier":  # R11.7 lifts the wait for lay-offs only (R7.5)
            actions += _swaps(state, rnd, hand)
    return actions + _discards(state, rnd, hand)


def _opening(state: GameState, rnd: RoundState, hand: tuple[str, ...]) -> list[dict]:
    profile = state.profile
    standard_round = profile.standard_round(rnd.number)
    if standard_round is not None:
        melds = find_opening(standard_round, hand)
    else:
        melds = find_general_opening(profile, rnd.number, hand)
    if melds is None:
        return []
    if not profile.final_whole_hand(rnd.number) and sum(map(len, melds)) == len(hand):
        return []  # R5.6: an opening may not empty the hand
    return [{"type": "open", "melds": melds}]


def _may_lay_off(state: GameState, rnd: RoundState, seat: int) -> bool:
    opened = rnd.opened[seat]
    return (not state.profile.final_whole_hand(rnd.number) and len(rnd.hands[seat]) > 1
            and (opened == "earlier" or state.profile.lay_off_on_opening_turn))


def _lay_offs(state: GameState, rnd: RoundState, hand: tuple[str, ...]) -> list[dict]:
    return [_with_end({"type": "lay_off", "meld": index, "card": entry}, end)
            for index, entry, end in layoffs_for_hand(rnd.melds, hand, state.profile.meld_rules)]


def _swaps(state: GameState, rnd: RoundState, hand: tuple[str, ...]) -> list[dict]:
    rules = state.profile.meld_rules
    actions = []
    for index, natural in joker_swaps(rnd.melds, hand, rules):
        if rules.wild_twos:
            swapped, released = general.swap_joker(rnd.melds[index], natural, rules)
        else:
            swapped, released = swap_joker(rnd.melds[index], natural), JOKER
        melds = rnd.melds[:index] + (swapped,) + rnd.melds[index + 1:]
        for to_index, meld in enumerate(melds):
            for entry, end in layoff_targets(meld, rules):
                declared = _released_as(entry, released, meld)
                if declared is not False and _fits(meld, released, declared, end, rules):
                    actions.append({"type": "swap_joker", "meld": index, "card": natural,
                                    "joker_to": _with_end({"meld": to_index, "as": declared},
                                                          end)})
    return actions


def _released_as(entry: str, released: str, meld) -> str | None | bool:
    """The `as` placing the released wild card as `entry`, or False when `entry` is another
    card (R7.5, R11.15)."""
    if entry.split("=", 1)[0] != released:
        return False
    if meld.kind == GROUP:
        return None
    return entry.split("=", 1)[1] if "=" in entry else entry


def _fits(meld, released: str, declared: str | None, end: str | None, rules) -> bool:
    """The released card's entry may go on `meld` (the jokers-per-run cap included)."""
    if released == JOKER:
        return True
    try:
        general.lay_off(meld, general.released_entry(released, declared, meld), end, rules)
    except ValueError:
        return False
    return True


def _claims(state: GameState, rnd: RoundState, seat: int) -> list[dict]:
    if len(rnd.hands[seat]) <= 1:
        return []
    rules, card = state.profile.meld_rules, rnd.claim.card
    actions = []
    for index, entry, end in layoffs_for_hand(rnd.melds, (card,), rules):
        action = {"type": "claim", "meld": index}
        if "=" in entry:
            action["as"] = None if rnd.melds[index].kind == GROUP else entry.split("=", 1)[-1]
        actions.append(_with_end(action, end))
    return actions


def _discards(state: GameState, rnd: RoundState, hand: tuple[str, ...]) -> list[dict]:
    taken = rnd.taken_from_discard
    only_taken = hand.count(taken) == len(hand)
    cards = [card for card in dict.fromkeys(hand) if card != taken or only_taken]
    actions = [{"type": "discard", "card": card} for card in cards]
    if state.profile.shanghai_call and len(hand) > 1:
        rules = state.profile.meld_rules
        actions += [{"type": "discard", "card": card, "shanghai": True} for card in cards
                    if layoffs_for_hand(rnd.melds, (card,), rules)]
    return actions


def _with_end(action: dict, end: str | None) -> dict:
    if end is not None:
        action["end"] = end
    return action
