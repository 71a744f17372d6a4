"""Views and redaction: hidden information never leaks (DESIGN.md principle 4)."""
import json
import random

import pytest

from domain import event_to_dict, full_view, public_view, redact, seat_view
from domain.simulation import play_game

from domain_fixtures import offered, play, state_of


@pytest.fixture(scope="module")
def game():
    return play_game(("random", "basic", "random", "basic"), random.Random(4))


def test_seat_view_shows_only_its_own_hand():
    state = state_of()
    view = seat_view(state, 2)
    assert sorted(view["hand"]) == sorted(state.round.hands[2])
    assert "hands" not in view and "stock" not in view
    assert view["hand_sizes"] == [10, 10, 10, 10] and view["stock_size"] == len(state.round.stock)
    assert view["legal_actions"] == []  # not seat 2's turn
    assert seat_view(state, 0)["legal_actions"][0] == {"type": "draw", "from": "stock"}


def test_public_view_has_no_hand_and_no_stock_order():
    view = public_view(state_of())
    assert not {"hand", "hands", "stock", "legal_actions", "seat"} & set(view)
    json.dumps(view)


def test_full_view_shows_everything():
    state = state_of()
    view = full_view(state)
    assert view["stock"] == list(state.round.stock) and len(view["hands"]) == 4


def test_offer_view_names_who_must_answer():
    state = offered()
    assert public_view(state)["offer"] == {"card": "9H", "active_seat": 0,
                                           "waiting_for": [1, 2, 3], "buyers": [],
                                           "passed": [], "barred": None}


def test_discard_taken_lists_discard_draws_and_purchases_never_a_penalty_card():
    """Public history: the cards each seat took from the discard pile this round."""
    from domain import decide, fold
    drawn = play(state_of(), 0, {"type": "draw", "from": "discard"})
    assert public_view(drawn)["discard_taken"] == [["9H"], [], [], []]

    on_offer = offered()   # 9H on offer
    assert public_view(on_offer)["discard_taken"] == [[], [], [], []]
    events = decide(on_offer, 1, {"type": "buy"}, random.Random(0))
    (purchase,) = [e for e in events if type(e).__name__ == "CardBought"]
    assert (purchase.card, purchase.penalty) == ("9H", "5H")
    bought = fold(events, on_offer)
    for view in (public_view(bought), seat_view(bought, 1), seat_view(bought, 2),
                 full_view(bought)):
        assert view["discard_taken"] == [[], ["9H"], [], []]


def test_discard_taken_follows_the_events_and_resets_at_each_deal(game):
    from domain import fold

    state, expected = None, None
    for event in game.events:
        state = fold((event,), state)
        data = event_to_dict(event)
        kind, fields = data["type"], data["data"]
        if kind == "RoundDealt":
            expected = [[] for _ in range(4)]
        elif kind == "CardDrawn" and fields["source"] == "discard":
            expected[fields["seat"]].append(fields["card"])
        elif kind == "CardBought":
            expected[fields["seat"]].append(fields["card"])
        if expected is not None:
            assert public_view(state)["discard_taken"] == expected
    assert any(expected)


def hidden_cards_leak(redacted, seat):
    data, kind = redacted["data"], redacted["type"]
    if kind == "GameCreated":
        return data["seed"] is not None
    if kind == "RoundDealt":
        return "deck" in data or (seat is None and data["hand"] is not None)
    if kind == "CardDrawn":
        return data["source"] == "stock" and data["seat"] != seat and data["card"] is not None
    if kind == "CardBought":
        return data["seat"] != seat and data["penalty"] is not None
    if kind == "StockRebuilt":
        return data["stock"] is not None
    return False


@pytest.mark.parametrize("seat", [None, 0, 1, 2, 3])
def test_redacted_events_hide_what_the_seat_may_not_see(game, seat):
    for event in game.events:
        raw = event_to_dict(event)
        redacted = redact(raw, seat)
        assert not hidden_cards_leak(redacted, seat), redacted
        assert raw == event_to_dict(event)  # redact copies, never edits


def test_a_seat_sees_its_own_dealt_hand_and_stock_draws(game):
    dealt = event_to_dict(game.events[1])
    mine = redact(dealt, 1)["data"]
    assert len(mine["hand"]) == 10 and mine["hand_sizes"] == [10] * 4
    assert mine["stock_size"] == 66 and mine["upcard"] == dealt["data"]["deck"][40]
    draw = next(e for e in game.events if type(e).__name__ == "CardDrawn" and e.source == "stock")
    assert redact(event_to_dict(draw), draw.seat)["data"]["card"] == draw.card


def test_position_loaded_hides_other_hands_and_the_stock():
    from domain import start_from_position
    from domain_fixtures import position
    raw = event_to_dict(start_from_position(position())[0])
    seen = redact(raw, 0)["data"]["position"]
    assert seen["hands"][0] is not None and seen["hands"][1:] == [None, None, None]
    assert seen["stock"] is None and seen["stock_size"] == 65


def test_views_of_a_game_not_yet_dealt():
    from domain import RuleProfile, awaiting, fold, start_game
    state = fold(start_game(RuleProfile(), 4, random.Random(1))[:1])
    view = seat_view(state, 0)
    assert (view["round"], view["hand"], view["legal_actions"]) == (None, [], [])
    assert awaiting(state).seats == () and full_view(state)["stock"] == []


def test_lazy_seat_view_reads_like_the_seat_view(game):
    """SeatView (what play_game hands bots) gives the seat view's keys, order and values."""
    from domain import fold
    from domain.legal import legal_actions
    from domain.views import SeatView, card_order

    state = None
    for number, event in enumerate(game.events):
        state = fold((event,), state)
        if number % 97 or state.round is None:
            continue
        for seat in range(4):
            whole = {"seat": seat, **public_view(state),
                     "hand": sorted(state.round.hands[seat], key=card_order),
                     "legal_actions": legal_actions(state, seat)}
            fresh = SeatView(state, seat)   # nothing read on demand yet
            assert "hand" in fresh and len(fresh) == len(whole) and fresh == whole
            lazy = SeatView(state, seat)
            assert lazy["hand"] == whole["hand"]   # one entry read on demand first
            assert list(dict(lazy).items()) == list(whole.items())
            assert list(seat_view(state, seat).items()) == list(whole.items())
            assert lazy["discard_taken"] == public_view(state)["discard_taken"]


def test_lazy_seat_view_holds_no_state_attribute(game):
    """A bot holding a SeatView finds no attribute leading to the state (other hands)."""
    from domain.state import GameState
    from domain.views import SeatView

    view = SeatView(game.state, 0)
    assert not hasattr(view, "__dict__")
    assert not any(isinstance(getattr(view, name), GameState) for name in SeatView.__slots__)
