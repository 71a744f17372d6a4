"""Seat control and the clock's system actions (domain.control, docs/clock.md): turn timeouts,
takeover after consecutive timeouts, reclaim, resignation, abort; their fold and refusals."""
import dataclasses

import pytest

from domain import awaiting, bot_level, fold, legal_actions, public_view, redact
from domain.events import ClockSet, SeatTakenOver, TurnTimedOut, event_to_dict
from tests.unit.domain_fixtures import play, refusal, rng, state_of
from domain import decide

CLOCK = ClockSet(turn_s=1, offer_s=1, timeouts_before_takeover=2, takeover_level="strong")


def clocked(**fields):
    """A position (seat 0 to draw) with a clock of two timeouts before takeover."""
    return fold([CLOCK], state_of(**fields))


def timed_out(state, seat):
    return fold(decide(state, None, {"type": "time_out", "seat": seat}, rng()), state)


def turn(state, seat):
    """`seat` draws the discard top and discards another card of its hand."""
    state = play(state, seat, {"type": "draw", "from": "discard"})
    card = next(c for c in state.round.hands[seat] if c != state.round.taken_from_discard)
    return play(state, seat, {"type": "discard", "card": card})


def test_a_clock_is_folded_and_shown_publicly():
    state = clocked()
    assert state.clock.turn_s == 1 and state.clock.takeover_level == "strong"
    view = public_view(state)
    assert view["clock"] == {"turn_s": 1, "offer_s": 1, "timeouts_before_takeover": 2,
                             "takeover_level": "strong"}
    assert view["taken_over"] == [None] * 4 and view["timeouts"] == [0] * 4


def test_a_first_timeout_hands_the_rest_of_the_turn_to_the_bot_without_takeover():
    events = decide(clocked(), None, {"type": "time_out", "seat": 0}, rng())
    assert events == [TurnTimedOut(seat=0)]
    state = fold(events, clocked())
    assert state.timeouts[0] == 1 and state.timed_out == 0
    assert bot_level(state, 0) == "strong" and bot_level(state, 1) is None


def test_the_bot_discard_ends_the_timed_out_turn_and_keeps_the_count():
    state = turn(timed_out(clocked(), 0), 0)
    assert state.timed_out is None and state.timeouts[0] == 1
    assert bot_level(state, 0) is None and awaiting(state).turn == 1


def test_the_second_consecutive_timeout_takes_the_seat_over():
    state = turn(timed_out(clocked(), 0), 0)
    for seat in (1, 2, 3):
        state = turn(state, seat)
    events = decide(state, None, {"type": "time_out", "seat": 0}, rng())
    assert events == [TurnTimedOut(seat=0),
                      SeatTakenOver(seat=0, level="strong", reason="timeouts")]
    after = fold(events, state)
    assert bot_level(after, 0) == "strong" and after.taken_over[0].reason == "timeouts"


def test_a_human_action_resets_the_count():
    state = turn(timed_out(clocked(), 0), 0)
    for seat in (1, 2, 3):
        state = turn(state, seat)
    assert state.timeouts[0] == 1
    state = play(state, 0, {"type": "draw", "from": "discard"})   # the human acts itself
    assert state.timeouts[0] == 0


def test_a_silent_pass_at_the_offer_deadline_neither_counts_nor_resets():
    # seat 1 timed out once before (its bot's discard ended that turn)
    state = dataclasses.replace(fold([TurnTimedOut(seat=1)], clocked()), timed_out=None)
    offered = play(state, 0, {"type": "draw", "from": "stock"})
    closed = fold(decide(offered, None, {"type": "close_offer"}, rng()), offered)
    assert closed.timeouts == (0, 1, 0, 0)


@pytest.mark.parametrize("action, rule", [
    ({"type": "time_out", "seat": 1}, "T2"),      # not seat 1's turn
    ({"type": "time_out", "seat": 7}, "R1.1"),
])
def test_a_timeout_off_turn_is_refused(action, rule):
    with pytest.raises(Exception) as caught:
        decide(clocked(), None, action, rng())
    assert caught.value.rule == rule


def test_a_timeout_needs_a_clock_and_a_seat_not_already_played_by_a_bot():
    with pytest.raises(Exception) as caught:
        decide(state_of(), None, {"type": "time_out", "seat": 0}, rng())
    assert caught.value.rule == "T2"
    with pytest.raises(Exception) as caught:
        decide(timed_out(clocked(), 0), None, {"type": "time_out", "seat": 0}, rng())
    assert caught.value.rule == "T2"


def test_reclaim_gives_the_seat_back_and_resets_the_count():
    state = fold([SeatTakenOver(seat=2, level="basic", reason="timeouts")], clocked())
    assert bot_level(state, 2) == "basic"
    back = play(state, 2, {"type": "reclaim"})
    assert bot_level(back, 2) is None and back.timeouts[2] == 0
    assert refusal(back, 2, {"type": "reclaim"}) == "T3"


def test_a_resignation_is_final():
    state = play(clocked(), 1, {"type": "resign"})
    assert state.taken_over[1].reason == "resigned" and bot_level(state, 1) == "strong"
    assert refusal(state, 1, {"type": "reclaim"}) == "T3"
    assert refusal(state, 1, {"type": "resign"}) == "T4"


def test_an_aborted_game_takes_nothing_more():
    state = fold(decide(clocked(), None, {"type": "abort"}, rng()), clocked())
    assert state.status == "aborted" and awaiting(state).seats == ()
    assert legal_actions(state, 0) == []
    assert refusal(state, 0, {"type": "draw", "from": "stock"}) == "T1"
    assert refusal(state, None, {"type": "abort"}) == "T1"
    assert refusal(state, 1, {"type": "resign"}) == "T1"


def test_control_events_hide_nothing():
    for event in (CLOCK, TurnTimedOut(seat=0),
                  SeatTakenOver(seat=0, level="basic", reason="timeouts")):
        raw = event_to_dict(event)
        assert redact(raw, 1) == raw and redact(raw, None) == raw


@pytest.mark.parametrize("status", ["playing", "scoring", "finished", "aborted", "waiting",
                                    "expired"])
def test_decide_skips_the_status_guards_exactly_where_they_cannot_raise(status):
    """decide calls require_not_aborted and require_started only outside decide._IN_PLAY: a
    change to either guard that makes it raise in play must change that set too."""
    from domain.control import require_not_aborted
    from domain.decide import _IN_PLAY
    from domain.errors import RuleViolation
    from domain.lobby import require_started
    state = dataclasses.replace(state_of(), status=status)
    raised = []
    for guard in (require_not_aborted, require_started):
        try:
            guard(state)
        except RuleViolation:
            raised.append(guard.__name__)
    assert (not raised) == (status in _IN_PLAY), raised
