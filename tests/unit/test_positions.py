"""Positions (FORMAT.md): validation, fill, export/import round trip."""
import random

import pytest

from domain import (
    MalformedAction, RuleViolation, UnsupportedProfile, decide, export_position, fold,
    legal_actions, start_from_position,
)

from domain_fixtures import offered, position, state_of


def test_fill_puts_unlisted_cards_under_the_stock_by_default():
    rnd = state_of().round
    assert rnd.stock[:2] == ("5H", "6H") and len(rnd.stock) == 107 - 40 - 2
    assert rnd.discard == ("8D", "9H")


def test_fill_discard_puts_them_under_the_listed_pile():
    rnd = state_of(fill="discard").round
    assert rnd.stock == ("5H", "6H") and rnd.discard[-2:] == ("8D", "9H")


def test_r2_3_the_unlisted_cards_are_shuffled_with_the_rng_under_the_listed_ones():
    """The order of the cards a position leaves out is the stock's order: with the service's
    rng it is shuffled (a newcomer found it in deck order, known to every seat)."""
    unshuffled = state_of().round.stock
    stocks = {fold(start_from_position(position(), random.Random(n))).round.stock
              for n in range(3)}
    assert len(stocks) == 3 and unshuffled not in stocks
    for stock in stocks:
        assert stock[:2] == ("5H", "6H") and sorted(stock) == sorted(unshuffled)


def test_a_fresh_deal_position_is_dealt_by_r2_3():
    state = fold(start_from_position({"deal": {"round": 4, "dealer": 3}}, random.Random(1)))
    assert [len(h) for h in state.round.hands] == [12] * 4 and state.round.turn == 0


@pytest.mark.parametrize("fields, error", [
    ({"hands": [["AS", "AS", "AS"]] + [["2C"], ["3C"], ["4C"]]}, ValueError),  # R1.2: 2 AS
    ({"stock": ["JK", "JK", "JK", "JK"]}, ValueError),
    ({"melds": [{"owner": 0, "cards": ["AS", "2S", "3S"]}]}, RuleViolation),
    ({"discard": ["1H"]}, MalformedAction),
    ({"round": 8}, ValueError),
    ({"hands": [[]] * 3}, ValueError),
    ({"profile": {"jokers": 5}}, UnsupportedProfile),  # R11.3: at most 2 x packs
])
def test_inconsistent_positions_are_refused(fields, error):
    with pytest.raises(error):
        start_from_position(position(**fields))


@pytest.mark.parametrize("phase", ["draw", "play"])
def test_a_dealt_round_with_an_empty_hand_is_refused(phase):
    """A seat with no card went out, which ended the round (R5.6, R5.7): such a position would
    leave the seat to play with no legal action (a worker's deadline job failed on it forever)."""
    hands = position()["hands"]
    with pytest.raises(ValueError, match="R5.6"):
        start_from_position(position(phase=phase, hands=[[]] + hands[1:]))
    with pytest.raises(ValueError, match="R5.6"):
        start_from_position(position(phase=phase, hands=hands[:2] + [[]] + hands[3:]))


def test_export_then_import_is_lossless_mid_round():
    state = state_of()
    rng = random.Random(2)
    for _ in range(25):
        seat = next(s for s in range(4) if legal_actions(state, s))
        state = fold(decide(state, seat, rng.choice(legal_actions(state, seat)), rng), state)
        if state.status != "playing":
            break
        assert fold(start_from_position(export_position(state))) == state


def test_export_of_an_open_offer_keeps_it():
    state = offered()
    exported = export_position(state)
    assert exported["phase"] == "buying" and exported["offer"]["card"] == "9H"
    assert fold(start_from_position(exported)) == state


@pytest.mark.parametrize("bad", [
    {"deal": "x"}, {"deal": {"scores": "abc"}}, {"deal": {"scores": [1, 2]}},
    {"deal": {"scores": [0, 0, -1, 0]}}, {"deal": {"round": True}}, {"deal": {"round": 8}},
    {"deal": {"dealer": 4}},
])
def test_r9_3_a_malformed_deal_position_is_a_value_error_never_a_crash(bad):
    with pytest.raises(ValueError):
        start_from_position(bad)


@pytest.mark.parametrize("change", [
    {"round": None}, {"scores": "abc"}, {"scores": [1, 2]}, {"taken_from_discard": []},
    {"turns_this_round": "a"}, {"offer": 5}, {"melds": [5]}, {"hands": [[1]] * 4},
    {"opened": "x"}, {"round_scores": [[1]]}, {"fill": []},
])
def test_r1_4_a_malformed_position_is_a_value_error_never_a_crash(change):
    fields = {k: v for k, v in position().items() if k != "round"} if change == {"round": None} \
        else {**position(), **change}
    with pytest.raises(ValueError):
        start_from_position(fields)
