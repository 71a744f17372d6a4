"""decide: one or more tests per rule that had none of its own (R2.5, R4.4, R5.2-R5.4, R6.3,
R7.6, R8.1, R8.3, R9.2). Each asserts the events produced, or the refusal and its rule id, and
the state after. Where the engine cites a neighbouring rule that also forbids the action, the
assertion accepts the set of plausible ids, as the conformance cases do."""
import random

import pytest

from domain import RuleProfile, awaiting, card_points, decide, fold, legal_actions
from domain import start_game
from domain.events import (
    BuyPassed, BuyRequested, CardBought, CardDiscarded, CardDrawn, CardLaidOff, OfferClosed,
    OfferOpened, RoundEnded, RoundScored, StockChosen,
)

from domain_fixtures import OTHER_HANDS, SEAT0_HAND, offered, play, refusal, rng, state_of

RUN = {"owner": 1, "cards": ["5C", "6C", "7C", "8C"]}
RUN_WITH_JOKER = {"owner": 1, "cards": ["5C", "JK=6C", "7C", "8C"]}
KINGS = {"owner": 2, "cards": ["KD", "KS", "KH"]}


# R2.5: the first upcard is an ordinary discard, a joker included.

def test_r2_5_the_first_upcard_of_a_fresh_deal_can_be_taken():
    state = fold(start_game(RuleProfile(), 4, random.Random(3)))
    rnd = state.round
    assert len(rnd.discard) == 1 and rnd.turn == (rnd.dealer + 1) % 4
    upcard = rnd.discard[0]
    events = decide(state, rnd.turn, {"type": "draw", "from": "discard"}, rng())
    assert events == [CardDrawn(seat=rnd.turn, source="discard", card=upcard)]
    after = fold(events, state).round
    assert after.discard == () and after.taken_from_discard == upcard
    assert len(after.hands[rnd.turn]) == 11 and upcard in after.hands[rnd.turn]


def test_r2_5_a_joker_upcard_can_be_taken_like_any_discard():
    state = state_of(discard=["JK"])
    events = decide(state, 0, {"type": "draw", "from": "discard"}, rng())
    assert events == [CardDrawn(seat=0, source="discard", card="JK")]
    after = fold(events, state).round
    assert after.phase == "play" and after.discard == () and after.taken_from_discard == "JK"
    assert sorted(after.hands[0]) == sorted(SEAT0_HAND + ["JK"])


def test_r2_5_a_joker_upcard_is_offered_and_bought_like_any_discard():
    state = offered(discard=["JK"])
    assert state.round.offer.card == "JK"
    events = decide(state, 1, {"type": "buy"}, rng())
    assert events[:3] == [BuyRequested(seat=1), OfferClosed(card="JK", buyer=1),
                          CardBought(seat=1, card="JK", penalty="5H")]
    assert "JK" in fold(events, state).round.hands[1]


# R4.4: before opening nothing else is laid; after opening no new meld.

def test_r4_4_a_seat_that_has_not_opened_cannot_lay_off():
    state = state_of(phase="play", melds=[RUN], hands=[["4C", "QD", "9D"]] + OTHER_HANDS,
                     opened=[None, "earlier", None, None])
    assert refusal(state, 0, {"type": "lay_off", "meld": 0, "card": "4C"}) in {"R4.4", "R7.1"}
    assert not [a for a in legal_actions(state, 0) if a["type"] == "lay_off"]


@pytest.mark.parametrize("opened", ["earlier", "this_turn"])
def test_r4_4_a_seat_that_has_opened_creates_no_new_meld(opened):
    hand = ["7S", "7S", "7C", "KC", "KD", "KS", "2D"]
    state = state_of(phase="play", melds=[RUN], hands=[hand] + OTHER_HANDS,
                     opened=[opened, "earlier", None, None])
    action = {"type": "open", "melds": [["7S", "7S", "7C"], ["KC", "KD", "KS"]]}
    assert refusal(state, 0, action) == "R4.4"
    assert not [a for a in legal_actions(state, 0) if a["type"] == "open"]


# R5.2: taking the discard top is the draw: no offer, no penalty, nobody may buy.

def test_r5_2_taking_the_discard_top_opens_no_buy_offer():
    state = state_of()
    events = decide(state, 0, {"type": "draw", "from": "discard"}, rng())
    assert events == [CardDrawn(seat=0, source="discard", card="9H")]
    after = fold(events, state)
    rnd = after.round
    assert rnd.offer is None and rnd.phase == "play" and rnd.turn == 0
    assert rnd.stock == state.round.stock  # no penalty card left the stock
    assert rnd.discard == ("8D",) and len(rnd.hands[0]) == 11
    assert rnd.hands[1:] == state.round.hands[1:]
    for seat in (1, 2, 3):
        assert legal_actions(after, seat) == []
        assert refusal(after, seat, {"type": "buy"}) in {"R6.1", "R5.2"}


