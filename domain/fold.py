"""evolve/fold: the state after events. Pure and deterministic: no clock, no randomness, no I/O.

Events are facts already decided (and validated) by `domain.decide`; folding them checks
nothing and only applies them, so replaying any stored game gives the same states.
"""
from __future__ import annotations

from bisect import bisect_left
from typing import Callable, Iterable

from domain import events as ev
from domain.deal import deal_from_deck
from domain.melds import Meld
from domain.positions import state_from_position
from domain.profile import RuleProfile
from domain.state import (
    BUYING, DRAW, OVER, PLAY, PLAYING, SCORING, FINISHED, GameState, Offer, RoundState,
    with_changes,
)

JOKER = "JK"


def fold(events: Iterable[ev.Event], state: GameState | None = None) -> GameState | None:
    """Return the state after applying `events` in order to `state` (None: a new game).

    Folding onto a snapshot state gives the same result as folding from the start.
    """
    handlers = _HANDLERS
    for event in events:
        state = handlers[type(event)](state, event)
    return state


def evolve(state: GameState | None, event: ev.Event) -> GameState:
    """Return the state after one event. Raises KeyError for an unknown event class."""
    return _HANDLERS[type(event)](state, event)


# -- tuple helpers ------------------------------------------------------------------------

def _replaced(items: tuple, index: int, value: object) -> tuple:
    return items[:index] + (value,) + items[index + 1:]


def _without(hand: tuple[str, ...], card: str) -> tuple[str, ...]:
    i = hand.index(card)
    return hand[:i] + hand[i + 1:]


def _with(hand: tuple[str, ...], card: str) -> tuple[str, ...]:
    i = bisect_left(hand, card)
    return hand[:i] + (card,) + hand[i:]


def physical(card: str) -> str:
    """The card that leaves a hand for a meld card as written (``JK=6C`` -> ``JK``)."""
    return JOKER if card.startswith(JOKER) else card


def meld_kind(cards: tuple[str, ...]) -> str:
    """"run" or "group" for a valid meld as written: a run has a declared joker or two ranks."""
    ranks = {card[:-1] for card in cards if not card.startswith(JOKER)}
    if len(ranks) > 1 or any(card.startswith(JOKER + "=") for card in cards):
        return "run"
    return "group"


def _round(state: GameState, **changes: object) -> GameState:
    return with_changes(state, round=with_changes(state.round, **changes))


def _set_hand(rnd: RoundState, seat: int, hand: tuple[str, ...]) -> tuple:
    return _replaced(rnd.hands, seat, hand)


# -- handlers -------------------------------------------------------------------------------

def _game_created(_: None, e: ev.GameCreated) -> GameState:
    return GameState(profile=RuleProfile.from_json(e.profile), seats=e.seats, status=PLAYING,
                     totals=(0,) * e.seats, seed=e.seed)


def _position_loaded(_: None, e: ev.PositionLoaded) -> GameState:
    return state_from_position(e.position)


def _round_dealt(state: GameState, e: ev.RoundDealt) -> GameState:
    hands, discard, stock = deal_from_deck(e.deck, e.dealer, state.seats,
                                           state.profile.deal_sizes[e.round - 1])
    rnd = RoundState(number=e.round, dealer=e.dealer, turn=(e.dealer + 1) % state.seats,
                     phase=DRAW, hands=hands, opened=(None,) * state.seats, stock=stock,
                     discard=discard)
    return with_changes(state, round=rnd, status=PLAYING)


def _stock_chosen(state: GameState, _: ev.StockChosen) -> GameState:
    return state


def _offer_opened(state: GameState, e: ev.OfferOpened) -> GameState:
    return _round(state, phase=BUYING, offer=Offer(card=e.card, barred=e.barred))


def _buy_requested(state: GameState, e: ev.BuyRequested) -> GameState:
    offer = state.round.offer
    return _round(state, offer=with_changes(offer, buyers=offer.buyers + (e.seat,)))


def _buy_passed(state: GameState, e: ev.BuyPassed) -> GameState:
    offer = state.round.offer
    return _round(state, offer=with_changes(offer, passed=offer.passed + (e.seat,)))


def _offer_closed(state: GameState, _: ev.OfferClosed) -> GameState:
    return _round(state, offer=None)


def _card_bought(state: GameState, e: ev.CardBought) -> GameState:
    rnd = state.round
    hand = _with(_with(rnd.hands[e.seat], e.card), e.penalty)
    return _round(state, hands=_set_hand(rnd, e.seat, hand), discard=rnd.discard[:-1],
                  stock=rnd.stock[1:])


