"""evolve/fold: the state after events. Pure and deterministic: no clock, no randomness, no I/O.

Events are facts already decided (and validated) by `domain.decide`; folding them checks
nothing and only applies them, so replaying any stored game gives the same states.
"""
from __future__ import annotations

from typing import Callable, Iterable

from domain import events as ev
from domain.cards import physical_card
from domain.deal import deal_from_deck
from domain.melds import Meld, meld_kind, wild_index
from domain.fold_tuples import give as _give, placed as _placed, replaced as _replaced
from domain.fold_tuples import with_card as _with, without as _without
from domain.fold_control import CONTROL_HANDLERS
from domain.fold_variants import BY_SEAT, HANDLERS as VARIANT_HANDLERS
from domain.offers import with_answer, with_passes
from domain.lobby import LOBBY_HANDLERS
from domain.positions import state_from_position
from domain.profile import RuleProfile
from domain.state import (
    BUYING, CUT, DRAW, OVER, PLAY, PLAYING, SCORING, FINISHED, GameState, Offer, RoundState,
    adopt,
)


def fold(events: Iterable[ev.Event], state: GameState | None = None) -> GameState | None:
    """Return the state after applying `events` in order to `state` (None: a new game).

    Folding onto a snapshot state gives the same result as folding from the start. The
    events are applied to a private working copy (two dicts of fields), frozen once at the
    end: a whole game folds in a few milliseconds.
    """
    # dict.copy clones a dict's table whole; dict(d) inserts field by field (~4x the time)
    game = None if state is None else state.__dict__.copy()
    rnd = None if state is None or state.round is None else state.round.__dict__.copy()
    handlers = _HANDLERS
    folded = 0
    for event in events:
        game, rnd = handlers[type(event)](game, rnd, event)
        folded += 1
    if game is not None:
        game["events_folded"] = game.get("events_folded", 0) + folded
    return _frozen(game, rnd)


# Passes on a buy offer are most of a big table's events (seven per offer at eight seats): the
# working copy collects them in a list under this key, tied to the offer they answer, and
# builds the Offer once (at the next request, or at the end of the fold). A handler that
# replaces the offer needs not clear the list: one tied to another offer is dropped.
_PASSES = "_pending_passes"


def _with_passes(rnd: dict) -> dict:
    """`rnd` with its collected passes written into its offer, and the list removed."""
    pending = rnd.pop(_PASSES, None)
    if pending is not None and pending[0] is rnd["offer"]:
        offer = pending[0]
        rnd["offer"] = with_passes(offer, tuple(pending[1:]))
    return rnd


def evolve(state: GameState | None, event: ev.Event) -> GameState:
    """Return the state after one event. Raises KeyError for an unknown event class."""
    return fold((event,), state)


def _frozen(game: dict | None, rnd: dict | None) -> GameState | None:
    if game is None:
        return None
    if rnd is not None:
        game["round"] = adopt(RoundState, _with_passes(rnd))
    return adopt(GameState, game)


def _took_from_discard(rnd: dict, seat: int, card: str) -> None:
    taken = rnd["discard_taken"]
    rnd["discard_taken"] = _replaced(taken, seat, taken[seat] + (card,))


# -- handlers: (game fields, round fields, event) -> (game fields, round fields) ------------

Fields = dict


def _game_created(_: None, __: None, e: ev.GameCreated) -> tuple[Fields, None]:
    game = GameState(profile=RuleProfile.from_json(e.profile), seats=e.seats, status=PLAYING,
                     totals=(0,) * e.seats, seed=e.seed, taken_over=(None,) * e.seats,
                     timeouts=(0,) * e.seats)
    return dict(game.__dict__), None


def _position_loaded(_: None, __: None, e: ev.PositionLoaded) -> tuple[Fields, Fields]:
    state = state_from_position(e.position)
    return dict(state.__dict__), dict(state.round.__dict__)


def _round_dealt(game: Fields, old: Fields | None, e: ev.RoundDealt) -> tuple[Fields, Fields]:
    seats = game["seats"]
    game["timed_out"] = None
    hands, discard, stock = deal_from_deck(e.deck, e.dealer, seats,
                                           game["profile"].deal_size(e.round))
    cut = old is not None and old["phase"] == CUT  # R11.19: the cut of this deal came first
    rnd = RoundState(number=e.round, dealer=e.dealer, turn=(e.dealer + 1) % seats, phase=DRAW,
                     hands=hands, opened=(None,) * seats, stock=stock, discard=discard,
                     discard_taken=((),) * seats, purchases=(0,) * seats,
                     cut_bonus_seat=old["cut_bonus_seat"] if cut else None)
    game["status"] = PLAYING
    return game, dict(rnd.__dict__)


