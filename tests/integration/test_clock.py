"""The turn clock on a real server (docs/clock.md): recorded_at on every event, the clock of a
new game, deadlines in views and in the workers' sorted set, the deadline job (a turn timeout
in one append, exactly once), reclaim, resign and abort through the API."""
import random
import time

import pytest

from domain import awaiting, decide
from service import Principal
from service.clock import parse_rfc3339
from service.keys import deadlines_key
from tests.integration.api_client import HUMANS, app, bearer, client  # noqa: F401 - fixtures
from workers import deadlines, runtime

BOTS = [{"kind": "bot", "level": "basic"}] * 4
ONE_HUMAN = [{"kind": "human", "name": "Ann"}] + BOTS[1:]


def types_after(service, game_id, version):
    return [event.type for event in service.store.read(game_id, after=version)]


def test_every_event_is_recorded_with_the_server_time(service, redis_client):
    before = time.time() * 1000
    game = service.create_game(HUMANS, seed=7)
    stored = service.store.read(game["id"])
    assert [e.type for e in stored] == ["GameCreated", "ClockSet", "RoundDealt"]
    assert len({e.recorded_at for e in stored}) == 1  # one time per append
    assert before - 1000 <= stored[0].recorded_at <= time.time() * 1000 + 1000
    feed = service.events(game["id"], Principal())
    assert parse_rfc3339(feed[0]["recorded_at"]) == stored[0].recorded_at


def test_a_clock_takes_defaults_for_what_it_leaves_out(service):
    game = service.create_game(HUMANS, seed=7, clock={"turn_s": 5})
    _, view = service.public_view(game["id"])
    assert view["clock"] == {"turn_s": 5, "offer_s": 15, "timeouts_before_takeover": 2,
                             "takeover_level": "basic"}


@pytest.mark.parametrize("clock, field", [
    ({"turn_s": 0}, "turn_s"), ({"turn_s": 86401}, "turn_s"), ({"offer_s": 3601}, "offer_s"),
    ({"offer_s": None}, "offer_s"), ({"takeover_level": "godlike"}, "takeover_level"),
    ({"timeouts_before_takeover": 0}, "timeouts_before_takeover"), ({"nope": 1}, "nope"),
])
def test_a_bad_clock_is_a_422_naming_the_field(client, clock, field):
    response = client.post("/v1/games", json={"seats": HUMANS, "clock": clock})
    assert response.status_code == 422 and field in response.get_json()["detail"]


