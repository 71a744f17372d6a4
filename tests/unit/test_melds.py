"""Groups, runs, lay-offs and joker swaps (R3.1-R3.5, R7.2-R7.5, R7.7)."""

import pytest

from domain.errors import MalformedAction, RuleViolation
from domain.profile.options import MeldRules
from domain.layoffs import joker_swaps, lay_off, layoff_targets, layoffs_for_hand, swap_joker
from domain.melds import Meld, group_rank, make_meld, run_span

FULL_SPADES = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS"]


def refused(rule, fn, *args, **kwargs):
    with pytest.raises(RuleViolation) as info:
        fn(*args, **kwargs)
    assert info.value.rule == rule, info.value
    assert info.value.message
    return info.value


# -- R3.1 groups ------------------------------------------------------------------------------

def test_r3_1_three_cards_of_one_rank_are_a_group():
    meld = make_meld(2, ["9C", "9D", "9H"])
    assert meld == Meld(2, "group", ("9C", "9D", "9H"))
    assert group_rank(meld) == 9


def test_r3_1_a_group_may_hold_both_copies_of_a_card():
    assert make_meld(0, ["7H", "7H", "7C"]).kind == "group"


def test_r3_1_a_group_may_be_longer_than_three():
    assert make_meld(0, ["KC", "KD", "KH", "KS", "KS"]).kind == "group"


def test_r3_1_a_two_card_group_is_no_group():
    refused("R3.1", make_meld, 0, ["7H", "7C"])


# -- R3.2 runs --------------------------------------------------------------------------------

def test_r3_2_four_consecutive_cards_of_one_suit_are_a_run():
    meld = make_meld(1, ["4S", "5S", "6S", "7S"])
    assert meld.kind == "run" and run_span(meld) == ("S", 4, 7)


def test_r3_2_a_run_needs_four_cards():
    refused("R3.2", make_meld, 0, ["4S", "5S", "6S"])


def test_r3_2_a_run_is_one_suit():
    refused("R3.2", make_meld, 0, ["5D", "6D", "7H", "8D"])


def test_r3_2_cards_of_two_suits_and_two_ranks_are_refused_for_both_kinds():
    # Three cards meant as a group, one of another rank: the reason names both kinds, not the
    # run's minimum length.
    refusal = refused("R3.2", make_meld, 0, ["7H", "7S", "8D"])
    assert "7H 7S 8D is no meld" in refusal.message and "group all one rank" in refusal.message


def test_r3_2_the_same_reason_under_a_profile_with_wild_deuces():
    rules = MeldRules(run_min=3, wild_twos=True)
    refusal = refused("R3.2", make_meld, 0, ["7H", "7S", "8D"], rules)
    assert "7H 7S 8D is no meld" in refusal.message


def test_r3_2_a_run_is_written_low_to_high_without_gaps():
    refused("R3.2", make_meld, 0, ["7S", "6S", "5S", "4S"])
    refused("R3.2", make_meld, 0, ["2S", "5S", "6S", "7S"])


def test_r3_2_ace_low_and_ace_high_runs():
    assert run_span(make_meld(0, ["AH", "2H", "3H", "4H"])) == ("H", 1, 4)
    assert run_span(make_meld(0, ["JH", "QH", "KH", "AH"])) == ("H", 11, 14)


def test_r3_2_ace_is_never_in_the_middle_of_a_run():
    refused("R3.2", make_meld, 0, ["KH", "AH", "2H", "3H"])
    refused("R3.2", make_meld, 0, ["QH", "KH", "AH", "2H"])


def test_r3_2_the_longest_run_is_ace_to_ace_fourteen_cards():
    meld = make_meld(0, FULL_SPADES + ["AS"])
    assert len(meld.cards) == 14 and run_span(meld) == ("S", 1, 14)


def test_r3_2_a_run_holds_each_rank_once():
    refused("R3.2", make_meld, 0, ["4S", "5S", "5S", "6S", "7S"])


def test_r1_3_a_deuce_is_natural_not_wild():
    refused("R3.2", make_meld, 0, ["2S", "5S", "6S", "7S"])


# -- R3.3 jokers ------------------------------------------------------------------------------

def test_r3_3_a_joker_stands_for_a_missing_card_in_a_run():
    assert make_meld(0, ["5C", "JK=6C", "7C", "8C"]).cards[1] == "JK=6C"


