"""The in-process loop's shortcuts (issue 12, bench/README.md "third pass") equal what they
replace, on every state of seeded bot games under several presets (R6.2, R6.9, R11.18,
R11.19)."""
from __future__ import annotations

import random

import pytest

from domain.awaiting import _awaiting, awaiting, first_to_act
from domain.fold import fold
from domain.profile import resolve
from domain.simulation import play_game


@pytest.mark.parametrize("preset,seed", [("standard", 3), ("shanghai", 4), ("liverpool", 5)])
def test_first_to_act_is_the_first_awaited_seat(preset, seed):
    """`first_to_act` gives `awaiting(state).seats[0]`, or raises IndexError when no seat
    must act (scoring, the end), at every event of a game: offers, claims, cuts included."""
    game = play_game(("basic", "strong", "random", "basic"), random.Random(seed),
                     resolve(preset))
    state, checked = None, 0
    for event in game.events:
        state = fold((event,), state)
        seats = awaiting(state).seats
        if seats:
            assert first_to_act(state) == seats[0]
            checked += 1
        else:
            with pytest.raises(IndexError):
                first_to_act(state)
    assert checked > 500


def test_awaiting_answers_each_state_as_if_asked_first():
    """`awaiting` keeps its last two answers by the state's identity: asked about the states of
    a game in an order that mixes repeats (hits), older states (misses) and equal states folded
    twice (equal, not identical), it answers each as the uncached computation does."""
    game = play_game(("basic", "strong", "random", "basic"), random.Random(6))
    states, state = [], None
    for event in game.events:
        state = fold((event,), state)
        states.append(state)
    twins = [fold(game.events[:n]) for n in (40, 400, len(game.events))]
    order = random.Random(1).choices(states + twins, k=3000) + states[::-1]
    changed = 0
    for previous, asked in zip(order, order[1:]):
        assert awaiting(asked) == _awaiting(asked)
        changed += _awaiting(previous) != _awaiting(asked)
    assert changed > 1000  # the answers differ from one ask to the next: a stale one would show
