"""Contracts, deal sizes and the opening check (R1.1, R1.4, R2.1, R3.5, R4.2, R4.3, R8.2)."""

import pytest

from domain.cards import full_deck
from domain.contracts import (
    CONTRACTS, DEAL_SIZES, OPENING_SIZES, check_opening, check_runs_apart, describe_contract,
)
from domain.errors import MalformedAction, RuleViolation
from domain.melds import make_meld


def refused(rule, round_, melds, hand):
    with pytest.raises(RuleViolation) as info:
        check_opening(round_, melds, tuple(hand))
    assert info.value.rule == rule, info.value
    return info.value


def flat(melds, *extra):
    return [c if not c.startswith("JK=") else "JK" for m in melds for c in m] + list(extra)


# -- R2.1 -------------------------------------------------------------------------------------

def test_r2_1_seven_contracts():
    assert CONTRACTS == {
        1: ("group", "group"), 2: ("group", "run"), 3: ("run", "run"),
        4: ("group", "group", "group"), 5: ("group", "group", "run"),
        6: ("group", "run", "run"), 7: ("run", "run", "run"),
    }
    assert describe_contract(6) == "one group and two runs"


def test_r2_1_deal_sizes_and_cards_laid_at_opening():
    assert DEAL_SIZES == {1: 10, 2: 10, 3: 10, 4: 12, 5: 12, 6: 12, 7: 12}
    assert {r: OPENING_SIZES[r] for r in range(1, 7)} == {1: 6, 2: 7, 3: 8, 4: 9, 5: 10, 6: 11}


def test_r1_1_r2_3_four_hands_of_the_deal_size_leave_66_then_58_in_stock():
    deck = len(full_deck())
    assert deck - 4 * DEAL_SIZES[1] - 1 == 66
    assert deck - 4 * DEAL_SIZES[4] - 1 == 58


# -- R4.2 -------------------------------------------------------------------------------------

def test_r4_2_the_contract_opens():
    melds = check_opening(2, [["9C", "9D", "9H"], ["JH", "QH", "KH", "AH"]],
                          ("9C", "9D", "9H", "JH", "QH", "KH", "AH", "2D", "5C"), owner=3)
    assert [m.kind for m in melds] == ["group", "run"] and melds[0].owner == 3


def test_r4_2_melds_may_be_listed_in_any_order():
    hand = ("9C", "9D", "9H", "4S", "5S", "6S", "7S", "2D")
    check_opening(2, [["4S", "5S", "6S", "7S"], ["9C", "9D", "9H"]], hand)


def test_r4_2_wrong_contract_shape():
    refused("R4.2", 2, [["9C", "9D", "9H"], ["KC", "KD", "KS"]],
            ["9C", "9D", "9H", "KC", "KD", "KS"])


def test_r4_2_no_extra_meld():
    melds = [["7C", "7D", "7H"], ["KC", "KD", "KS"], ["9C", "9D", "9H"]]
    refused("R4.2", 1, melds, flat(melds))


def test_r4_2_no_missing_meld():
    refused("R4.2", 1, [["7C", "7D", "7H"]], ["7C", "7D", "7H", "2C"])


def test_r4_2_groups_are_exactly_three_at_opening():
    melds = [["7C", "7D", "7H", "7S"], ["KC", "KD", "KS"]]
    refused("R4.2", 1, melds, flat(melds, "2D"))


def test_r4_2_runs_are_exactly_four_at_opening():
    melds = [["9C", "9D", "9H"], ["4S", "5S", "6S", "7S", "8S"]]
    refused("R4.2", 2, melds, flat(melds, "2D"))


def test_r4_2_round_6_may_use_both_aces_of_a_suit():
    melds = [["9D", "9C", "9H"], ["AS", "2S", "3S", "4S"], ["JS", "QS", "KS", "AS"]]
    assert len(check_opening(6, melds, tuple(flat(melds, "5D", "8C")))) == 3


def test_r3_1_an_invalid_meld_is_refused_with_its_own_rule():
    refused("R3.1", 1, [["7H", "7C"], ["KC", "KD", "KS"]], ["7H", "7C", "KC", "KD", "KS"])
    refused("R3.2", 2, [["9C", "9D", "9H"], ["2S", "5S", "6S", "7S"]],
            ["9C", "9D", "9H", "2S", "5S", "6S", "7S"])


def test_r4_2_input_that_is_not_a_list_of_melds_is_malformed():
    with pytest.raises(MalformedAction):
        check_opening(1, "7C 7D 7H", ("7C",))
    with pytest.raises(MalformedAction):
        check_opening(9, [], ())


# -- R1.4 / R3.5 ------------------------------------------------------------------------------