def test_views_show_the_deadline_and_responses_the_server_time(client, service):
    game = client.post("/v1/games", json={"seats": HUMANS, "seed": 7,
                                          "clock": {"turn_s": 30}}).get_json()
    response = client.get(f"/v1/games/{game['id']}")
    table = response.get_json()
    dealt = service.store.read(game["id"])[-1].recorded_at
    assert parse_rfc3339(table["awaiting"]["deadline"]) == dealt + 30_000
    server_time = parse_rfc3339(response.headers["Server-Time"])
    assert abs(server_time - time.time() * 1000) < 2000
    again = client.get(f"/v1/games/{game['id']}", headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304 and "Server-Time" in again.headers
    token = game["seats"][table["turn"]]["token"]
    view = client.get(f"/v1/games/{game['id']}/view", headers=bearer(token)).get_json()
    assert view["awaiting"]["deadline"] == table["awaiting"]["deadline"]


def test_the_deadline_entry_is_replaced_at_each_append_and_removed_when_no_human_is_awaited(
        service, redis_client):
    game = service.create_game(ONE_HUMAN, seed=3, clock={"turn_s": 100})
    version, state = service.load(game["id"])
    entry = service.schedule.due(game["id"])
    if awaiting(state).turn == 0:  # the human's turn: its deadline is due
        assert entry == (service.store.read(game["id"])[-1].recorded_at + 100_000, version)
    else:  # a bot's turn: nothing awaited from a human
        assert entry is None or redis_client.zscore(deadlines_key(), game["id"]) is None
    bots = service.create_game(BOTS, seed=3)
    assert service.schedule.due(bots["id"]) is None
    humans = service.create_game(HUMANS, seed=7, clock={"turn_s": 100, "offer_s": 9})
    _, state = service.load(humans["id"])
    service.act(humans["id"], Principal(seat=awaiting(state).turn), {"type": "draw", "from": "stock"})
    offered, state = service.load(humans["id"])
    assert awaiting(state).phase == "buying"
    opened_at = service.store.read(humans["id"])[-1].recorded_at
    assert service.schedule.due(humans["id"]) == (opened_at + 9_000, offered)
    service.act(humans["id"], Principal(seat=awaiting(state).seats[0]), {"type": "pass"})
    due, version = service.schedule.due(humans["id"])
    assert version == offered + 1 and due == opened_at + 9_000  # the same offer's deadline
    assert service.schedule.set(humans["id"], offered, 1) is False  # an older version: refused


def test_a_game_without_a_turn_clock_has_no_turn_deadline(service):
    game = service.create_game(HUMANS, seed=7, clock={"turn_s": None})
    _, view = service.public_view(game["id"])
    assert view["awaiting"]["deadline"] is None and service.schedule.due(game["id"]) is None


@pytest.fixture
def jobs_wiring(service, redis_url):
    from service.bootstrap import wire
    from service.config import Settings
    wired = wire(Settings(redis_url=redis_url))
    runtime.use(wired)
    yield wired
    runtime.use(None)


def test_a_turn_timeout_appends_the_bots_turn_in_one_append_exactly_once(service, jobs_wiring):
    game = service.create_game(HUMANS, seed=7, clock={"turn_s": 1, "timeouts_before_takeover": 1})
    version, state = service.load(game["id"])
    turn = awaiting(state).turn
    assert deadlines.run_deadline(game["id"], version) == "early"
    time.sleep(1.05)
    assert deadlines.run_deadline(game["id"], version) == "turn"
    after, state = service.load(game["id"])
    added = service.store.read(game["id"], after=version)
    assert [e.type for e in added[:2]] == ["TurnTimedOut", "SeatTakenOver"]
    assert added[1].data == {"seat": turn, "level": "basic", "reason": "timeouts"}
    assert len({e.recorded_at for e in added}) == 1  # one append
    assert "CardDiscarded" in [e.type for e in added] or awaiting(state).phase == "buying"
    assert deadlines.run_deadline(game["id"], version) == "stale"  # twice: nothing more
    assert service.load(game["id"])[0] == after
    feed = service.events(game["id"], Principal(seat=(turn + 1) % 4), after=version)
    drawn = [e for e in feed if e["type"] == "CardDrawn" and e["data"]["source"] == "stock"]
    assert all(e["data"]["card"] is None for e in drawn)  # the bot's stock card stays hidden


def test_a_human_acting_before_the_deadline_makes_the_job_stale(service, jobs_wiring):
    game = service.create_game(HUMANS, seed=7, clock={"turn_s": 1})
    version, state = service.load(game["id"])
    service.act(game["id"], Principal(seat=awaiting(state).turn), {"type": "draw", "from": "discard"})
    time.sleep(1.05)
    assert deadlines.run_deadline(game["id"], version) == "stale"
    assert "TurnTimedOut" not in types_after(service, game["id"], 0)


def test_a_table_event_in_a_humans_turn_keeps_its_deadline_and_the_timeout_comes(
        service, jobs_wiring):
    """A spectator let in (a table event) moves the version, not the turn's deadline: the
    entry moves to the new version with the same due time, and the timeout happens there."""
    from service.visibility import add_spectator
    game = service.create_game(HUMANS, seed=7, clock={"turn_s": 1, "timeouts_before_takeover": 1})
    version, _ = service.load(game["id"])
    due, _ = service.schedule.due(game["id"])
    add_spectator(service, game["id"], Principal(admin=True))
    assert service.schedule.due(game["id"]) == (due, version + 1)
    time.sleep(1.05)
    assert deadlines.run_deadline(game["id"], version) == "stale"
    assert deadlines.run_deadline(game["id"], version + 1) == "turn"
    assert types_after(service, game["id"], version)[:3] == ["SpectatorAdded", "TurnTimedOut",
                                                              "SeatTakenOver"]


def test_the_poller_enqueues_a_due_deadline_once(service, jobs_wiring, redis_client):
    game = service.create_game(HUMANS, seed=7, clock={"turn_s": 1})
    version, _ = service.load(game["id"])
    from service.clock import DeadlineSchedule
    from service.followups import make_deadline_queue
    schedule, queue = DeadlineSchedule(redis_client), make_deadline_queue(redis_client)
    assert deadlines.poll_once(schedule, queue, 30) == []
    time.sleep(1.05)
    assert deadlines.poll_once(schedule, queue, 30) == [f"deadline-{game['id']}-{version}"]
    assert deadlines.poll_once(schedule, queue, 30) == []  # leased: not claimed again
    assert queue.job_ids == [f"deadline-{game['id']}-{version}"]


def take_over(service, game_id, seat):
    """Seat `seat` taken over after one timeout (a clock of turn_s 1, one timeout)."""
    for _ in range(40):
        version, state = service.load(game_id)
        if state.taken_over[seat] is not None:
            return
        wait = awaiting(state)
        if wait.turn == seat and wait.phase in ("draw", "play"):
            time.sleep(max(0, service.deadline(game_id, version, state).due_ms / 1000
                           - time.time()) + 0.02)
            deadlines.run_deadline(game_id, version)
            continue
        seat_now = wait.seats[0]
        legal = service.seat_view(game_id, Principal(seat=seat_now))[1]["legal_actions"]
        service.act(game_id, Principal(seat=seat_now), legal[-1])
    raise AssertionError("the seat was not taken over")


def test_reclaim_resign_and_abort_through_the_api(client, service, jobs_wiring):
    game = client.post("/v1/games", json={"seats": HUMANS, "seed": 7, "clock": {
        "turn_s": 1, "timeouts_before_takeover": 1}}).get_json()
    gid, tokens = game["id"], [s["token"] for s in game["seats"]]
    turn = client.get(f"/v1/games/{gid}").get_json()["turn"]
    take_over(service, gid, turn)
    refused = client.post(f"/v1/games/{gid}/actions", json={"type": "draw", "from": "stock"},
                          headers=bearer(tokens[turn]))
    assert refused.status_code == 422 and refused.get_json()["rule"] == "T5"
    other = (turn + 1) % 4
    url = f"/v1/games/{gid}/seats/{turn}/reclaim"
    assert client.post(url, headers=bearer(tokens[other])).status_code == 403
    assert client.post(url).status_code == 401
    key = {"Idempotency-Key": "take-it-back"}
    first = client.post(url, headers={**bearer(tokens[turn]), **key})
    assert first.status_code == 200, first.get_json()
    again = client.post(url, headers={**bearer(tokens[turn]), **key})
    assert again.get_json()["version"] == first.get_json()["version"]
    assert types_after(service, gid, 0).count("SeatReclaimed") == 1
    assert first.get_json()["view"]["taken_over"][turn] is None
    assert client.post(url, headers=bearer(tokens[turn])).get_json()["rule"] == "T3"

    resigned = client.post(f"/v1/games/{gid}/resign", headers=bearer(tokens[other]))
    assert resigned.status_code == 200
    assert resigned.get_json()["view"]["taken_over"][other] == {"level": "basic",
                                                                "reason": "resigned"}
    back = client.post(f"/v1/games/{gid}/seats/{other}/reclaim", headers=bearer(tokens[other]))
    assert back.status_code == 422 and back.get_json()["rule"] == "T3"
    acting = client.post(f"/v1/games/{gid}/actions", json={"type": "draw", "from": "stock"},
                         headers=bearer(tokens[other]))
    detail = acting.get_json()["detail"]  # not sent to a reclaim that refuses it (T3)
    assert acting.get_json()["rule"] == "T5" and "final" in detail and "reclaim" not in detail

    assert client.post(f"/v1/games/{gid}/abort", headers=bearer(tokens[turn])).status_code == 403
    aborted = client.post(f"/v1/games/{gid}/abort", headers=bearer(game["admin_token"]))
    assert aborted.status_code == 200 and aborted.get_json()["table"]["status"] == "aborted"
    late = client.post(f"/v1/games/{gid}/resign", headers=bearer(tokens[turn]))
    assert late.status_code == 422 and late.get_json()["rule"] == "T1"
    assert service.schedule.due(gid) is None


def test_the_server_admin_key_aborts_too(client, admin_key):
    game = client.post("/v1/games", json={"seats": HUMANS}).get_json()
    response = client.post(f"/v1/games/{game['id']}/abort", headers={"X-Admin-Key": admin_key})
    assert response.status_code == 200


def test_replay_at_a_time_is_the_last_version_recorded_by_then(client, service):
    game = client.post("/v1/games", json={"seats": HUMANS, "seed": 7}).get_json()
    gid = game["id"]
    created_at = service.store.read(gid)[-1].recorded_at
    time.sleep(0.01)
    turn = client.get(f"/v1/games/{gid}").get_json()["turn"]
    client.post(f"/v1/games/{gid}/actions", json={"type": "draw", "from": "discard"},
                headers=bearer(game["seats"][turn]["token"]))
    from service.clock import rfc3339
    at = client.get(f"/v1/games/{gid}/replay?at={rfc3339(created_at + 5)}").get_json()
    assert at["version"] == 3 and at["recorded_at"] == rfc3339(created_at)
    now = client.get(f"/v1/games/{gid}/replay?at={rfc3339(int(time.time() * 1000) + 1000)}")
    assert now.get_json()["version"] == 4
    early = client.get(f"/v1/games/{gid}/replay?at=2000-01-01T00:00:00Z")
    assert early.status_code == 422
    both = client.get(f"/v1/games/{gid}/replay?at=2000-01-01T00:00:00Z&version=1")
    assert both.status_code == 422


def test_a_time_before_year_1000_is_echoed_with_its_four_digit_year(client):
    game = client.post("/v1/games", json={"seats": HUMANS}).get_json()
    early = client.get(f"/v1/games/{game['id']}/replay?at=0001-01-01T00:00:00Z")
    assert early.status_code == 422
    assert early.get_json()["detail"].endswith("at or before 0001-01-01T00:00:00.000Z")


def test_the_deadline_of_a_game_gone_from_the_store_is_forgotten(service, jobs_wiring):
    service.schedule.set("no-such-game", 3, 1)
    assert deadlines.run_deadline("no-such-game", 3) == "gone"
    assert service.schedule.due("no-such-game") is None


def test_an_abort_key_never_collides_with_the_keys_of_the_systems_deadlines(client, service,
                                                                             admin_key):
    """A deadline appends under the system key `deadline-<version>`; an admin's abort sent with
    that same Idempotency-Key is its own request (scoped `abort:`), not a reuse of the key."""
    game = client.post("/v1/games", json={"seats": HUMANS}).get_json()
    gid, version = game["id"], game["version"]
    turn = client.get(f"/v1/games/{gid}").get_json()["turn"]
    time_out = {"type": "time_out", "seat": turn}
    service.decide_at(gid, time_out, version, f"deadline-{version}",
                      lambda state, at: decide(state, None, time_out, random.Random(at)))
    aborted = client.post(f"/v1/games/{gid}/abort", headers={
        "X-Admin-Key": admin_key, "Idempotency-Key": f"deadline-{version}"})
    assert aborted.status_code == 200, aborted.get_json()
    assert aborted.get_json()["table"]["status"] == "aborted"
