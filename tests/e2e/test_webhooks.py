"""Webhooks end to end (docs/players.md "Webhooks"): gunicorn, a `rummy worker`, a
`rummy webhook-worker` and a real receiver (bench/webhook_receiver.py, a threaded http.server)
that verifies every signature with the `standardwebhooks` package and refuses the first two
attempts of each webhook: every event still arrives, once per webhook-id, after RQ's retries."""
from __future__ import annotations

import base64
import json
import os
import re
import subprocess
import time

import pytest
import redis
import requests

from bench.stack import free_port, start_api, start_webhook_worker, start_worker, stop_all, wait_healthy
from bench.webhook_receiver import Receiver
from e2e_harness import ADMIN_KEY, Client

pytestmark = pytest.mark.slow
SECRET = "whsec_" + base64.b64encode(b"e2e webhook secret of 32 bytes!!").decode()
INTEGRATION_KEY = "e2e-integration-key-0123456789"
ANN = {"kind": "human", "name": "Ann", "player_id": "ann"}
BOTS = [{"kind": "bot", "level": "basic"}] * 3
CARD = re.compile(r"\b(?:10|[2-9JQKA])[HDSC]\b|\bJK\b")
ADMIN = {"X-Admin-Key": ADMIN_KEY}
AS_INTEGRATOR = {"X-Integration-Key": INTEGRATION_KEY}


@pytest.fixture(scope="module")
def receiver():
    found = Receiver(SECRET, fail_first=2)
    yield found
    found.close()


@pytest.fixture(scope="module")
def base(redis_url, receiver, tmp_path_factory):
    """The API, a game worker and a webhook worker, webhooks to `receiver`."""
    redis.Redis.from_url(redis_url).flushdb()
    env = {**os.environ, "REDIS_URL": redis_url, "RUMMY_ADMIN_KEY": ADMIN_KEY,
           "RUMMY_RATE_LIMITS": "off", "RUMMY_INTEGRATION_KEY": INTEGRATION_KEY,
           "RUMMY_WEBHOOK_URL": receiver.url, "RUMMY_WEBHOOK_SECRET": SECRET,
           "RUMMY_SWEEP_INTERVAL_S": "1", "RUMMY_SWEEP_STALE_S": "3", "WEB_CONCURRENCY": "2"}
    logs = tmp_path_factory.mktemp("webhooks")
    bind = f"127.0.0.1:{free_port()}"
    out = [(logs / f"{name}.log").open("w") for name in ("api", "worker", "webhooks")]
    procs = [start_api(env, bind, stdout=out[0], stderr=subprocess.STDOUT),
             start_worker(env, stdout=out[1], stderr=subprocess.STDOUT),
             start_webhook_worker(env, stdout=out[2], stderr=subprocess.STDOUT)]
    try:
        wait_healthy(f"http://{bind}", procs[0])
        yield f"http://{bind}"
    finally:
        stop_all(procs)
        for file in out:
            file.close()


def expected_ids(gid: str, events: list[dict]) -> dict[str, str]:
    """webhook-id -> type of the events every game of one silent player makes."""
    found = {}
    for event in events:
        version, kind = event["version"], event["type"]
        if kind == "RoundDealt" and event["data"]["round"] == 1:
            found[f"msg_{gid}_{version}_game.started_game"] = "game.started"
        elif kind == "TurnTimedOut":
            found[f"msg_{gid}_{version}_seat.timed_out_0"] = "seat.timed_out"
        elif kind == "SeatTakenOver":
            found[f"msg_{gid}_{version}_seat.taken_over_0"] = "seat.taken_over"
        elif kind == "GameEnded":
            found[f"msg_{gid}_{version}_game.finished_game"] = "game.finished"
    return found


@pytest.fixture
def client(base):
    """An HTTP client of `base` (not conftest's: this module runs its own API)."""
    with Client(base) as found:
        yield found


