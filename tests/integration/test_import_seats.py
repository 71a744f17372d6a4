"""An imported record names only seats of its table, each act by a seat the rules let act
(service.import_acts), and each round's end by the seat that went out
(service.import_replay.unfit), over HTTP on a real Redis. The fold applies what an event says: without these checks a BuyPassed of seat 7 at a
table of four, a dealer of 10^6 or a winner holding cards was imported and shown in every view.
"""
import pytest

from tests.integration.api_client import (  # noqa: F401 (fixtures)
    PROBLEM, app, client, game)
from tests.integration.records import finished_record
from tests.integration.test_api_input import assert_problem, assert_unchanged, import_


def first(record: dict, event_type: str, after: int = 0) -> dict:
    """The first event of `event_type` in `record` after version `after`."""
    return next(e for e in record["events"] if e["type"] == event_type and e["version"] > after)


def other_seat(seat: int) -> int:
    return (seat + 1) % 4


def not_asked(record: dict) -> dict:
    """The first BuyPassed, given to the seat whose turn it is (it chose the stock, and an
    offer asks the others: R6.1)."""
    passed = first(record, "BuyPassed")
    chose = [e for e in record["events"] if e["type"] == "StockChosen"
             and e["version"] < passed["version"]][-1]
    passed["data"]["seat"] = chose["data"]["seat"]
    return passed


def out_of_turn(record: dict) -> dict:
    """The second CardDiscarded, given to another seat than the one whose turn it was."""
    discard = first(record, "CardDiscarded", first(record, "CardDiscarded")["version"])
    discard["data"]["seat"] = other_seat(discard["data"]["seat"])
    return discard


def holding_cards(record: dict) -> dict:
    """The first RoundEnded of a seat that went out, given to another seat (cards in hand)."""
    ended = next(e for e in record["events"] if e["type"] == "RoundEnded"
                 and e["data"]["winner"] is not None)
    ended["data"]["winner"] = other_seat(ended["data"]["winner"])
    return ended


def set_field(event_type: str, **fields):
    def change(record: dict) -> dict:
        event = first(record, event_type)
        event["data"].update(fields)
        return event
    return change


def players(count: int):
    """The record's GameCreated with a profile of `count` players (its seats unchanged)."""
    def change(record: dict) -> dict:
        created = first(record, "GameCreated")
        created["data"]["profile"]["players"] = count
        return created
    return change


@pytest.mark.parametrize("change, says", [
    (set_field("RoundDealt", dealer=1_000_000), "names seat 1000000 as its dealer"),
    (set_field("GameCreated", first_dealer=-1), "names seat -1 as its first_dealer"),
    (set_field("BuyPassed", seat=7), "names seat 7 as its seat"),
    (set_field("RoundEnded", winner=9), "names seat 9 as its winner"),
    (not_asked, "is an act the rules refuse there (R6.7"),
    (out_of_turn, "is an act the rules refuse there (R2.4"),
    (holding_cards, "whose hand did not go out (R5.7)"),
    (set_field("RoundEnded", reason="bored"), "for a reason play has not"),
    (set_field("GameCreated", seed="7" * 10_000), "a seed of more than 128 characters"),
    (players(5), "a profile of 5 players at a table of 4 seats (R1.1)"),
    (players(3), "a profile of 3 players at a table of 4 seats (R1.1)"),
], ids=["dealer", "first-dealer", "buy-pass-seat", "winner", "pass-not-asked",
        "discard-out-of-turn", "winner-holding-cards", "end-reason", "seed", "players-5",
        "players-3"])
def test_an_import_naming_a_seat_play_could_not_is_a_422_and_creates_nothing(
        client, game, admin_key, change, says):
    record = finished_record()
    changed = change(record)
    problem = assert_problem(import_(client, admin_key, record), 422)
    assert f"event {changed['version']} ({changed['type']})" in problem["detail"]
    assert says in problem["detail"], problem["detail"]
    assert_unchanged(client, game)


def test_records_of_every_preset_as_played_import(client, admin_key):
    """The checks refuse nothing play makes: a record of each preset, bots of every level."""
    from domain.profile import PRESETS, resolve
    for number, preset in enumerate(PRESETS):
        profile = resolve({"preset": preset, "players": 4})
        levels = tuple(("strong", "basic", "random", "basic", "strong", "basic", "random",
                        "basic")[:profile.players])
        response = import_(client, admin_key, finished_record(number, levels, profile))
        assert response.status_code == 201, (preset, response.get_json())


def test_a_record_beginning_with_a_position_imports(client, admin_key):
    """A game started from a position begins with PositionLoaded, not GameCreated: the checks
    take its seats from the position. The record is a played game whose creation and first
    deal are given as the position of that deal."""
    from domain import event_to_dict
    from tests.integration.records import first_deal_as_position
    from tests.integration.test_api_input import _renumbered
    record = finished_record()
    loaded = first_deal_as_position(record)
    record["events"] = [{"version": 1, **event_to_dict(loaded)}, *record["events"][2:]]
    response = import_(client, admin_key, _renumbered(record))
    assert response.status_code == 201, response.get_json()
    assert client.get(response.headers["Location"]).get_json()["status"] == "finished"
