"""Properties over random deals and random legal play (hypothesis), to the end of the game.

After every command: 107 cards conserved (R1.4), every meld valid (R3), folding the first k
events gives the state at step k, export/import of the position is lossless, and a refused
action changes nothing.
"""
import random
import re
from collections import Counter

import pytest

from hypothesis import HealthCheck, given, settings, strategies as st

from domain import (
    RuleProfile, RuleViolation, awaiting, decide, export_position, fold, full_deck,
    legal_actions, make_meld, start_from_position,
)
from domain.cards import physical_card
from domain.state import PLAYING
from tests.unit.domain_fixtures import random_play

DECK = Counter(full_deck())
REFUSED_PROBES = ({"type": "discard", "card": "AS"}, {"type": "draw", "from": "discard"},
                  {"type": "buy"}, {"type": "lay_off", "meld": 0, "card": "JK=2C"})


def cards_on_table(state):
    rnd = state.round
    cards = Counter(rnd.stock) + Counter(rnd.discard)
    for hand in rnd.hands:
        cards.update(hand)
    for meld in rnd.melds:
        cards.update(physical_card(entry) for entry in meld.cards)
    return cards


def check_invariants(state):
    assert cards_on_table(state) == DECK
    for meld in state.round.melds:
        assert make_meld(meld.owner, meld.cards) == meld


def legal_step(state):
    """The awaiting seat's first legal action and its events, with a freshly seeded rng."""
    seat = awaiting(state).seats[0]
    action = legal_actions(state, seat)[0]
    events = decide(state, seat, action, random.Random(1))
    return seat, action, events, fold(events, state)


def check_refusals_change_nothing(state):
    """Every probe not listed as legal is refused with a rule id, and afterwards the same state
    still takes a legal action to the same events and the same folded state (no hidden mutation
    of the state or of any cache it shares)."""
    seat, action, events, after = legal_step(state)
    position = export_position(state)
    for probe_seat in range(4):
        legal = legal_actions(state, probe_seat)
        for probe in REFUSED_PROBES:
            if probe in legal:
                continue
            with pytest.raises(RuleViolation) as refused:
                decide(state, probe_seat, probe, random.Random(2))
            assert re.fullmatch(r"R\d+\.\d+", refused.value.rule), (probe, refused.value.rule)
    assert export_position(state) == position
    assert legal_step(state) == (seat, action, events, after)


def next_command(state, rng):
    if state.status != PLAYING:
        return None, {"type": "score_round"}
    if rng.random() < 0.05 and state.round.offer is not None:
        return None, {"type": "close_offer"}
    seat = awaiting(state).seats[0]
    return seat, rng.choice(legal_actions(state, seat))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), max_turns=st.integers(8, 60))
def test_random_legal_play_keeps_every_invariant(seed, max_turns):
    rng = random.Random(seed)
    profile = RuleProfile.from_json({"max_turns_per_round": max_turns})

    def after_step(state):
        check_invariants(state)
        if state.status == PLAYING and rng.random() < 0.1:
            assert fold(start_from_position(export_position(state))) == state
            check_refusals_change_nothing(state)
    events, state, steps = random_play(profile, 4, rng, next_command, after_step)
    assert len(state.round_scores) == 7 and state.winners
    for count, at_step in rng.sample(steps, 10):
        assert fold(events[:count]) == at_step
