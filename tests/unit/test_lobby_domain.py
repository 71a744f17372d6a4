"""domain.lobby: open seats, joins, start, expiry, and no play before the deal (L1-L3)."""
import random

import pytest

from domain import RuleProfile, awaiting, bot_level, decide, fold, public_view, start_game
from domain.errors import RuleViolation
from domain.lobby import GameStarted, LobbyExpired, SeatJoined, open_lobby, open_seats


def lobby(levels=(None, "basic", "strong", None), auto_start=False):
    return fold(open_lobby(start_game(RuleProfile(), 4, random.Random(3)), levels, auto_start))


def act(state, action, seed=0):
    return fold(decide(state, None, action, random.Random(seed)), state)


def test_a_lobby_waits_with_no_card_dealt():
    state = lobby()
    assert state.status == "waiting" and state.round is None
    assert awaiting(state).seats == () and open_seats(state) == (1, 2)
    assert public_view(state)["lobby"]["open"] == [None, "basic", "strong", None]


def test_joins_fill_the_first_open_seat_then_refuse_l2():
    state = lobby()
    events = decide(state, None, {"type": "join", "name": "Ann"}, random.Random(0))
    assert events == [SeatJoined(seat=1, name="Ann")]
    state = act(act(state, {"type": "join", "name": "Ann"}), {"type": "join", "name": "Bo"})
    assert state.lobby.joined == (None, "Ann", "Bo", None) and open_seats(state) == ()
    with pytest.raises(RuleViolation) as refused:
        decide(state, None, {"type": "join", "name": "Cy"}, random.Random(0))
    assert refused.value.rule == "L2"


def test_start_deals_round_one_and_hands_open_seats_to_their_bots():
    state = act(lobby(), {"type": "join", "name": "Ann"})
    events = decide(state, None, {"type": "start"}, random.Random(5))
    assert events[0] == GameStarted(by="host") and type(events[1]).__name__ == "RoundDealt"
    assert events[1].dealer == state.lobby.dealer
    state = fold(events, state)
    assert state.status == "playing" and state.round.number == 1
    assert [bot_level(state, seat) for seat in range(4)] == [None, None, "strong", None]
    with pytest.raises(RuleViolation) as refused:
        decide(state, None, {"type": "join", "name": "Late"}, random.Random(0))
    assert refused.value.rule == "L1"


def test_auto_start_comes_with_the_last_join():
    state = act(lobby(auto_start=True), {"type": "join", "name": "Ann"})
    events = decide(state, None, {"type": "join", "name": "Bo"}, random.Random(1))
    assert [type(e).__name__ for e in events] == ["SeatJoined", "GameStarted", "RoundDealt"]
    assert events[1].by == "auto"


def test_no_play_before_the_deal_and_nothing_after_expiry():
    state = lobby()
    with pytest.raises(RuleViolation) as refused:
        decide(state, 0, {"type": "draw", "from": "stock"}, random.Random(0))
    assert refused.value.rule == "L3"
    for system in ({"type": "score_round"}, {"type": "close_offer"}):
        with pytest.raises(RuleViolation):
            decide(state, None, system, random.Random(0))
    assert decide(state, None, {"type": "expire"}, random.Random(0)) == [LobbyExpired()]
    expired = act(state, {"type": "expire"})
    assert expired.status == "expired" and awaiting(expired).status == "expired"
    for action in ({"type": "join", "name": "A"}, {"type": "start"}, {"type": "expire"},
                   {"type": "abort"}):
        with pytest.raises(RuleViolation) as refused:
            decide(expired, None, action, random.Random(0))
        assert refused.value.rule == "L1"


def test_a_waiting_game_may_be_aborted():
    state = act(lobby(), {"type": "abort"})
    assert state.status == "aborted"


def test_open_lobby_needs_an_open_seat():
    with pytest.raises(ValueError):
        open_lobby(start_game(RuleProfile(), 4, random.Random(3)), (None,) * 4)
