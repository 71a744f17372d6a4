"""Seat data changed by one process is never served stale by another (issue 8, "Rules for all
of it": game records stop being immutable; docs/lobby.md "Tokens granted after creation, and
caches"). Two apps, each on its own GameService (its own record, snapshot and deadline
caches, as two gunicorn workers or hosts), on one real Redis: every read is made in process A
first (so A has cached the game), then the seat data changes through process B, then A must
answer from the new data: joins, player ids, the start, spectators, a takeover and its
reclaim, a resignation, rematch tokens minted and revoked."""
import time

import pytest

from api import create_app
from domain import awaiting
from service.bootstrap import wire
from service.config import Settings
from tests.conftest import ADMIN_KEY, SECRET
from tests.integration.api_client import bearer
from tests.integration.players_fixtures import as_player, integration_settings
from tests.integration.records import finished_record
from workers import deadlines, runtime

KEY = {"X-Integration-Key": as_player("x")["X-Integration-Key"]}
LOBBY = [{"kind": "human", "name": "Host", "player_id": "host"}, {"kind": "open"},
         {"kind": "open"}, {"kind": "bot"}]


@pytest.fixture
def processes(redis_url, redis_client):
    """Test clients of two apps (A, B), each wired on its own, and the jobs' wiring (a
    worker: a third process)."""
    def wired():
        return wire(Settings(redis_url=redis_url, admin_key=ADMIN_KEY, secret=SECRET,
                             max_wait_s=5.0, integration=integration_settings()))
    apps = [create_app({"RUMMY_SERVICE": wired().service, "TESTING": True,
                        "RUMMY_RATE_LIMITS": "off"}).test_client() for _ in range(2)]
    runtime.use(wired())
    yield apps
    runtime.use(None)


def test_joins_player_ids_start_and_spectators_hold_at_once_in_another_process(processes):
    a, b = processes
    game = a.post("/v1/games", json={"seats": LOBBY, "visibility": "private",
                                     "clock": {"turn_s": None}}, headers=KEY).get_json()
    gid, admin = game["id"], bearer(game["admin_token"])
    assert a.get(f"/v1/games/{gid}", headers=admin).get_json()["status"] == "waiting"
    assert a.get(f"/v1/games/{gid}/view", headers=as_player("ann")).status_code == 404
    ann = b.post("/v1/games/join", json={"code": game["join_code"], "name": "Ann"},
                 headers=as_player("ann")).get_json()
    bob = b.post("/v1/games/join", json={"code": game["join_code"], "name": "Bob"}).get_json()
    assert a.get(f"/v1/games/{gid}/view", headers=bearer(bob["token"])).get_json()["seat"] == 2
    assert a.get(f"/v1/games/{gid}/view", headers=as_player("ann")).get_json()["seat"] == 1
    inbox = a.get("/v1/players/ann/games", headers=KEY).get_json()["items"]
    assert [(i["game_id"], i["seat"], i["status"]) for i in inbox] == [(gid, 1, "waiting")]
    assert a.get(f"/v1/games/{gid}", headers=admin).get_json()["lobby"]["joined"] == [
        None, "Ann", "Bob", None]
    spectator = b.post(f"/v1/games/{gid}/spectators", headers=admin).get_json()["token"]
    assert a.get(f"/v1/games/{gid}", headers=bearer(spectator)).status_code == 200
    assert b.post(f"/v1/games/{gid}/start", headers=admin).status_code == 200
    table = a.get(f"/v1/games/{gid}", headers=bearer(spectator)).get_json()
    assert table["status"] == "playing" and table["round"] == 1
    for who in (bearer(bob["token"]), as_player("ann")):  # dealt: A shows each joiner's hand
        assert len(a.get(f"/v1/games/{gid}/view", headers=who).get_json()["hand"]) == 10
    inbox = a.get("/v1/players/ann/games", headers=KEY).get_json()["items"]
    assert inbox[0]["status"] == "playing"


def test_a_takeover_its_reclaim_and_a_resignation_hold_at_once_in_another_process(processes):
    a, b = processes
    humans = [{"kind": "human", "name": f"p{n}"} for n in range(4)]
    game = a.post("/v1/games", json={"seats": humans, "clock": {
        "turn_s": 1, "timeouts_before_takeover": 1}}).get_json()
    gid, tokens = game["id"], [s["token"] for s in game["seats"]]
    table = a.get(f"/v1/games/{gid}").get_json()
    turn, version = table["turn"], table["version"]
    assert a.get(f"/v1/games/{gid}/view", headers=bearer(tokens[turn])).get_json()[
        "taken_over"][turn] is None
    service = runtime.wiring().service  # the worker's process times the seat out
    _, state = service.load(gid)
    time.sleep(max(0.0, service.deadline(gid, version, state).due_ms / 1000 - time.time()) + 0.05)
    assert deadlines.run_deadline(gid, version) == "turn"
    refused = a.post(f"/v1/games/{gid}/actions", json={"type": "draw", "from": "stock"},
                     headers=bearer(tokens[turn]))
    assert refused.status_code == 422 and refused.get_json()["rule"] == "T5"
    reclaimed = a.post(f"/v1/games/{gid}/seats/{turn}/reclaim", headers=bearer(tokens[turn]))
    assert reclaimed.status_code == 200, reclaimed.get_json()
    assert b.get(f"/v1/games/{gid}").get_json()["taken_over"][turn] is None
    other = (turn + 1) % 4
    assert b.post(f"/v1/games/{gid}/resign", headers=bearer(tokens[other])).status_code == 200
    again = a.post(f"/v1/games/{gid}/resign", headers=bearer(tokens[other]))
    assert again.status_code == 422 and again.get_json()["rule"] == "T4"
    _, state = service.load(gid)
    assert service.bot_seats(gid, state) == (other,) and awaiting(state).status == "playing"


def test_a_rematch_token_minted_in_one_process_revokes_the_last_in_another(processes):
    a, b = processes
    finished = a.post("/v1/games/import", json=finished_record(),
                      headers={"X-Admin-Key": ADMIN_KEY}).get_json()
    gid, old = finished["id"], bearer(finished["seats"][1]["token"])
    assert a.get(f"/v1/games/{gid}/rematch", headers=old).status_code == 404
    new_id = b.post(f"/v1/games/{gid}/rematch", headers=old).get_json()["id"]
    assert a.post(f"/v1/games/{gid}/rematch", headers=old).get_json()["id"] == new_id
    first = a.get(f"/v1/games/{gid}/rematch", headers=old).get_json()["token"]
    assert a.get(f"/v1/games/{new_id}/view", headers=bearer(first)).get_json()["seat"] == 1
    second = b.get(f"/v1/games/{gid}/rematch", headers=old).get_json()["token"]
    assert a.get(f"/v1/games/{new_id}/view", headers=bearer(first)).status_code == 401
    assert a.get(f"/v1/games/{new_id}/view", headers=bearer(second)).get_json()["seat"] == 1