def test_r3_3_any_number_of_jokers_per_meld():
    assert make_meld(0, ["9D", "JK=10D", "JK=JD", "QD"]).kind == "run"
    assert make_meld(0, ["5H", "JK=6H", "JK=7H", "JK=8H"]).kind == "run"
    assert make_meld(0, ["10H", "JK", "JK"]).kind == "group"


def test_r3_3_a_joker_may_stand_for_the_high_ace():
    assert run_span(make_meld(0, ["JH", "QH", "KH", "JK=AH"])) == ("H", 11, 14)
    assert run_span(make_meld(0, ["JK=AH", "2H", "3H", "4H"])) == ("H", 1, 4)


def test_r3_3_every_meld_holds_a_natural():
    refused("R3.3", make_meld, 0, ["JK", "JK", "JK"])
    refused("R3.3", make_meld, 0, ["JK=5H", "JK=6H", "JK=7H", "JK=8H"])


def test_r3_3_a_joker_in_a_run_must_be_declared_where_it_sits():
    refused("R3.3", make_meld, 0, ["5C", "JK=9C", "7C", "8C"])
    refused("R3.3", make_meld, 0, ["5C", "JK", "7C", "8C"])
    with pytest.raises(RuleViolation) as info:
        make_meld(0, ["3H", "JK=4H", "6H", "7H"])
    assert info.value.rule in ("R3.2", "R3.3")


def test_r3_3_a_joker_in_a_group_is_written_bare():
    refused("R3.3", make_meld, 0, ["10H", "10S", "JK=10D"])


def test_r1_2_a_meld_of_unknown_strings_is_malformed():
    with pytest.raises(MalformedAction) as info:
        make_meld(0, ["5C", "6C", "7C", "8X"])
    assert info.value.rule == "R1.2"


# -- R7.2 lay-offs onto groups ----------------------------------------------------------------

def test_r7_2_a_card_of_the_rank_joins_a_group():
    group = make_meld(0, ["8C", "8D", "8H"])
    assert lay_off(group, "8S").cards == ("8C", "8D", "8H", "8S")
    assert group.cards == ("8C", "8D", "8H")  # melds are immutable


def test_r7_2_a_joker_joins_a_group_as_its_rank():
    assert lay_off(make_meld(3, ["10H", "10S", "10D"]), "JK").cards[-1] == "JK"


def test_r7_2_another_rank_does_not_join_a_group():
    refused("R7.2", lay_off, make_meld(0, ["8C", "8D", "8H"]), "9S")
    refused("R7.2", lay_off, make_meld(0, ["8C", "8D", "8H"]), "JK=8S")


# -- R7.3 / R7.4 lay-offs onto runs -----------------------------------------------------------

def test_r7_3_a_run_grows_at_either_end():
    run = make_meld(0, ["4S", "5S", "6S", "7S"])
    assert lay_off(run, "8S").cards == ("4S", "5S", "6S", "7S", "8S")
    assert lay_off(run, "3S").cards == ("3S", "4S", "5S", "6S", "7S")


def test_r7_3_only_the_card_just_beyond_an_end_in_the_suit():
    run = make_meld(0, ["4S", "5S", "6S", "7S"])
    refused("R7.3", lay_off, run, "9S")
    refused("R7.3", lay_off, run, "8H")


def test_r7_3_a_joker_declared_just_beyond_an_end():
    run = make_meld(0, ["4S", "5S", "6S", "7S"])
    assert lay_off(run, "JK=8S").cards[-1] == "JK=8S"
    assert lay_off(run, "JK=3S").cards[0] == "JK=3S"
    refused("R7.3", lay_off, run, "JK=10S")


def test_r7_3_nothing_goes_beyond_an_ace():
    run = make_meld(2, ["JH", "QH", "KH", "AH"])
    refused("R7.3", lay_off, run, "2H")
    assert lay_off(run, "10H").cards[0] == "10H"
    low = make_meld(2, ["AH", "2H", "3H", "4H"])
    refused("R7.3", lay_off, low, "KH")


def test_r7_3_an_ace_to_ace_run_is_full_at_fourteen():
    full = make_meld(1, FULL_SPADES)
    full = lay_off(full, "AS", end="high")
    assert len(full.cards) == 14
    refused("R7.3", lay_off, full, "JK=2S")
    refused("R7.3", lay_off, full, "AS")


