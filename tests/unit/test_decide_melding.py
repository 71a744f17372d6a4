"""decide: opening (R4, R8.2), lay-offs (R7.1-R7.4) and joker swaps (R7.5)."""
import pytest

from domain import decide, fold
from domain.events import CardLaidOff, ContractOpened, JokerSwapped, RoundEnded

from domain_fixtures import OTHER_HANDS, refusal, rng, state_of

RUN_WITH_JOKER = {"owner": 1, "cards": ["5C", "JK=6C", "7C", "8C"]}
KINGS = {"owner": 1, "cards": ["KD", "KS", "KH"]}


def opened_table(hand, **fields):
    return state_of(phase="play", melds=[RUN_WITH_JOKER, KINGS], hands=[hand] + OTHER_HANDS,
                    opened=["earlier", "earlier", None, None], **fields)


def test_opening_lays_the_contract_and_marks_the_seat():
    hand = ["7S", "7S", "7C", "KC", "KD", "KS", "2D", "5S", "9C", "10H", "QH"]
    state = state_of(phase="play", hands=[hand] + OTHER_HANDS)
    action = {"type": "open", "melds": [["7S", "7S", "7C"], ["KC", "KD", "KS"]]}
    events = decide(state, 0, action, rng())
    assert events == [ContractOpened(seat=0, melds=(("7S", "7S", "7C"), ("KC", "KD", "KS")))]
    after = fold(events, state)
    assert after.round.opened[0] == "this_turn" and len(after.round.hands[0]) == 5
    assert [m.kind for m in after.round.melds] == ["group", "group"]


def test_an_opening_that_would_empty_the_hand_is_refused():
    state = state_of(phase="play", hands=[["7S", "7S", "7C", "KC", "KD", "KS"]] + OTHER_HANDS)
    action = {"type": "open", "melds": [["7S", "7S", "7C"], ["KC", "KD", "KS"]]}
    assert refusal(state, 0, action) == "R5.6"


def test_opening_before_drawing_is_refused():
    assert refusal(state_of(), 0, {"type": "open", "melds": []}) == "R5.1"


def test_round_7_opening_goes_out():
    hand = ["3D", "4D", "5D", "6D", "9C", "10C", "JC", "QC", "5S", "6S", "7S", "8S", "9S"]
    state = state_of(round=7, phase="play", hands=[hand] + OTHER_HANDS)
    melds = [hand[0:4], hand[4:8], hand[8:]]
    events = decide(state, 0, {"type": "open", "melds": melds}, rng())
    assert events[-1] == RoundEnded(winner=0, reason="went_out")


def test_lay_off_records_the_end_used():
    state = opened_table(["4C", "QD"])
    events = decide(state, 0, {"type": "lay_off", "meld": 0, "card": "4C"}, rng())
    assert events == [CardLaidOff(seat=0, meld=0, card="4C", end="low")]
    assert fold(events, state).round.melds[0].cards == ("4C", "5C", "JK=6C", "7C", "8C")


def test_a_joker_is_laid_off_declared():
    state = opened_table(["JK", "QD"])
    events = decide(state, 0, {"type": "lay_off", "meld": 0, "card": "JK=9C"}, rng())
    assert fold(events, state).round.melds[0].cards[-1] == "JK=9C"


@pytest.mark.parametrize("action, rule", [
    ({"type": "lay_off", "meld": 0, "card": "9D"}, "R7.3"),
    ({"type": "lay_off", "meld": 1, "card": "QD"}, "R7.2"),
    ({"type": "lay_off", "meld": 0, "card": "AS"}, "R1.4"),
])
def test_lay_offs_that_do_not_fit_or_are_not_held_are_refused(action, rule):
    assert refusal(opened_table(["9D", "QD", "2C"]), 0, action) == rule


def test_lay_off_needs_an_opening_on_an_earlier_turn():
    def table(opened):
        return state_of(phase="play", melds=[RUN_WITH_JOKER, KINGS],
                        hands=[["4C", "QD"]] + OTHER_HANDS, opened=[opened, "earlier", None, None])
    lay = {"type": "lay_off", "meld": 0, "card": "4C"}
    assert refusal(table("this_turn"), 0, lay) == "R4.5"
    assert refusal(table(None), 0, lay) == "R7.1"


def test_swap_places_the_joker_in_the_same_action():
    state = opened_table(["6C", "QD"])
    action = {"type": "swap_joker", "meld": 0, "card": "6C", "joker_to": {"meld": 1, "as": None}}
    events = decide(state, 0, action, rng())
    assert events == [JokerSwapped(seat=0, meld=0, card="6C", joker_to=1, joker_card="JK",
                                   joker_end=None)]
    melds = fold(events, state).round.melds
    assert melds[0].cards == ("5C", "6C", "7C", "8C") and melds[1].cards[-1] == "JK"


def test_a_swap_whose_joker_cannot_be_placed_is_refused_whole():
    state = opened_table(["6C", "QD"])
    action = {"type": "swap_joker", "meld": 0, "card": "6C",
              "joker_to": {"meld": 0, "as": "2C"}}
    assert refusal(state, 0, action) == "R7.5"


def test_a_group_joker_is_never_taken():
    state = state_of(phase="play", melds=[{"owner": 1, "cards": ["KD", "KS", "JK"]}],
                     hands=[["KH", "QD"]] + OTHER_HANDS, opened=["earlier", "earlier", None, None])
    action = {"type": "swap_joker", "meld": 0, "card": "KH", "joker_to": {"meld": 0, "as": None}}
    assert refusal(state, 0, action) == "R7.5"