# R5.3: after choosing the stock the active seat cannot switch; it then gets the stock top.

def test_r5_3_after_choosing_the_stock_the_active_seat_cannot_take_the_discard():
    state = offered()
    assert refusal(state, 0, {"type": "draw", "from": "discard"}) in {"R5.3", "R6.9"}
    assert state.round.phase == "buying" and state.round.discard == ("8D", "9H")


def test_r5_3_when_buying_is_over_the_active_seat_gets_the_stock_top():
    state = play(play(offered(), 1, {"type": "pass"}), 2, {"type": "pass"})
    events = decide(state, 3, {"type": "pass"}, rng())
    assert events == [BuyPassed(seat=3), OfferClosed(card="9H", buyer=None),
                      CardDrawn(seat=0, source="stock", card="5H")]
    after = fold(events, state)
    rnd = after.round
    assert rnd.phase == "play" and rnd.turn == 0 and rnd.offer is None
    assert rnd.discard == ("8D", "9H") and rnd.stock[0] == "6H" and "5H" in rnd.hands[0]
    assert refusal(after, 0, {"type": "draw", "from": "discard"}) in {"R5.3", "R5.1"}


# R5.4: a seat that opened earlier lays off any number of cards in one turn.

def test_r5_4_a_seat_that_opened_earlier_lays_off_several_cards_in_one_turn():
    others = [["2C", "2D", "2S", "2H", "QC", "QD", "3C", "3D", "3S", "3H"],
              OTHER_HANDS[1][4:] + ["AC", "AD"], OTHER_HANDS[2]]
    state = state_of(phase="play", melds=[RUN, KINGS],
                     hands=[["4C", "9C", "KC", "JK", "QS", "9D"]] + others,
                     opened=["earlier", "earlier", "earlier", None])
    steps = [({"type": "lay_off", "meld": 0, "card": "4C"}, CardLaidOff(0, 0, "4C", "low")),
             ({"type": "lay_off", "meld": 1, "card": "KC"}, CardLaidOff(0, 1, "KC", None)),
             ({"type": "lay_off", "meld": 0, "card": "9C"}, CardLaidOff(0, 0, "9C", "high")),
             ({"type": "lay_off", "meld": 0, "card": "JK=10C"},
              CardLaidOff(0, 0, "JK=10C", "high"))]
    for action, event in steps:
        events = decide(state, 0, action, rng())
        assert events == [event]
        state = fold(events, state)
        assert state.round.turn == 0 and state.round.phase == "play"
    rnd = state.round
    assert rnd.melds[0].cards == ("4C", "5C", "6C", "7C", "8C", "9C", "JK=10C")
    assert sorted(rnd.melds[1].cards) == ["KC", "KD", "KH", "KS"]
    assert sorted(rnd.hands[0]) == ["9D", "QS"]
    state = play(state, 0, {"type": "discard", "card": "QS"})
    assert (state.round.turn, state.round.phase, state.round.hands[0]) == (1, "draw", ("9D",))


# R6.3: the buyer gets the card and a penalty card; the turn stays with the active seat.

def test_r6_3_a_buyer_gets_the_card_and_the_penalty_card_and_no_turn():
    state = play(offered(), 2, {"type": "buy"})
    events = decide(state, 1, {"type": "pass"}, rng())
    assert events == [BuyPassed(seat=1), OfferClosed(card="9H", buyer=2),
                      CardBought(seat=2, card="9H", penalty="5H"),
                      OfferOpened(card="8D", barred=2)]
    state = fold(events, state)
    rnd = state.round
    assert rnd.turn == 0 and rnd.phase == "buying" and rnd.turns == 1
    assert len(rnd.hands[2]) == 12 and "9H" in rnd.hands[2] and "5H" in rnd.hands[2]
    assert rnd.stock[0] == "6H" and rnd.discard == ("8D",)
    for action in ({"type": "discard", "card": "9H"}, {"type": "draw", "from": "stock"}):
        assert refusal(state, 2, action) in {"R6.3", "R2.4"}
    state = play(play(state, 1, {"type": "pass"}), 3, {"type": "pass"})
    rnd = state.round
    assert (rnd.turn, rnd.phase) == (0, "play") and "6H" in rnd.hands[0]
    state = play(state, 0, {"type": "discard", "card": "KC"})
    assert (state.round.turn, state.round.phase) == (1, "draw")  # seat 1, not the buyer


# R7.6 (R5.6): a lay-off or swap that would leave no card to discard is refused, rounds 1-6.

@pytest.mark.parametrize("round_number", [1, 2, 3, 4, 5, 6])
def test_r7_6_a_lay_off_that_would_empty_the_hand_is_refused(round_number):
    state = state_of(round=round_number, phase="play", melds=[RUN], hands=[["4C"]] + OTHER_HANDS,
                     opened=["earlier", "earlier", None, None])
    assert refusal(state, 0, {"type": "lay_off", "meld": 0, "card": "4C"}) in {"R7.6", "R5.6"}
    assert legal_actions(state, 0) == [{"type": "discard", "card": "4C"}]
    events = decide(state, 0, {"type": "discard", "card": "4C"}, rng())
    assert events == [CardDiscarded(seat=0, card="4C"), RoundEnded(winner=0, reason="went_out")]


