"""Each act of an imported record must be what the rules decide of the action it records
(service.import_acts), over HTTP on a real Redis: the fold applies what an event says, so a
"run" of 8C 8D 9H, a lay-off on a meld it does not fit or a discard of a card not held were
imported (the newcomer tester's findings) and every view of the game showed them."""
import pytest

from tests.integration.api_client import (  # noqa: F401 (fixtures)
    PROBLEM, app, client, game)
from tests.integration.records import finished_record
from tests.integration.test_api_input import assert_problem, assert_unchanged, import_
from tests.integration.test_import_seats import first


def mixed_groups(record: dict) -> dict:
    """The first opening of two groups or more, with a card of each of its first two groups
    traded: neither is a group any more."""
    opened = next(e for e in record["events"] if e["type"] == "ContractOpened"
                  and sum(len(set(card[:-1] for card in meld)) == 1 for meld in
                          e["data"]["melds"]) >= 2 and "JK" not in str(e["data"]["melds"]))
    melds = opened["data"]["melds"]
    groups = [i for i, meld in enumerate(melds) if len(set(c[:-1] for c in meld)) == 1]
    one, two = groups[:2]
    melds[one][-1], melds[two][-1] = melds[two][-1], melds[one][-1]
    return opened


def discard_not_held(record: dict) -> dict:
    """The first discard, of a card of the stock instead (a card its seat does not hold)."""
    from domain import fold
    from service.table_events import event_of
    discard = first(record, "CardDiscarded")
    before = fold([event_of(e) for e in record["events"][:discard["version"] - 1]])
    seat_hand = before.round.hands[discard["data"]["seat"]]
    discard["data"]["card"] = next(c for c in before.round.stock if c not in seat_hand)
    return discard


def laid_elsewhere(record: dict) -> dict:
    """The first lay-off, on another meld of the table than the one it fits."""
    laid = first(record, "CardLaidOff")
    laid["data"]["meld"] = 0 if laid["data"]["meld"] else 1
    return laid


@pytest.mark.parametrize("change, says", [
    (mixed_groups, "is an act the rules refuse there (R"),
    (discard_not_held, "is an act the rules refuse there (R1.4"),
    (laid_elsewhere, "is an act the rules refuse there (R"),
], ids=["open-a-non-meld", "discard-no-card", "lay-off-elsewhere"])
def test_an_import_whose_act_the_rules_refuse_is_a_422_and_creates_nothing(
        client, game, admin_key, change, says):
    record = finished_record()
    changed = change(record)
    problem = assert_problem(import_(client, admin_key, record), 422)
    assert f"event {changed['version']} ({changed['type']})" in problem["detail"], \
        problem["detail"]
    assert says in problem["detail"], problem["detail"]
    assert_unchanged(client, game)


def test_an_import_whose_profile_asks_other_contracts_than_its_openings_is_a_422(
        client, game, admin_key):
    """The record's openings lay two groups in round 1; a profile whose contracts are one
    group a round refuses that opening (R4.2)."""
    record = finished_record()
    created = record["events"][0]
    created["data"]["profile"]["contracts"] = [["group"]] * 7
    problem = assert_problem(import_(client, admin_key, record), 422)
    assert "ContractOpened) is an act the rules refuse there (R4" in problem["detail"], \
        problem["detail"]
    assert_unchanged(client, game)


def test_an_import_whose_version_is_not_its_number_of_events_is_a_422(client, game, admin_key):
    record = finished_record()
    record["version"] = 5
    problem = assert_problem(import_(client, admin_key, record), 422)
    assert f"must be the number of its events ({len(record['events'])})" in problem["detail"]
    assert_unchanged(client, game)