def test_a_silent_players_game_is_told_by_signed_webhooks_each_once_after_retries(base,
                                                                                  receiver,
                                                                                  client):
    reply = client.http.post(f"{base}/v1/games", headers=AS_INTEGRATOR, timeout=10, json={
        "seats": [ANN] + BOTS, "clock": {"turn_s": 1, "offer_s": 1,
                                         "timeouts_before_takeover": 1}})
    assert reply.status_code == 201, reply.text
    gid = reply.json()["id"]
    deadline = time.monotonic() + 90
    while client.table(gid)["status"] != "finished":
        assert time.monotonic() < deadline, client.table(gid)
        time.sleep(0.5)
    events = client.events(gid, None, **ADMIN)  # every page: a long game has over 5,000
    wanted = expected_ids(gid, events)
    assert sorted(wanted.values()).count("game.finished") == 1
    assert receiver.wait_for(lambda got: set(wanted) <= set(got), 60), (
        set(wanted) - set(receiver.accepted))
    mine = {i: p for i, (p, _) in receiver.accepted.items() if p["data"]["game_id"] == gid}
    awaited = [p for p in mine.values() if p["type"] == "seat.awaited"]
    assert awaited and all(p["data"]["seat"] == 0 and p["data"]["player_id"] == "ann"
                           and p["data"]["deadline"] for p in awaited)
    assert set(mine) == set(wanted) | {i for i, p in mine.items() if p["type"] == "seat.awaited"}
    table = client.table(gid)
    finished = mine[next(i for i, kind in wanted.items() if kind == "game.finished")]["data"]
    assert finished["totals"] == table["scores"] and finished["winners"] == table["winners"]
    assert finished["seats"][0] == {"seat": 0, "kind": "human", "player_id": "ann"}
    taken = next(p for p in mine.values() if p["type"] == "seat.taken_over")["data"]
    assert (taken["level"], taken["reason"], taken["player_id"]) == ("basic", "timeouts", "ann")
    assert not CARD.search(json.dumps(list(mine.values())))  # never a card
    for webhook_id in mine:  # refused twice, then taken once: the same id every attempt
        assert receiver.attempts[webhook_id] == 3, webhook_id
    assert receiver.duplicates == 0 and receiver.invalid == 0
    deliveries = client.get(f"/v1/games/{gid}/webhook-deliveries", **ADMIN)
    assert deliveries.status_code == 200
    rows = deliveries.json()["deliveries"]
    assert {row["webhook_id"] for row in rows} == set(mine)
    assert all(row["status"] == "delivered" and row["attempts"] == 3
               and row["last_status_code"] == 204 and row["next_retry"] is None for row in rows)
    rematch = client.post(f"/v1/games/{gid}/rematch", reply.json()["admin_token"])
    assert rematch.status_code in (200, 201), rematch.text
    follow_up = rematch.json()["id"]  # the player keeps its seat: its inbox, its view
    inbox = client.get("/v1/players/ann/games", **AS_INTEGRATOR).json()["items"]
    assert [(i["game_id"], i["seat"]) for i in inbox[:2]] == [(follow_up, 0), (gid, 0)]
    view = client.get(f"/v1/games/{follow_up}/view", **AS_INTEGRATOR, **{"X-Player-Id": "ann"})
    assert view.status_code == 200 and view.json()["seat"] == 0
    no_admin = client.get(f"/v1/games/{gid}/webhook-deliveries", **AS_INTEGRATOR)
    assert no_admin.status_code == 401
    recent = client.get("/v1/webhooks/deliveries?limit=1000", **ADMIN).json()["deliveries"]
    assert {r["webhook_id"] for r in recent if r["game_id"] == gid} == set(mine)
    assert client.get("/v1/webhooks/deliveries?status=failed", **ADMIN).json() == {
        "deliveries": []}


def test_a_games_own_webhook_url_gets_the_same_events_and_needs_the_integrator(base, receiver):
    own = Receiver(SECRET)
    try:
        humans = [{"kind": "human", "player_id": f"p{n}"} for n in range(4)]
        body = {"seats": humans, "webhook_url": own.url, "clock": {"turn_s": None}}
        anonymous = requests.post(f"{base}/v1/games", json={**body, "seats": [
            {"kind": "human"}] * 4}, timeout=10)
        assert anonymous.status_code == 403
        reply = requests.post(f"{base}/v1/games", json=body, headers=AS_INTEGRATOR, timeout=10)
        assert reply.status_code == 201, reply.text
        gid = reply.json()["id"]
        turn = requests.get(f"{base}/v1/games/{gid}", timeout=10).json()["turn"]
        ids = {f"msg_{gid}_3_game.started_game", f"msg_{gid}_3_seat.awaited_{turn}"}
        assert own.wait_for(lambda got: ids <= set(got), 30), own.accepted.keys()
        assert receiver.wait_for(lambda got: ids <= set(got), 30)
        assert own.accepted[f"msg_{gid}_3_seat.awaited_{turn}"][0]["data"]["player_id"] == f"p{turn}"
        bots = requests.post(f"{base}/v1/games", json={"seats": BOTS + BOTS[:1]}, timeout=10)
        rows = requests.get(f"{base}/v1/games/{bots.json()['id']}/webhook-deliveries",
                            headers=ADMIN, timeout=10).json()["deliveries"]
        assert rows == []  # a game of bots only sends none
    finally:
        own.close()