def test_r1_4_a_player_lays_only_cards_they_hold():
    hand = ["7H", "7H", "7C", "KC", "KD", "KS", "2D"]
    refused("R1.4", 1, [["7H", "7H", "7C"], ["KC", "KD", "KH"]], hand)


def test_r1_4_the_hand_is_a_multiset():
    refused("R1.4", 1, [["7H", "7H", "7C"], ["KC", "KD", "KS"]], ["7H", "7C", "KC", "KD", "KS", "7D"])


def test_r3_5_one_joker_cannot_serve_two_melds():
    hand = ["7D", "7S", "JK", "9S", "9C", "2D"]
    refused("R1.4", 1, [["7D", "7S", "JK"], ["9S", "9C", "JK"]], hand)
    check_opening(1, [["7D", "7S", "JK"], ["9S", "9C", "JK"]], tuple(hand + ["JK"]))


# -- R4.3 -------------------------------------------------------------------------------------

def test_r4_3_contiguous_same_suit_runs_are_refused():
    melds = [["3H", "4H", "5H", "6H"], ["7H", "8H", "9H", "10H"]]
    refused("R4.3", 3, melds, flat(melds))


def test_r4_3_a_rank_gap_makes_two_runs():
    melds = [["3H", "4H", "5H", "6H"], ["8H", "9H", "10H", "JH"]]
    check_opening(3, melds, tuple(flat(melds)))


def test_r4_3_overlapping_runs_use_other_physical_cards():
    melds = [["3H", "4H", "5H", "6H"], ["5H", "6H", "7H", "8H"]]
    check_opening(3, melds, tuple(flat(melds)))
    same = [["3H", "4H", "5H", "6H"], ["3H", "4H", "5H", "6H"]]
    check_opening(3, same, tuple(flat(same)))


def test_r4_3_other_suits_may_touch():
    melds = [["3H", "4H", "5H", "6H"], ["7S", "8S", "9S", "10S"]]
    check_opening(3, melds, tuple(flat(melds)))


def test_r4_3_jokers_count_at_their_declared_ranks():
    keeps_gap = [["3H", "4H", "5H", "6H"], ["JK=8H", "9H", "10H", "JH"]]
    check_opening(3, keeps_gap, tuple(flat(keeps_gap)))
    touches = [["3H", "4H", "5H", "6H"], ["JK=7H", "8H", "9H", "10H"]]
    refused("R4.3", 3, touches, flat(touches))


def test_r4_3_ace_low_is_one_and_ace_high_fourteen():
    apart = [make_meld(0, ["AS", "2S", "3S", "4S"]), make_meld(0, ["JS", "QS", "KS", "AS"])]
    check_runs_apart(apart)
    touching = [make_meld(0, ["AS", "2S", "3S", "4S"]), make_meld(0, ["5S", "6S", "7S", "8S"])]
    with pytest.raises(RuleViolation) as info:
        check_runs_apart(touching)
    assert info.value.rule == "R4.3"
    high = [make_meld(0, ["7S", "8S", "9S", "10S"]), make_meld(0, ["JS", "QS", "KS", "AS"])]
    with pytest.raises(RuleViolation):
        check_runs_apart(high)


# -- R8.2 -------------------------------------------------------------------------------------

FINAL = ["3D", "4D", "5D", "6D", "9C", "10C", "JC", "QC", "5S", "6S", "7S", "8S", "9S"]


def test_r8_2_going_out_with_three_runs_of_the_whole_hand():
    melds = [FINAL[0:4], FINAL[4:8], FINAL[8:]]
    assert len(check_opening(7, melds, tuple(FINAL))) == 3


def test_r8_2_no_card_may_be_left():
    refused("R8.2", 7, [FINAL[0:4], FINAL[4:8], FINAL[8:12]], FINAL)


def test_r8_2_exactly_three_runs_no_group():
    hand = ["3D", "4D", "5D", "6D", "9C", "9D", "9H", "5S", "6S", "7S", "8S", "9S"]
    refused("R8.2", 7, [hand[0:4], hand[4:7], hand[7:]], hand)
    refused("R8.2", 7, [FINAL[0:4], FINAL[4:8]], FINAL)


def test_r8_2_runs_longer_than_four_are_fine_in_round_7():
    hand = ["3D", "4D", "5D", "6D", "7D", "9C", "10C", "JC", "QC", "5S", "6S", "7S", "8S"]
    check_opening(7, [hand[0:5], hand[5:9], hand[9:]], tuple(hand))


def test_r8_2_r4_3_contiguous_runs_are_refused_in_round_7_too():
    hand = ["3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D", "5S", "6S", "7S", "8S", "9S"]
    refused("R4.3", 7, [hand[0:4], hand[4:8], hand[8:]], hand)
