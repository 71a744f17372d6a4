"""Buying out of turn (RULES.md §6): offers, answers, resolution, penalty cards."""
from __future__ import annotations

import random

from domain.decide_common import (
    Batch, draw_from_stock, require_answered, require_in_play, require_seat, supply_stock_card,
)
from domain.errors import RuleViolation
from domain.events import BuyPassed, BuyRequested, CardBought, Event, OfferClosed, OfferOpened
from domain.events_variants import PenaltyCardTaken
from domain.offers import (
    PENDING, outcome, purchase_payable, waiting_for, with_answer, with_passes,
)
from domain.state import GameState, Offer


def offer_or_draw(batch: Batch, rng: random.Random, barred: int | None) -> None:
    """Offer the discard top (R6.1, R6.4) if a purchase could be paid (R6.8); otherwise
    buying is over and the active seat takes the stock top (R5.3, R6.5, R10.2). No offer in a
    round without buying (R11.8), nor when every seat that could buy is at its cap (R11.9)."""
    rnd, profile = batch.round, batch.state.profile
    if (rnd.discard and profile.buying_in(rnd.number) and _someone_may_buy(batch, barred)
            and purchase_payable(rnd, profile.penalty_cards_per_purchase,
                                 profile.rebuild_allowed(rnd.rebuilds))):
        batch.add(OfferOpened(card=rnd.discard[-1], barred=barred))
    else:
        draw_from_stock(batch, rng)


def _someone_may_buy(batch: Batch, barred: int | None) -> bool:
    cap = batch.state.profile.purchases_per_player_per_round
    if cap is None:
        return True
    rnd = batch.round
    return any(n < cap for s, n in enumerate(rnd.purchases) if s not in (rnd.turn, barred))


def answer(state: GameState, seat: object, action: dict, rng: random.Random) -> list[Event]:
    """`{"type": "buy"}` / `{"type": "pass"}` from a non-active seat (R6.2, R6.9), with an
    optional `"card"`: the card the seat answers, refused if another card is on offer now.

    Raises RuleViolation R6.1 (no card is offered, or not the `card` answered), R11.8 (no
    buying in this round), R6.7 (the active seat never buys), R6.4 (bought the previous card
    of this chain), R11.9 (at the purchase cap; its pass changes nothing) or R6.9 (already
    answered this offer); MalformedAction R1.2 for a `card` that is not a card code.
    """
    rnd = require_in_play(state)
    seat = require_seat(state, seat)
    offer = rnd.offer
    if offer is None and not state.profile.buying_in(rnd.number):
        raise RuleViolation("R11.8", "there is no buying in this round")
    if offer is None:
        raise RuleViolation("R6.1", "no card is offered for sale now")
    require_answered(action, offer.card, "R6.1", "offer")
    if seat == rnd.turn:
        raise RuleViolation("R6.7", "the active player never buys: take the discard or the stock")
    buys = action["type"] == "buy"
    if seat == offer.barred:
        raise RuleViolation("R6.4", "you bought the previous card: no two purchases in a row")
    if seat in offer.capped:
        if buys:
            raise RuleViolation("R11.9", "you have made all the purchases allowed this round")
        return []  # R11.9: a capped seat's pass is accepted and changes nothing
    if seat in offer.buyers or seat in offer.passed:
        raise RuleViolation("R6.9", "you have answered this offer already")
    answered = BuyRequested(seat=seat) if buys else BuyPassed(seat=seat)
    # Most answers leave the offer open (a seat ahead has not answered yet): settle that on
    # the offer alone, without a batch or folding the answer into a new state first.
    offer = with_answer(offer, seat, buys)
    if outcome(offer, rnd.turn, state.seats) == PENDING:
        return [answered]
    batch = Batch(state)
    batch.add(answered, changes_table=False)   # `resolve` is handed the answered offer
    resolve(batch, rng, offer)
    return batch.events


def close_offer(state: GameState, seat: None, action: dict, rng: random.Random) -> list[Event]:
    """System action at the offer deadline: every seat still owing an answer passes (R6.9).

    Raises RuleViolation R6.9 when no offer is open.
    """
    rnd = require_in_play(state)
    if rnd.offer is None:
        raise RuleViolation("R6.9", "no buy offer is open")
    batch = Batch(state)
    silent = waiting_for(rnd.offer, rnd.turn, state.seats)
    for quiet in silent:
        batch.add(BuyPassed(seat=quiet), changes_table=False)  # `resolve` is handed them
    resolve(batch, rng, with_passes(rnd.offer, silent))
    return batch.events


def resolve(batch: Batch, rng: random.Random, offer: Offer) -> None:
    """Close `offer` once its outcome is certain (R6.9): the purchase with its penalty cards
    (R6.3, R11.10) and the next offer (R6.4), or, when all declined, the active seat's draw
    (R6.5). `offer` is the open offer with the answers the batch added; those answers and the
    closing need not be folded into the batch's state (`changes_table=False`): what follows
    reads the stock, the pile and the purchases, which they leave as they were, and never
    the offer again (a fold per closed offer saved)."""
    rnd = batch.round
    buyer = outcome(offer, rnd.turn, batch.state.seats)
    if buyer == PENDING:
        return
    batch.add(OfferClosed(card=offer.card, buyer=buyer), changes_table=False)
    if buyer is None:
        draw_from_stock(batch, rng)
        return
    penalties = batch.state.profile.penalty_cards_per_purchase
    if penalties == 0:
        batch.add(CardBought(seat=buyer, card=offer.card, penalty=None))
    else:
        supply_stock_card(batch, rng, keep=2)  # R6.8 made sure the penalty cards exist
        batch.add(CardBought(seat=buyer, card=offer.card, penalty=batch.round.stock[0]))
        for _ in range(penalties - 1):
            supply_stock_card(batch, rng)
            batch.add(PenaltyCardTaken(seat=buyer, card=batch.round.stock[0]))
    offer_or_draw(batch, rng, barred=buyer)
