"""Each act of an imported record must be what the rules decide of the action it records
(service.import_acts), over HTTP on a real Redis: the fold applies what an event says, so a
"run" of 8C 8D 9H, a lay-off on a meld it does not fit or a discard of a card not held were
imported (the newcomer tester's findings) and every view of the game showed them."""
import random

import pytest

from domain import awaiting, choose_action, decide, event_to_dict, fold
from domain.decide import start_game
from domain.profile import RuleProfile, resolve
from domain.simulation import first_to_act, play_game
from domain.state import FINISHED, SCORING
from domain.views import SeatView
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


def record_of(events: list) -> dict:
    """A finished game's record of `events` (domain events), every seat human."""
    record = finished_record()
    record["events"] = [{**event_to_dict(e), "version": n} for n, e in enumerate(events, 1)]
    record["version"] = len(events)
    record["seats"] = [{"seat": n, "kind": "human", "name": f"p{n}", "level": None}
                       for n in range(fold(events).seats)]
    return record


def answered_behind_a_buyer(seed: int = 3) -> list:
    """A game of basic bots but for its first offer of three seats, where the second seat asks
    to buy and the third then passes: a request recorded behind a nearer seat's (R6.2), as a
    human may send it."""
    rng = random.Random(seed)
    events = list(start_game(RuleProfile(), 4, rng))
    state, done = fold(events), False
    while state.status != FINISHED:
        waiting = awaiting(state)
        if not done and waiting.phase == "buying" and len(waiting.seats) == 3:
            new = decide(state, waiting.seats[1], {"type": "buy"}, rng)
            state, events = fold(new, state), events + new
            new = decide(state, waiting.seats[2], {"type": "pass"}, rng)
            done = True
        elif state.status == SCORING:
            new = decide(state, None, {"type": "score_round"}, rng)
        else:
            seat = first_to_act(state)
            new = decide(state, seat, choose_action("basic", SeatView(state, seat), rng), rng)
        state, events = fold(new, state), events + new
    assert done
    return events


def test_answers_the_rules_record_import_however_they_came(client, admin_key):
    """The reviewer's: a seat that answers behind a nearer seat's request (R6.2), and wild
    deuces released onto a run as themselves or standing for a card (R11.15), were refused
    by an earlier form of the checks."""
    assert import_(client, admin_key, record_of(answered_behind_a_buyer())).status_code == 201
    wild = resolve({"preset": "liverpool", "players": 5, "wild_twos": True})
    events = play_game(("random", "basic", "strong", "basic", "basic"), random.Random(38),
                       wild).events
    assert any(type(e).__name__ == "JokerSwapped" and e.joker_card[:1] == "2" for e in events)
    response = import_(client, admin_key, record_of(list(events)))
    assert response.status_code == 201, response.get_json()


def test_a_draw_before_any_deal_is_a_422_not_a_500(client, game, admin_key):
    """The reviewer's: the decision of a draw on a table with no round raised AttributeError."""
    record = finished_record()
    drawn = {"type": "CardDrawn", "schema": 1,
             "data": {"seat": 0, "source": "discard", "card": "9S"}}
    events = [record["events"][0], drawn, record["events"][-1]]
    record["events"] = [{**e, "version": n} for n, e in enumerate(events, 1)]
    record["version"] = 3
    problem = assert_problem(import_(client, admin_key, record), 422)
    assert problem["detail"].startswith("event 2 (CardDrawn)"), problem["detail"]
    assert_unchanged(client, game)
