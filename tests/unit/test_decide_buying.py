"""decide: buying out of turn (R6.1-R6.9)."""
import pytest

from domain import RuleViolation, awaiting, decide
from domain.events import (
    BuyPassed, BuyRequested, CardBought, CardDrawn, OfferClosed, OfferOpened,
)

from domain.offers import purchase_payable
from domain.state import RoundState

from domain_fixtures import offered, play, refusal, rng, state_of


def test_choosing_the_stock_offers_the_discard_top_to_the_other_seats():
    state = offered()
    assert state.round.offer.card == "9H"
    assert awaiting(state).seats == (1, 2, 3)


def test_the_nearest_seat_asking_wins_at_once():
    events = decide(offered(), 1, {"type": "buy"}, rng())
    assert events[:3] == [BuyRequested(seat=1), OfferClosed(card="9H", buyer=1),
                          CardBought(seat=1, card="9H", penalty="5H")]
    assert events[3] == OfferOpened(card="8D", barred=1)  # R6.4


def test_a_farther_request_waits_for_the_seats_ahead():
    state = play(offered(), 3, {"type": "buy"})
    assert state.round.offer.buyers == (3,)
    assert awaiting(state).seats == (1, 2)
    state = play(state, 1, {"type": "pass"})
    events = decide(state, 2, {"type": "pass"}, rng())
    assert OfferClosed(card="9H", buyer=3) in events


def test_a_losing_request_is_void_and_does_not_carry_over():
    state = play(offered(), 2, {"type": "buy"})
    state = play(state, 1, {"type": "buy"})  # seat 1 wins 9H
    assert state.round.offer.card == "8D" and state.round.offer.buyers == ()


def test_the_buyer_of_the_previous_card_is_barred_and_not_waited_for():
    state = play(offered(), 1, {"type": "buy"})
    assert refusal(state, 1, {"type": "buy"}) == "R6.4"
    assert awaiting(state).seats == (2, 3)


def test_answering_twice_is_refused():
    state = play(offered(), 3, {"type": "pass"})
    assert refusal(state, 3, {"type": "buy"}) == "R6.9"


def test_the_active_seat_never_buys():
    assert refusal(offered(), 0, {"type": "buy"}) == "R6.7"


def test_no_offer_no_purchase():
    assert refusal(state_of(), 1, {"type": "buy"}) == "R6.1"


def test_all_passing_gives_the_active_seat_the_stock_top():
    state = play(play(offered(), 1, {"type": "pass"}), 2, {"type": "pass"})
    events = decide(state, 3, {"type": "pass"}, rng())
    assert events[-2:] == [OfferClosed(card="9H", buyer=None),
                           CardDrawn(seat=0, source="stock", card="5H")]


def test_close_offer_passes_only_the_seats_that_still_owe_an_answer():
    state = play(offered(), 3, {"type": "buy"})
    events = decide(state, None, {"type": "close_offer"}, rng())
    assert events[:3] == [BuyPassed(seat=1), BuyPassed(seat=2), OfferClosed(card="9H", buyer=3)]


def test_close_offer_without_an_offer_is_refused():
    assert refusal(state_of(), None, {"type": "close_offer"}) == "R6.9"


@pytest.mark.parametrize("stock, pile, payable", [
    (2, 1, True),    # penalty and active card straight from the stock
    (1, 3, True),    # penalty from the stock, the active card from a rebuild of one card
    (1, 2, False),   # after the offered card leaves, the pile is its top only: no rebuild
    (0, 4, True),    # one rebuild of two cards pays both
    (0, 3, False),   # one rebuild of one card pays the penalty only (R6.8)
])
def test_an_offer_opens_only_when_penalty_and_active_card_can_be_paid(stock, pile, payable):
    rnd = RoundState(number=1, dealer=3, turn=0, phase="draw", hands=((),) * 4,
                     stock=("5H",) * stock, discard=("9H",) * pile)
    assert purchase_payable(rnd) is payable


def test_r6_1_a_buy_naming_the_card_on_offer_is_accepted():
    events = decide(offered(), 1, {"type": "buy", "card": "9H"}, rng())
    assert events[:2] == [BuyRequested(seat=1), OfferClosed(card="9H", buyer=1)]
    assert decide(offered(), 2, {"type": "pass", "card": "9H"}, rng()) == [BuyPassed(seat=2)]


def test_r6_1_a_late_buy_or_pass_naming_an_earlier_card_is_refused():
    state = play(offered(), 1, {"type": "buy"})  # 9H bought; 8D is offered now (R6.4)
    for kind in ("buy", "pass"):
        with pytest.raises(RuleViolation) as caught:
            decide(state, 2, {"type": kind, "card": "9H"}, rng())
        assert caught.value.rule == "R6.1" and "now 8D" in caught.value.message


def test_r1_2_a_buy_naming_no_card_code_is_malformed():
    from domain.errors import MalformedAction
    with pytest.raises(MalformedAction) as caught:
        decide(offered(), 1, {"type": "buy", "card": "ZZ"}, rng())
    assert caught.value.rule == "R1.2"