def test_r7_6_a_joker_swap_that_would_empty_the_hand_is_refused():
    swap = {"type": "swap_joker", "meld": 0, "card": "6C", "joker_to": {"meld": 0, "as": "9C"}}
    state = state_of(phase="play", melds=[RUN_WITH_JOKER], hands=[["6C"]] + OTHER_HANDS,
                     opened=["earlier", "earlier", None, None])
    assert refusal(state, 0, swap) in {"R7.6", "R5.6"}
    assert state.round.melds[0].cards == ("5C", "JK=6C", "7C", "8C")
    kept = state_of(phase="play", melds=[RUN_WITH_JOKER], hands=[["6C", "QD"]] + OTHER_HANDS,
                    opened=["earlier", "earlier", None, None])
    after = play(kept, 0, swap)
    assert after.round.melds[0].cards == ("5C", "6C", "7C", "8C", "JK=9C")
    assert after.round.hands[0] == ("QD",)


# R8.1: no lay-off phase in round 7.

@pytest.mark.parametrize("opened", ["earlier", None])
def test_r8_1_a_lay_off_in_round_7_is_refused(opened):
    hand = ["3D", "4D", "5D", "6D", "9C", "10C", "JC", "QC", "5S", "6S", "7S", "4C"]
    state = state_of(round=7, phase="play", melds=[RUN], hands=[hand] + OTHER_HANDS,
                     opened=[opened, "earlier", None, None])
    assert refusal(state, 0, {"type": "lay_off", "meld": 0, "card": "4C"}) == "R8.1"
    assert {a["type"] for a in legal_actions(state, 0)} <= {"open", "discard"}
    assert state.round.melds[0].cards == ("5C", "6C", "7C", "8C")


# R8.3: in round 7 a seat that does not go out draws and discards; buying works as in §6.

def test_r8_3_round_7_a_seat_that_cannot_go_out_draws_and_discards_and_others_buy():
    hand = ["3D", "4D", "5D", "6D", "9C", "10C", "JC", "QC", "5S", "6S", "7S", "4C"]
    others = [h + extra for h, extra in zip(OTHER_HANDS, (["AH", "AS"], ["AC", "AD"],
                                                          ["5C", "5D"]))]
    state = state_of(round=7, hands=[hand] + others, stock=["5H", "6H", "7H"])
    events = decide(state, 0, {"type": "draw", "from": "stock"}, rng())
    assert events == [StockChosen(seat=0), OfferOpened(card="9H", barred=None)]
    state = fold(events, state)
    events = decide(state, 1, {"type": "buy"}, rng())
    assert events == [BuyRequested(seat=1), OfferClosed(card="9H", buyer=1),
                      CardBought(seat=1, card="9H", penalty="5H"),
                      OfferOpened(card="8D", barred=1)]
    state = play(play(fold(events, state), 2, {"type": "pass"}), 3, {"type": "pass"})
    rnd = state.round
    assert [len(h) for h in rnd.hands] == [13, 14, 12, 12]
    assert (rnd.turn, rnd.phase) == (0, "play") and "6H" in rnd.hands[0]
    assert not [a for a in legal_actions(state, 0) if a["type"] == "open"]
    events = decide(state, 0, {"type": "discard", "card": "4C"}, rng())
    assert events == [CardDiscarded(seat=0, card="4C")]
    rnd = fold(events, state).round
    assert (rnd.turn, rnd.phase, rnd.discard) == (1, "draw", ("8D", "4C"))
    assert len(rnd.hands[0]) == 12


# R9.2: a round that ends without a winner scores every hand.

def test_r9_2_a_round_ending_without_a_winner_scores_every_hand():
    state = state_of(phase="play", profile={"max_turns_per_round": 3}, turns_this_round=3)
    events = decide(state, 0, {"type": "discard", "card": "KC"}, rng())
    assert events == [CardDiscarded(seat=0, card="KC"), RoundEnded(winner=None, reason="turn_cap")]
    state = fold(events, state)
    assert state.status == "scoring" and state.round.winner is None
    hand_points = tuple(sum(map(card_points, hand)) for hand in state.round.hands)
    assert hand_points == (62, 68, 72, 73)  # R9.1 values: nobody scores 0
    events = decide(state, None, {"type": "score_round"}, rng())
    assert events[0] == RoundScored(round=1, scores=(62, 68, 72, 73), totals=(62, 68, 72, 73))
    after = fold(events, state)
    assert after.totals == (62, 68, 72, 73) and after.round_scores == ((62, 68, 72, 73),)
    assert after.status == "playing" and after.round.number == 2
    assert awaiting(after).turn == (after.round.dealer + 1) % 4
