"""Bots under the §11 profiles: the final round of runs is played towards going out (R8.2), so
big tables end their last round with a winner instead of at the turn cap (R10.4), and the
strong bot plans under Shanghai's melds."""
import random

import pytest

from domain.bots import choose_action
from domain.bots.final_runs import final_need
from domain.legal import DRAW_DISCARD, DRAW_STOCK
from domain.profile import resolve
from domain.simulation import play_game, rounds_ended

STANDARD_RULES = dict(high_only=False, wild_twos=False, per_run=None)


def test_a_hand_of_three_runs_needs_nothing():
    hand = tuple(sorted("3H 4H 5H 6H 9S 10S JS QS 2D 3D 4D JK".split()))
    assert final_need(hand, (4, 4, 4), **STANDARD_RULES) == 0


def test_a_card_outside_the_runs_and_a_hole_each_count():
    hand = tuple(sorted("3H 4H 5H 6H 9S 10S JS QS 2D 3D 5D KC".split()))
    assert final_need(hand, (4, 4, 4), **STANDARD_RULES) == 2  # the 4D hole and the KC


def test_the_profile_rules_change_the_need():
    # An ace-low run (R11.14) and two jokers in one run (R11.13) are not Shanghai's.
    low_ace = tuple(sorted("AH 2H 3H 4H 9S 10S JS QS 5D 6D 7D 8D".split()))
    assert final_need(low_ace, (4, 4, 4), **STANDARD_RULES) == 0
    assert final_need(low_ace, (4, 4, 4), high_only=True, wild_twos=False, per_run=1) > 0
    two_jokers = tuple(sorted("3H JK JK 6H 9S 10S JS QS 5D 6D 7D 8D".split()))
    assert final_need(two_jokers, (4, 4, 4), **STANDARD_RULES) == 0
    assert final_need(two_jokers, (4, 4, 4), high_only=False, wild_twos=False, per_run=1) > 0
    deuces = tuple(sorted("3H 2C 2S 6H 9S 10S JS QS 5D 6D 7D 8D".split()))
    assert final_need(deuces, (4, 4, 4), high_only=False, wild_twos=True, per_run=None) == 0


@pytest.mark.parametrize("preset", ["standard", "shanghai", "eight_deals"])
def test_eight_basic_bots_go_out_in_the_final_round(preset):
    profile = resolve({"preset": preset, "players": 8})
    for seed in (1, 2):
        game = play_game(("basic",) * 8, random.Random(seed), profile)
        assert game.state.status == "finished"
        assert rounds_ended(game.events)[-1].reason == "went_out"


def test_strong_plans_its_draws_under_shanghai():
    # Round 1 (two groups) of Shanghai: strong takes the discard that makes its first group
    # with the planning of the standard bots; basic's simple policy takes it only to open.
    view = {
        "seat": 0, "round": 1, "profile": resolve("shanghai").to_json(),
        "hand": sorted("5C 5D 9S 9H KC 2D 3S 7C JD QH 4H".split()),
        "discard_top": "9D", "opened": [None] * 4, "melds": [], "contract": ["group", "group"],
        "hand_sizes": [11] * 4, "turns_this_round": 0,
        "legal_actions": [DRAW_DISCARD, DRAW_STOCK],
    }
    assert choose_action("strong", view, random.Random(0)) == DRAW_DISCARD
    assert choose_action("basic", view, random.Random(0)) == DRAW_STOCK
