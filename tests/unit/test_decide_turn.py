"""decide: the active seat's draw and discard (R2.4, R5.1-R5.7, R10.1-R10.4)."""
import pytest

from domain import MalformedAction, decide, fold
from domain.events import CardDiscarded, CardDrawn, RoundEnded, StockChosen

from domain_fixtures import OTHER_HANDS, play, refusal, rng, state_of


def test_taking_the_discard_gives_the_top_card_and_no_offer():
    state = state_of()
    events = decide(state, 0, {"type": "draw", "from": "discard"}, rng())
    assert events == [CardDrawn(seat=0, source="discard", card="9H")]
    after = fold(events, state)
    assert after.round.phase == "play" and after.round.taken_from_discard == "9H"


def test_only_the_active_seat_draws():
    assert refusal(state_of(), 1, {"type": "draw", "from": "stock"}) == "R2.4"


def test_a_second_draw_is_refused():
    state = play(state_of(), 0, {"type": "draw", "from": "discard"})
    assert refusal(state, 0, {"type": "draw", "from": "stock"}) == "R5.1"


def test_the_active_seat_waits_while_its_offer_is_open():
    state = play(state_of(), 0, {"type": "draw", "from": "stock"})
    assert state.round.phase == "buying"
    assert refusal(state, 0, {"type": "discard", "card": "2C"}) == "R6.9"


def test_empty_discard_pile_cannot_be_taken():
    state = state_of(discard=[], fill="stock")
    assert refusal(state, 0, {"type": "draw", "from": "discard"}) == "R5.1"


def test_stock_draw_with_empty_pile_takes_the_stock_top_at_once():
    events = decide(state_of(discard=[]), 0, {"type": "draw", "from": "stock"}, rng())
    assert events == [StockChosen(seat=0), CardDrawn(seat=0, source="stock", card="5H")]


def test_choosing_an_empty_stock_rebuilds_nothing_until_a_card_is_needed():
    state = state_of(stock=[], fill="discard")
    events = decide(state, 0, {"type": "draw", "from": "stock"}, rng())
    assert [type(e).__name__ for e in events] == ["StockChosen", "OfferOpened"]  # R10.3


def test_the_active_draw_rebuilds_an_empty_stock():
    state = play(state_of(stock=[], fill="discard"), 0, {"type": "draw", "from": "stock"})
    for seat in (1, 2, 3):
        state = play(state, seat, {"type": "pass"})
    rnd = state.round
    assert rnd.phase == "play" and rnd.discard == ("9H",)  # R10.1: the top card stays
    assert len(rnd.stock) == 107 - 41 - 1 and len(rnd.hands[0]) == 11


def test_discard_passes_the_turn_left():
    state = play(state_of(phase="play"), 0, {"type": "discard", "card": "KC"})
    assert (state.round.turn, state.round.phase, state.round.turns) == (1, "draw", 2)
    assert state.round.discard[-1] == "KC"


def test_discarding_a_card_not_held_is_refused():
    assert refusal(state_of(phase="play"), 0, {"type": "discard", "card": "AS"}) == "R1.4"


def test_discarding_the_last_card_goes_out():
    state = state_of(phase="play", hands=[["KC"]] + OTHER_HANDS)
    events = decide(state, 0, {"type": "discard", "card": "KC"}, rng())
    assert events == [CardDiscarded(seat=0, card="KC"), RoundEnded(winner=0, reason="went_out")]
    assert fold(events, state).status == "scoring"


def test_turn_cap_ends_the_round_without_a_winner():
    state = state_of(phase="play", profile={"max_turns_per_round": 3}, turns_this_round=3)
    events = decide(state, 0, {"type": "discard", "card": "KC"}, rng())
    assert events[-1] == RoundEnded(winner=None, reason="turn_cap")
    assert fold(events, state).round.turns == 3   # the capped discard began no fourth turn


@pytest.mark.parametrize("action", [
    {"type": "draw"}, {"type": "draw", "from": "pile"}, {"type": "discard"},
    {"type": "discard", "card": "11H"}, {"type": "dance"}, "draw",
])
def test_malformed_actions_are_refused(action):
    with pytest.raises(MalformedAction):
        decide(state_of(phase="play"), 0, action, rng())


def test_a_player_cannot_run_system_actions():
    with pytest.raises(MalformedAction):
        decide(state_of(), 0, {"type": "score_round"}, rng())


def test_decide_never_mutates_the_state():
    state = state_of()
    before = fold([], state)
    decide(state, 0, {"type": "draw", "from": "stock"}, rng())
    assert state == before
