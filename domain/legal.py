"""legal_actions: every action a seat may take now, in a fixed order (bots, clients, tests).

Order: draws (stock, discard), buy/pass, the opening found by search, lay-offs (by meld, then
target), joker swaps with each placement of the released joker, discards (distinct cards).
Every listed action is accepted by `decide`.
"""
from __future__ import annotations

from domain.cards import JOKER, declared_card
from domain.contracts import FINAL_ROUND
from domain.melds import joker_swaps, layoff_targets, layoffs_for_hand, swap_joker
from domain.offers import waiting_for
from domain.search import find_opening
from domain.state import BUYING, DRAW, PLAY, PLAYING, GameState, RoundState

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
    if seat != rnd.turn:
        return []
    if rnd.phase == DRAW:
        return [dict(DRAW_STOCK)] + ([dict(DRAW_DISCARD)] if rnd.discard else [])
    if rnd.phase == PLAY:
        return _play_actions(state, rnd, seat)
    return []


def _play_actions(state: GameState, rnd: RoundState, seat: int) -> list[dict]:
    hand = rnd.hands[seat]
    actions = []
    if rnd.opened[seat] is None:
        actions += _opening(rnd, hand)
    elif _may_lay_off(state, rnd, seat):
        actions += _lay_offs(rnd, hand) + _swaps(rnd, hand)
    return actions + _discards(rnd, hand)


def _opening(rnd: RoundState, hand: tuple[str, ...]) -> list[dict]:
    melds = find_opening(rnd.number, hand)
    if melds is None:
        return []
    if rnd.number != FINAL_ROUND and sum(map(len, melds)) == len(hand):
        return []  # R5.6: an opening may not empty the hand
    return [{"type": "open", "melds": melds}]


def _may_lay_off(state: GameState, rnd: RoundState, seat: int) -> bool:
    opened = rnd.opened[seat]
    return (rnd.number != FINAL_ROUND and len(rnd.hands[seat]) > 1
            and (opened == "earlier" or state.profile.lay_off_on_opening_turn))


def _lay_offs(rnd: RoundState, hand: tuple[str, ...]) -> list[dict]:
    return [_with_end({"type": "lay_off", "meld": index, "card": entry}, end)
            for index, entry, end in layoffs_for_hand(rnd.melds, hand)]


def _swaps(rnd: RoundState, hand: tuple[str, ...]) -> list[dict]:
    actions = []
    for index, natural in joker_swaps(rnd.melds, hand):
        swapped = swap_joker(rnd.melds[index], natural)
        melds = rnd.melds[:index] + (swapped,) + rnd.melds[index + 1:]
        for to_index, meld in enumerate(melds):
            for entry, end in layoff_targets(meld):
                if entry[:2] == JOKER:
                    declared = None if entry == JOKER else declared_card(entry)
                    actions.append({"type": "swap_joker", "meld": index, "card": natural,
                                    "joker_to": _with_end({"meld": to_index, "as": declared},
                                                          end)})
    return actions


def _discards(rnd: RoundState, hand: tuple[str, ...]) -> list[dict]:
    taken = rnd.taken_from_discard
    only_taken = all(card == taken for card in hand)
    return [{"type": "discard", "card": card} for card in dict.fromkeys(hand)
            if card != taken or only_taken]


def _with_end(action: dict, end: str | None) -> dict:
    if end is not None:
        action["end"] = end
    return action
