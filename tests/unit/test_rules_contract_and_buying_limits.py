"""Rules without a case of their own elsewhere: R4.1 (one contract for all), R4.6 (opening is
never compulsory), R6.6 (no limit on purchases per round)."""
from domain import awaiting, legal_actions, seat_view
from domain.contracts import CONTRACTS

from domain_fixtures import OTHER_HANDS, play, state_of

# Seat 0 holds two groups (R2.1 round 1: two groups) and has drawn: it could open now.
CAN_OPEN = ["7C", "7D", "7H", "9C", "9D", "9S", "2C", "3D", "KC", "QD", "5S"]


def test_r4_1_every_seat_attempts_the_same_contract_in_a_round():
    state = state_of(round=3)
    contracts = {tuple(seat_view(state, seat)["contract"]) for seat in range(4)}
    assert contracts == {CONTRACTS[3]}


def test_r4_6_a_seat_that_could_open_may_discard_instead():
    state = state_of(phase="play", hands=[CAN_OPEN] + OTHER_HANDS)
    types = {action["type"] for action in legal_actions(state, 0)}
    assert {"open", "discard"} <= types
    after = play(state, 0, {"type": "discard", "card": "5S"})
    assert after.round.opened[0] is None and after.round.turn == 1


def test_r6_6_one_seat_may_buy_on_consecutive_turns_of_a_round():
    state = state_of(stock=["5H", "6H", "7S", "8S", "4C", "4D"], discard=["8D", "9H"])
    for active in (0, 1):  # seat 2 buys on seat 0's turn, then on seat 1's turn
        state = play(state, active, {"type": "draw", "from": "stock"})
        if active == 0:
            state = play(state, 1, {"type": "pass"})
        state = play(state, 2, {"type": "buy"})
        while state.round.offer is not None:  # the chain goes on: everyone passes (R6.5)
            seat = awaiting(state).seats[0]
            state = play(state, seat, {"type": "pass"})
        state = play(state, active, {"type": "discard", "card": state.round.hands[active][0]})
    assert len(state.round.hands[2]) == 10 + 2 * 2  # two purchases: card + penalty card each
