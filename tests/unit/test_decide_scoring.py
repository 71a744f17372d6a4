"""decide: start_game, score_round and the end of the game (R2.2, R2.3, R9)."""
import random

import pytest

from domain import RuleProfile, decide, fold, start_game
from domain.events import GameCreated, GameEnded, RoundDealt, RoundScored

from domain_fixtures import play, refusal, rng, state_of

ENDING = {"phase": "play", "dealer": 0, "turn": 1, "opened": [None, "earlier", None, None],
          "melds": [{"owner": 1, "cards": ["9C", "9D", "9H"]}],
          "hands": [["KC", "KD"], ["5D"], ["AH", "JK"], ["3C"]]}


def ended(**fields):
    state = state_of(**{**ENDING, **fields})
    return play(state, 1, {"type": "discard", "card": "5D"})


def test_start_game_records_profile_dealer_and_deck():
    events = start_game(RuleProfile(), 4, random.Random(5), seed=5)
    created, dealt = events
    assert isinstance(created, GameCreated) and created.seed == 5
    assert isinstance(dealt, RoundDealt) and dealt.dealer == created.first_dealer
    assert sorted(dealt.deck) == sorted(fold(events).round.stock + sum(
        fold(events).round.hands, ()) + fold(events).round.discard)


def test_start_game_is_reproducible_from_the_rng():
    assert start_game(RuleProfile(), 4, random.Random(9)) == \
        start_game(RuleProfile(), 4, random.Random(9))


def test_start_game_needs_four_seats():
    with pytest.raises(ValueError):
        start_game(RuleProfile(), 3, random.Random(1))


def test_score_round_scores_hands_and_deals_the_next_round_to_the_left():
    state = ended()
    assert state.status == "scoring"
    events = decide(state, None, {"type": "score_round"}, rng())
    assert events[0] == RoundScored(round=1, scores=(20, 0, 30, 3), totals=(20, 0, 30, 3))
    assert isinstance(events[1], RoundDealt) and (events[1].round, events[1].dealer) == (2, 1)
    after = fold(events, state)
    assert after.status == "playing" and after.round.turn == 2
    assert after.round_scores == ((20, 0, 30, 3),)


def test_score_round_runs_once():
    state = ended()
    state = play(state, None, {"type": "score_round"})
    assert refusal(state, None, {"type": "score_round"}) == "R9"


def test_the_last_round_ends_the_game():
    state = ended(round=7, melds=[{"owner": 1, "cards": ["9C", "10C", "JC", "QC"]}])
    finished = play(state, None, {"type": "score_round"})
    assert (finished.status, finished.winners, finished.totals) == ("finished", (1,), (20, 0, 30, 3))


def test_ties_are_shared():
    state = ended(round=7, scores=[0, 20, 0, 100],
                  melds=[{"owner": 1, "cards": ["9C", "10C", "JC", "QC"]}])
    events = decide(state, None, {"type": "score_round"}, rng())
    assert events[-1] == GameEnded(winners=(0, 1), totals=(20, 20, 30, 103))
