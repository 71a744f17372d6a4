"""Whole games of bots end normally: seven rounds scored, winners named."""
import gc
import random

import pytest

from domain import choose_action
from domain.simulation import BATCH_GC_THRESHOLD, batch_gc, play_game


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_basic_bots_finish_a_game(seed):
    game = play_game(("basic",) * 4, random.Random(seed))
    assert game.state.status == "finished"
    assert len(game.state.round_scores) == 7 and len(game.turns_per_round) == 7
    assert game.winners and min(game.totals) == game.totals[game.winners[0]]


def test_mixed_levels_finish_a_game():
    game = play_game(("random", "basic", "random", "basic"), random.Random(9))
    assert len(game.state.round_scores) == 7


def test_the_same_seed_plays_the_same_game():
    assert play_game(("basic",) * 4, random.Random(5)).events == \
        play_game(("basic",) * 4, random.Random(5)).events


def test_unknown_level_is_refused():
    with pytest.raises(ValueError):
        choose_action("grandmaster", {"legal_actions": [{"type": "pass"}]}, random.Random(0))


def young_collections_of_a_game(seed: int) -> int:
    """How many young-generation collections one four-basic-bot game triggers."""
    before = gc.get_stats()[0]["collections"]
    play_game(("basic",) * 4, random.Random(seed))
    return gc.get_stats()[0]["collections"] - before


def test_batch_gc_tunes_the_collector_for_the_batch_only_and_collects_less_often():
    before = gc.get_threshold()
    young_collections_of_a_game(4)  # warm: the first game also fills the process's caches
    plain = young_collections_of_a_game(4)
    with batch_gc():
        assert gc.get_threshold() == (BATCH_GC_THRESHOLD, *before[1:])
        assert gc.get_freeze_count() > 0      # what was alive at entry is no longer scanned
        tuned = young_collections_of_a_game(4)
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0
    # The point of it: a game leaves a few thousand objects alive at a time, several young
    # collections at the default threshold (700), none under BATCH_GC_THRESHOLD.
    assert tuned == 0 < plain


def test_batch_gc_restores_the_collector_when_a_game_fails():
    before = gc.get_threshold()
    with pytest.raises(ValueError), batch_gc():
        play_game(("grandmaster",) * 4, random.Random(0))
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0