def test_r7_4_an_ace_onto_two_to_king_names_its_end():
    run = make_meld(1, FULL_SPADES[1:])
    refused("R7.4", lay_off, run, "AS")
    assert lay_off(run, "AS", end="low").cards[0] == "AS"
    assert lay_off(run, "AS", end="high").cards[-1] == "AS"
    assert lay_off(run, "JK=AS", end="high").cards[-1] == "JK=AS"


def test_r7_4_a_joker_onto_a_run_names_its_card():
    refused("R7.4", lay_off, make_meld(0, ["4S", "5S", "6S", "7S"]), "JK")


def test_r7_4_the_named_end_must_fit():
    refused("R7.3", lay_off, make_meld(0, ["4S", "5S", "6S", "7S"]), "8S", end="low")


def test_r3_4_a_natural_cannot_join_beside_its_joker():
    run = make_meld(1, ["5H", "JK=6H", "7H", "8H"])
    refused("R3.4", lay_off, run, "6H")
    assert lay_off(run, "9H").cards == ("5H", "JK=6H", "7H", "8H", "9H")


def test_r7_7_a_lay_off_may_make_two_runs_touch_and_they_stay_separate():
    low = make_meld(0, ["3H", "4H", "5H", "6H"])
    high = make_meld(0, ["8H", "9H", "10H", "JH"])
    grown = lay_off(low, "7H")
    assert grown.cards == ("3H", "4H", "5H", "6H", "7H")
    assert high.cards == ("8H", "9H", "10H", "JH")
    assert lay_off(grown, "8H").cards[-1] == "8H"  # a second 8H (other pack) may still extend it


# -- R7.5 joker swaps -------------------------------------------------------------------------

def test_r7_5_the_exact_natural_replaces_a_run_joker():
    run = make_meld(1, ["5C", "JK=6C", "7C", "8C"])
    assert swap_joker(run, "6C").cards == ("5C", "6C", "7C", "8C")


def test_r7_5_a_swap_needs_the_exact_card():
    run = make_meld(1, ["5C", "JK=6C", "7C", "8C"])
    refused("R7.5", swap_joker, run, "6D")
    refused("R7.5", swap_joker, run, "JK")


def test_r7_5_a_joker_in_a_group_is_never_taken():
    refused("R7.5", swap_joker, make_meld(2, ["10H", "10S", "JK"]), "10D")


def test_r7_5_the_released_joker_is_laid_off_with_a_declared_card():
    run = swap_joker(make_meld(1, ["5C", "JK=6C", "7C", "8C"]), "6C")
    assert lay_off(run, "JK=9C").cards[-1] == "JK=9C"  # any meld, this run's end included
    refused("R7.3", lay_off, make_meld(0, ["4S", "5S", "6S", "7S"]), "JK=JS")


def test_r7_5_swaps_available_to_a_hand():
    melds = [make_meld(0, ["8C", "8D", "JK"]), make_meld(1, ["5C", "JK=6C", "7C", "JK=8C"])]
    assert joker_swaps(melds, ("6C", "8C", "3D")) == [(1, "6C"), (1, "8C")]


# -- helpers for legal actions ----------------------------------------------------------------

def test_r7_2_r7_3_layoff_targets_list_what_fits():
    assert layoff_targets(make_meld(0, ["8C", "8D", "8H"])) == (
        ("8C", None), ("8D", None), ("8H", None), ("8S", None), ("JK", None))
    assert layoff_targets(make_meld(0, ["JH", "QH", "KH", "AH"])) == (("10H", None), ("JK=10H", None))
    assert layoff_targets(make_meld(0, FULL_SPADES[1:])) == (
        ("AS", "low"), ("AS", "high"), ("JK=AS", "low"), ("JK=AS", "high"))


def test_r7_2_r7_3_layoffs_for_a_hand_fit_every_listed_meld():
    melds = [make_meld(0, ["8C", "8D", "8H"]), make_meld(0, ["4S", "5S", "6S", "7S"])]
    options = layoffs_for_hand(melds, ("8S", "3S", "QD", "JK"))
    assert options == [(0, "8S", None), (0, "JK", None), (1, "3S", None), (1, "8S", None),
                       (1, "JK=3S", None), (1, "JK=8S", None)]
    for index, entry, end in options:
        lay_off(melds[index], entry, end)  # each one is accepted