def _stock_chosen(game: Fields, rnd: Fields, _: ev.StockChosen) -> tuple[Fields, Fields]:
    return game, rnd


def _offer_opened(game: Fields, rnd: Fields, e: ev.OfferOpened) -> tuple[Fields, Fields]:
    cap = game["profile"].purchases_per_player_per_round
    capped = () if cap is None else tuple(s for s, n in enumerate(rnd["purchases"]) if n >= cap)
    rnd["phase"], rnd["offer"] = BUYING, Offer(card=e.card, barred=e.barred, capped=capped)
    return game, rnd


def _buy_requested(game: Fields, rnd: Fields, e: ev.BuyRequested) -> tuple[Fields, Fields]:
    rnd["offer"] = with_answer(_with_passes(rnd)["offer"], e.seat, buys=True)
    return game, rnd


def _buy_passed(game: Fields, rnd: Fields, e: ev.BuyPassed) -> tuple[Fields, Fields]:
    pending = rnd.get(_PASSES)
    if pending is None or pending[0] is not rnd["offer"]:
        rnd[_PASSES] = pending = [rnd["offer"]]
    pending.append(e.seat)
    return game, rnd


def _offer_closed(game: Fields, rnd: Fields, _: ev.OfferClosed) -> tuple[Fields, Fields]:
    rnd["offer"] = None
    return game, rnd


def _card_bought(game: Fields, rnd: Fields, e: ev.CardBought) -> tuple[Fields, Fields]:
    hand = _with(rnd["hands"][e.seat], e.card)
    if e.penalty is not None:  # R11.10: a profile may take no penalty card
        hand, rnd["stock"] = _with(hand, e.penalty), rnd["stock"][1:]
    _give(rnd, e.seat, hand)
    rnd["discard"] = rnd["discard"][:-1]
    rnd["purchases"] = _replaced(rnd["purchases"], e.seat, rnd["purchases"][e.seat] + 1)
    _took_from_discard(rnd, e.seat, e.card)   # the bought card only: the penalty is hidden
    return game, rnd


def _card_drawn(game: Fields, rnd: Fields, e: ev.CardDrawn) -> tuple[Fields, Fields]:
    _give(rnd, e.seat, _with(rnd["hands"][e.seat], e.card))
    if e.source == "discard":
        rnd["discard"], rnd["taken_from_discard"] = rnd["discard"][:-1], e.card
        _took_from_discard(rnd, e.seat, e.card)
    else:
        rnd["stock"] = rnd["stock"][1:]
    rnd["phase"], rnd["offer"] = PLAY, None
    return game, rnd


def _contract_opened(game: Fields, rnd: Fields, e: ev.ContractOpened) -> tuple[Fields, Fields]:
    hand = rnd["hands"][e.seat]
    for cards in e.melds:
        for card in cards:
            hand = _without(hand, physical_card(card))
    _give(rnd, e.seat, hand)
    rules = game["profile"].meld_rules
    rnd["melds"] += tuple(Meld(e.seat, meld_kind(cards, rules), cards) for cards in e.melds)
    rnd["opened"] = _replaced(rnd["opened"], e.seat, "this_turn")
    return game, rnd


def _card_laid_off(game: Fields, rnd: Fields, e: ev.CardLaidOff) -> tuple[Fields, Fields]:
    melds = rnd["melds"]
    rnd["melds"] = _replaced(melds, e.meld, _placed(melds[e.meld], e.card, e.end))
    _give(rnd, e.seat, _without(rnd["hands"][e.seat], physical_card(e.card)))
    return game, rnd


def _joker_swapped(game: Fields, rnd: Fields, e: ev.JokerSwapped) -> tuple[Fields, Fields]:
    source = rnd["melds"][e.meld]
    cards = _replaced(source.cards, wild_index(source.cards, e.card), e.card)
    melds = _replaced(rnd["melds"], e.meld, Meld(source.owner, source.kind, cards))
    rnd["melds"] = _replaced(melds, e.joker_to,
                             _placed(melds[e.joker_to], e.joker_card, e.joker_end))
    _give(rnd, e.seat, _without(rnd["hands"][e.seat], e.card))
    return game, rnd


