"""fold/evolve: deterministic, snapshot-friendly, and fast (DESIGN.md §2)."""
import random
import time

import pytest

from domain import RuleProfile, evolve, fold, start_game
from domain.events import GameCreated, RoundDealt
from domain.cards import full_deck
from domain.simulation import play_game


@pytest.fixture(scope="module")
def game():
    return play_game(("basic",) * 4, random.Random(11))


def test_deal_follows_r2_3_one_card_at_a_time_from_the_dealers_left():
    deck = tuple(full_deck())
    state = fold([GameCreated(profile={}, seats=4, first_dealer=2, seed=None),
                  RoundDealt(round=1, dealer=2, deck=deck)])
    rnd = state.round
    assert rnd.turn == 3  # R2.4: dealer's left plays first
    assert sorted(rnd.hands[3]) == sorted(deck[0:40:4])
    assert sorted(rnd.hands[0]) == sorted(deck[1:40:4])
    assert rnd.discard == (deck[40],) and rnd.stock == deck[41:]
    assert [len(h) for h in rnd.hands] == [10, 10, 10, 10] and len(rnd.stock) == 66


def test_round_4_deals_twelve_each():
    rng = random.Random(1)
    events = start_game(RuleProfile(), 4, rng)
    deck = events[1].deck
    state = fold([events[0], RoundDealt(round=4, dealer=0, deck=deck)])
    assert [len(h) for h in state.round.hands] == [12] * 4 and len(state.round.stock) == 58


def test_folding_onto_a_snapshot_equals_folding_from_the_start(game):
    for k in (1, 2, 50, len(game.events) // 2, len(game.events) - 1):
        snapshot = fold(game.events[:k])
        assert fold(game.events[k:], snapshot) == game.state


def test_evolve_one_by_one_equals_fold(game):
    state = None
    for event in game.events[:400]:
        state = evolve(state, event)
    assert state == fold(game.events[:400])


def test_fold_leaves_the_snapshot_unchanged(game):
    snapshot = fold(game.events[:100])
    copy = fold(game.events[:100])
    fold(game.events[100:], snapshot)
    assert snapshot == copy


def test_fold_is_deterministic(game):
    assert fold(game.events) == fold(game.events) == game.state


def test_a_finished_game_folds_in_milliseconds(game):
    started = time.perf_counter()
    fold(game.events)
    assert time.perf_counter() - started < 0.1  # bench/fold_bench.py measures the real figure