def _card_drawn(state: GameState, e: ev.CardDrawn) -> GameState:
    rnd = state.round
    hands = _set_hand(rnd, e.seat, _with(rnd.hands[e.seat], e.card))
    if e.source == "discard":
        return _round(state, hands=hands, discard=rnd.discard[:-1], phase=PLAY,
                      taken_from_discard=e.card, offer=None)
    return _round(state, hands=hands, stock=rnd.stock[1:], phase=PLAY, offer=None)


def _contract_opened(state: GameState, e: ev.ContractOpened) -> GameState:
    rnd = state.round
    hand = rnd.hands[e.seat]
    for cards in e.melds:
        for card in cards:
            hand = _without(hand, physical(card))
    new_melds = tuple(Meld(e.seat, meld_kind(cards), cards) for cards in e.melds)
    return _round(state, hands=_set_hand(rnd, e.seat, hand), melds=rnd.melds + new_melds,
                  opened=_replaced(rnd.opened, e.seat, "this_turn"))


def _placed(meld: Meld, card: str, end: str | None) -> Meld:
    cards = (card,) + meld.cards if end == "low" else meld.cards + (card,)
    return Meld(meld.owner, meld.kind, cards)


def _card_laid_off(state: GameState, e: ev.CardLaidOff) -> GameState:
    rnd = state.round
    melds = _replaced(rnd.melds, e.meld, _placed(rnd.melds[e.meld], e.card, e.end))
    hand = _without(rnd.hands[e.seat], physical(e.card))
    return _round(state, hands=_set_hand(rnd, e.seat, hand), melds=melds)


def _joker_swapped(state: GameState, e: ev.JokerSwapped) -> GameState:
    rnd = state.round
    source = rnd.melds[e.meld]
    cards = _replaced(source.cards, source.cards.index(f"{JOKER}={e.card}"), e.card)
    melds = _replaced(rnd.melds, e.meld, Meld(source.owner, source.kind, cards))
    melds = _replaced(melds, e.joker_to, _placed(melds[e.joker_to], e.joker_card, e.joker_end))
    hand = _without(rnd.hands[e.seat], e.card)
    return _round(state, hands=_set_hand(rnd, e.seat, hand), melds=melds)


def _card_discarded(state: GameState, e: ev.CardDiscarded) -> GameState:
    rnd = state.round
    hand = _without(rnd.hands[e.seat], e.card)
    hands, discard = _set_hand(rnd, e.seat, hand), rnd.discard + (e.card,)
    if not hand:
        return _round(state, hands=hands, discard=discard)
    opened = rnd.opened
    if opened[e.seat] == "this_turn":
        opened = _replaced(opened, e.seat, "earlier")
    return _round(state, hands=hands, discard=discard, opened=opened,
                  turn=(e.seat + 1) % state.seats, phase=DRAW, taken_from_discard=None,
                  turns=rnd.turns + 1)


def _stock_rebuilt(state: GameState, e: ev.StockRebuilt) -> GameState:
    return _round(state, stock=e.stock, discard=e.discard)


def _round_ended(state: GameState, e: ev.RoundEnded) -> GameState:
    rnd = with_changes(state.round, phase=OVER, offer=None, winner=e.winner,
                       end_reason=e.reason)
    return with_changes(state, round=rnd, status=SCORING)


def _round_scored(state: GameState, e: ev.RoundScored) -> GameState:
    return with_changes(state, totals=e.totals, round_scores=state.round_scores + (e.scores,),
                        status=PLAYING)


def _game_ended(state: GameState, e: ev.GameEnded) -> GameState:
    return with_changes(state, status=FINISHED, winners=e.winners, totals=e.totals)


_HANDLERS: dict[type, Callable[[GameState | None, ev.Event], GameState]] = {
    ev.GameCreated: _game_created,
    ev.PositionLoaded: _position_loaded,
    ev.RoundDealt: _round_dealt,
    ev.StockChosen: _stock_chosen,
    ev.OfferOpened: _offer_opened,
    ev.BuyRequested: _buy_requested,
    ev.BuyPassed: _buy_passed,
    ev.OfferClosed: _offer_closed,
    ev.CardBought: _card_bought,
    ev.CardDrawn: _card_drawn,
    ev.ContractOpened: _contract_opened,
    ev.CardLaidOff: _card_laid_off,
    ev.JokerSwapped: _joker_swapped,
    ev.CardDiscarded: _card_discarded,
    ev.StockRebuilt: _stock_rebuilt,
    ev.RoundEnded: _round_ended,
    ev.RoundScored: _round_scored,
    ev.GameEnded: _game_ended,
}