def _card_discarded(game: Fields, rnd: Fields, e: ev.CardDiscarded) -> tuple[Fields, Fields]:
    hand = _without(rnd["hands"][e.seat], e.card)
    _give(rnd, e.seat, hand)
    rnd["discard"] += (e.card,)
    if hand:
        if rnd["opened"][e.seat] == "this_turn":
            rnd["opened"] = _replaced(rnd["opened"], e.seat, "earlier")
        rnd["turn"], rnd["phase"] = (e.seat + 1) % game["seats"], DRAW
        rnd["taken_from_discard"], rnd["turns"] = None, rnd["turns"] + 1
    return game, rnd


def _stock_rebuilt(game: Fields, rnd: Fields, e: ev.StockRebuilt) -> tuple[Fields, Fields]:
    rnd["stock"], rnd["discard"] = e.stock, e.discard
    rnd["rebuilds"] += 1
    return game, rnd


def _round_ended(game: Fields, rnd: Fields, e: ev.RoundEnded) -> tuple[Fields, Fields]:
    rnd.update(phase=OVER, offer=None, claim=None, winner=e.winner, end_reason=e.reason)
    if e.reason == "turn_cap":  # the discard before it counted a turn the cap never began (R10.4)
        rnd["turns"] -= 1
    game["status"], game["timed_out"] = SCORING, None
    return game, rnd


def _round_scored(game: Fields, rnd: Fields, e: ev.RoundScored) -> tuple[Fields, Fields]:
    game.update(totals=e.totals, round_scores=game["round_scores"] + (e.scores,),
                status=PLAYING)
    return game, rnd


def _game_ended(game: Fields, rnd: Fields, e: ev.GameEnded) -> tuple[Fields, Fields]:
    game.update(status=FINISHED, winners=e.winners, totals=e.totals)
    return game, rnd


def _by_seat(handler: Callable[..., tuple[Fields, Fields]]) -> Callable[..., tuple[Fields, Fields]]:
    """`handler` of an event a seat chose (`e.seat`): when that seat is played by its human
    (neither taken over nor finishing a timed-out turn), its consecutive timeouts start again
    from 0. A discard also ends a timed-out turn. (A pass is not counted: a silent seat's pass
    at the offer deadline is the same event, and silence must not reset the count.)"""
    def folded(game: Fields, rnd: Fields, e: ev.Event) -> tuple[Fields, Fields]:
        seat = e.seat
        if game["timed_out"] == seat:
            if isinstance(e, ev.CardDiscarded):
                game["timed_out"] = None
        elif game["taken_over"][seat] is None and game["timeouts"][seat]:
            game["timeouts"] = _replaced(game["timeouts"], seat, 0)
        return handler(game, rnd, e)
    return folded


_HANDLERS: dict[type, Callable[..., tuple[Fields | None, Fields | None]]] = {
    ev.GameCreated: _game_created,
    ev.PositionLoaded: _position_loaded,
    ev.RoundDealt: _round_dealt,
    ev.StockChosen: _by_seat(_stock_chosen),
    ev.OfferOpened: _offer_opened,
    ev.BuyRequested: _by_seat(_buy_requested),
    ev.BuyPassed: _buy_passed,
    ev.OfferClosed: _offer_closed,
    ev.CardBought: _card_bought,
    ev.CardDrawn: _by_seat(_card_drawn),
    ev.ContractOpened: _by_seat(_contract_opened),
    ev.CardLaidOff: _by_seat(_card_laid_off),
    ev.JokerSwapped: _by_seat(_joker_swapped),
    ev.CardDiscarded: _by_seat(_card_discarded),
    ev.StockRebuilt: _stock_rebuilt,
    ev.RoundEnded: _round_ended,
    ev.RoundScored: _round_scored,
    ev.GameEnded: _game_ended,
    **CONTROL_HANDLERS,
    **LOBBY_HANDLERS,
    **{event: _by_seat(handler) if event in BY_SEAT else handler
       for event, handler in VARIANT_HANDLERS.items()},
}
