"""Small builders for domain unit tests: states from FORMAT.md positions, actions played on them."""
import random

import pytest

from domain import RuleViolation, decide, fold, start_from_position, start_game

OTHER_HANDS = [["KC", "KD", "KS", "KH", "2C", "2D", "2S", "2H", "QC", "QD"],
               ["3C", "3D", "3S", "3H", "JC", "JD", "JS", "JH", "10C", "10D"],
               ["QS", "QH", "4D", "4H", "6D", "6H", "7D", "7H", "9D", "10H"]]
SEAT0_HAND = ["2C", "3D", "8S", "KC", "QD", "JH", "10C", "4H", "6S", "9D"]


def position(**fields):
    """A FORMAT.md mid-round position: round 1, dealer 3, seat 0 to draw; `fields` override."""
    table = {"round": 1, "dealer": 3, "turn": 0, "phase": "draw", "taken_from_discard": None,
             "hands": [SEAT0_HAND] + OTHER_HANDS, "melds": [], "opened": [None] * 4,
             "discard": ["8D", "9H"], "stock": ["5H", "6H"], "fill": "stock"}
    table.update(fields)
    return table


def state_of(**fields):
    """The folded state of `position(**fields)`."""
    return fold(start_from_position(position(**fields)))


def rng():
    return random.Random(0)


def play(state, seat, action):
    """The state after ``seat`` plays ``action`` (raises if the engine refuses it)."""
    return fold(decide(state, seat, action, rng()), state)


def refusal(state, seat, action):
    """The rule id of the engine's refusal of ``action`` (fails if it is accepted)."""
    with pytest.raises(RuleViolation) as caught:
        decide(state, seat, action, rng())
    return caught.value.rule


def offered(**fields):
    """Seat 0 chose the stock; the discard top (9H by default) is offered."""
    return play(state_of(**fields), 0, {"type": "draw", "from": "stock"})


def random_play(profile, players, rng, next_command, after_step):
    """A game of `profile` for `players` from a new deal, played to its end by
    `next_command(state, rng) -> (seat, action)`, calling `after_step(state)` after every
    command: (events, final state, [(events so far, state)] at the deal and after each step)."""
    events = start_game(profile, players, rng)
    state = fold(events)
    steps = [(len(events), state)]
    while state.status != "finished":
        seat, action = next_command(state, rng)
        new = decide(state, seat, action, rng)
        events += new
        state = fold(new, state)
        after_step(state)
        steps.append((len(events), state))
    return events, state, steps
