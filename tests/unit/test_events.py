"""Events: one frozen dataclass per fact, a versioned JSON form, upcasters on read."""
import dataclasses
import json
import random

import pytest

from domain import events as ev
from domain import lobby
from domain import events_variants as evv
from domain.events import event_from_dict, event_to_dict
from domain.simulation import play_game

SAMPLES = [
    ev.GameCreated(profile={"players": 4}, seats=4, first_dealer=2, seed=7),
    ev.PositionLoaded(position={"round": 1, "hands": [["2C"]]}),
    ev.RoundDealt(round=1, dealer=2, deck=("2C", "JK")),
    ev.StockChosen(seat=0), ev.OfferOpened(card="9H", barred=None), ev.BuyRequested(seat=1),
    ev.BuyPassed(seat=2), ev.OfferClosed(card="9H", buyer=1),
    ev.CardBought(seat=1, card="9H", penalty="5H"),
    ev.CardDrawn(seat=0, source="stock", card="6H"),
    ev.ContractOpened(seat=0, melds=(("7H", "7H", "7C"), ("KC", "KD", "JK"))),
    ev.CardLaidOff(seat=0, meld=1, card="JK=9S", end="high"),
    ev.JokerSwapped(seat=0, meld=2, card="6C", joker_to=3, joker_card="JK", joker_end=None),
    ev.CardDiscarded(seat=2, card="4D"),
    ev.StockRebuilt(stock=("2C", "3C"), discard=("4C",)),
    ev.RoundEnded(winner=None, reason="no_card"),
    ev.RoundScored(round=1, scores=(0, 5, 10, 15), totals=(0, 5, 10, 15)),
    ev.GameEnded(winners=(0, 2), totals=(10, 20, 10, 30)),
    ev.ClockSet(turn_s=60, offer_s=15, timeouts_before_takeover=2, takeover_level="basic"),
    ev.TurnTimedOut(seat=1), ev.SeatTakenOver(seat=1, level="basic", reason="timeouts"),
    ev.SeatReclaimed(seat=1), ev.GameAborted(reason="admin"),
    lobby.SeatsOpened(levels=(None, "basic", "strong", None), dealer=3, auto_start=True),
    lobby.SeatJoined(seat=1, name="Ann"), lobby.GameStarted(by="host"), lobby.LobbyExpired(),
    evv.ShanghaiCalled(seat=0, card="9H"), evv.ClaimOpened(card="9H", discarder=0),
    evv.ClaimRequested(seat=2, meld=0, card="9H", end="high"), evv.ClaimPassed(seat=1),
    evv.ClaimClosed(card="9H", claimer=2),
    evv.CardClaimed(seat=2, meld=0, card="9H", end="high", discarder=0, given="4C"),
    evv.PenaltyCardTaken(seat=3, card="AD"),
    evv.DeckShuffled(round=1, dealer=2, deck=("2C", "JK")),
    evv.DeckCut(seat=1, count=44, lifted=42, exact=False),
]


def test_every_event_type_has_a_sample():
    assert {type(e).__name__ for e in SAMPLES} == set(ev.EVENT_TYPES)


@pytest.mark.parametrize("event", SAMPLES, ids=lambda e: type(e).__name__)
def test_event_round_trips_through_json(event):
    raw = json.loads(json.dumps(event_to_dict(event)))
    assert event_from_dict(raw) == event


def test_serialized_form_names_type_schema_and_data():
    assert event_to_dict(ev.CardDiscarded(seat=2, card="4D")) == {
        "type": "CardDiscarded", "schema": 1, "data": {"seat": 2, "card": "4D"}}


def test_events_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        ev.CardDiscarded(seat=2, card="4D").card = "5D"


def test_upcaster_turns_an_old_schema_into_the_current_one(monkeypatch):
    monkeypatch.setattr(ev.CardDiscarded, "SCHEMA", 2)

    def v1_to_v2(data):  # pretend schema 1 called the seat "player"
        return {"seat": data.pop("player"), "card": data["card"]}

    monkeypatch.setitem(ev.UPCASTERS, ("CardDiscarded", 1), v1_to_v2)
    old = {"type": "CardDiscarded", "schema": 1, "data": {"player": 3, "card": "QS"}}
    assert event_from_dict(old) == ev.CardDiscarded(seat=3, card="QS")


def test_a_fake_v0_form_is_upcast_in_steps(monkeypatch):
    monkeypatch.setitem(ev.UPCASTERS, ("BuyPassed", 0), lambda d: {"seat": d["who"]})
    assert event_from_dict({"type": "BuyPassed", "schema": 0, "data": {"who": 1}}) == \
        ev.BuyPassed(seat=1)


@pytest.mark.parametrize("raw, problem", [
    ({"type": "Nope", "schema": 1, "data": {}}, "unknown event type"),
    ({"type": "BuyPassed", "schema": 9, "data": {"seat": 1}}, "newer"),
    ({"type": "BuyPassed", "schema": -1, "data": {"seat": 1}}, "no upcaster"),
])
def test_unreadable_events_raise_value_error(raw, problem):
    with pytest.raises(ValueError, match=problem):
        event_from_dict(raw)


def test_a_whole_game_round_trips():
    game = play_game(("basic",) * 4, random.Random(3))
    stored = json.loads(json.dumps([event_to_dict(e) for e in game.events]))
    assert tuple(event_from_dict(raw) for raw in stored) == game.events
