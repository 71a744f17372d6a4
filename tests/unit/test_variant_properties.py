"""Properties of every preset (R11.20) at 3-8 players, over random legal play to the end.

After every command: the profile's deck is conserved (R1.4, R11.3), every meld is valid under
the profile's meld rules (R3, R11.5, R11.13-R11.15), folding is deterministic, folding the
first k events gives the state at step k, export/import of a position is lossless, and a
refused action changes nothing.
"""
import random
import re
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from domain import (
    RuleViolation, awaiting, decide, export_position, fold, full_deck, legal_actions,
    make_meld, start_from_position, start_game,
)
from domain.cards import physical_card
from domain.profile import PRESETS, resolve
from domain.state import PLAYING
from tests.unit.domain_fixtures import random_play

# A Progressive-style table (README): runs of three and wild deuces (R11.5, R11.15, R11.8).
PROGRESSIVE = {"contracts": [["group", "group"], ["group", {"kind": "run", "min": 3}], [{"kind": "run", "min": 3}, {"kind": "run", "min": 3}], ["group", "group", "group"], ["group", "group", {"kind": "run", "min": 3}], ["group", {"kind": "run", "min": 3}, {"kind": "run", "min": 3}], [{"kind": "run", "min": 3}, {"kind": "run", "min": 3}, {"kind": "run", "min": 3}]], "deal_sizes": [7, 7, 7, 10, 10, 10, 10], "wild_twos": True, "buying_from_round": 3}
PROFILES = [{"preset": name} for name in sorted(PRESETS)] + [PROGRESSIVE]
PROBES = ({"type": "discard", "card": "AS"}, {"type": "draw", "from": "discard"},
          {"type": "buy"}, {"type": "pass"}, {"type": "claim", "meld": 0},
          {"type": "cut", "count": 5}, {"type": "lay_off", "meld": 0, "card": "JK=2C"})


def check_invariants(state, deck):
    rnd = state.round
    cards = Counter(rnd.stock) + Counter(rnd.discard)
    for hand in rnd.hands:
        cards.update(hand)
    for meld in rnd.melds:
        cards.update(physical_card(entry) for entry in meld.cards)
        assert make_meld(meld.owner, meld.cards, state.profile.meld_rules) == meld
    assert cards == deck


def check_refusals_change_nothing(state):
    """Every probe a seat may not take is refused citing a rule, and the state still plays
    its first legal action to the same events afterwards."""
    seat = awaiting(state).seats[0]
    action = legal_actions(state, seat)[0]
    before = decide(state, seat, action, random.Random(1))
    position = export_position(state)
    for probe_seat in range(state.seats):
        legal = legal_actions(state, probe_seat)
        for probe in PROBES:
            if probe in legal:
                continue
            try:
                events = decide(state, probe_seat, probe, random.Random(2))
            except RuleViolation as refused:
                assert re.fullmatch(r"R\d+(\.\d+)?", refused.rule), (probe, refused.rule)
            else:  # R11.9, R11.18: a pass of a seat that may not answer changes nothing
                assert probe == {"type": "pass"} and events == [], (probe, events)
    assert export_position(state) == position
    assert decide(state, seat, action, random.Random(1)) == before


def next_command(state, rng):
    if state.status != PLAYING:
        return None, {"type": "score_round"}
    rnd = state.round
    if rng.random() < 0.05 and rnd.offer is not None:
        return None, {"type": "close_offer"}
    if rng.random() < 0.2 and rnd.claim is not None:
        return None, {"type": "close_claim"}
    seat = awaiting(state).seats[0]
    return seat, rng.choice(legal_actions(state, seat))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=st.sampled_from(PROFILES), players=st.integers(3, 8),
       seed=st.integers(0, 2**32 - 1), max_turns=st.integers(6, 30))
def test_every_preset_keeps_every_invariant(options, players, seed, max_turns):
    rng = random.Random(seed)
    profile = resolve({**options, "players": players, "max_turns_per_round": max_turns})
    deck = Counter(full_deck(profile.packs, profile.jokers))

    def after_step(state):
        check_invariants(state, deck)
        if state.status == PLAYING and rng.random() < 0.1:
            assert fold(start_from_position(export_position(state))) == state
            check_refusals_change_nothing(state)
    events, state, steps = random_play(profile, players, rng, next_command, after_step)
    assert len(state.round_scores) >= profile.rounds and state.winners
    assert fold(events) == state  # deterministic
    for count, at_step in rng.sample(steps, 8):
        assert fold(events[:count]) == at_step


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_first_event_records_every_option(preset):
    profile = resolve(preset)
    created = start_game(profile, profile.players, random.Random(3))[0]
    assert set(created.profile) == set(resolve("standard").to_json())
    assert resolve(created.profile) == profile


def test_variant_events_hide_their_cards_from_other_seats():
    from domain.events import event_to_dict
    from domain.events_variants import CardClaimed, DeckShuffled, PenaltyCardTaken
    from domain.views import redact
    claimed = event_to_dict(CardClaimed(seat=2, meld=0, card="9H", end="high", discarder=0,
                                        given="4C"))
    assert [redact(claimed, s)["data"]["given"] for s in (0, 1, 2, 3, None)] == \
        ["4C", None, "4C", None, None]
    penalty = event_to_dict(PenaltyCardTaken(seat=3, card="AD"))
    assert [redact(penalty, s)["data"]["card"] for s in (3, 0, None)] == ["AD", None, None]
    shuffled = redact(event_to_dict(DeckShuffled(round=1, dealer=2, deck=("2C", "JK"))), 1)
    assert shuffled["data"] == {"round": 1, "dealer": 2, "deck": None, "deck_size": 2}
