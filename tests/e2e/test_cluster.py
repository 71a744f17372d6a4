"""Scale-out on a Redis Cluster (issue 12, docs/cluster.md), end to end: gunicorn serving the
API and a `rummy worker` process, the event store, index, deadlines, notifications and rate
limits on a real
cluster of three primaries and three replicas (service.embedded_cluster), the RQ queues on a
separate single server (RUMMY_QUEUE_URL). Four-bot games play to their end, and one does
through a manual failover of the primary serving it (CLUSTER FAILOVER on its replica): no
acknowledged event is lost (versions contiguous, every event seen before still there, each
round dealt and scored once, 107 cards at each round's end, R1.4). The keys of issue 8 live on
the cluster too: a private lobby game joined by code by a player, listed in that player's inbox
(its index keyed by the player's own hash tag), told by a signed webhook, then its rematch."""
from __future__ import annotations

import base64
import os
import subprocess

import pytest
import redis
from rq.worker_registration import REDIS_WORKER_KEYS

from bench.stack import free_port, start_api, start_webhook_worker, start_worker, stop_all, wait_healthy
from bench.webhook_receiver import Receiver
from e2e_harness import ADMIN_KEY, OFFER_DEADLINE_S, SECRET, Client
from service.connections import connect
from service.keys import events_key
from test_games import BOTS
from test_redis_outage import check_game, events_until

INTEGRATION_KEY = "cluster-integration-key-0123456789"
AS_ANN = {"X-Integration-Key": INTEGRATION_KEY, "X-Player-Id": "ann"}
WEBHOOK_SECRET = "whsec_" + base64.b64encode(b"cluster webhook secret, 32 bytes").decode()


@pytest.fixture(scope="module")
def receiver():
    found = Receiver(WEBHOOK_SECRET)
    yield found
    found.close()


@pytest.fixture(scope="module")
def stack(redis_cluster, redis_url, receiver, tmp_path_factory):
    """(client, cluster client, queue client) of an API, a worker and a webhook worker on the
    cluster, webhooks to `receiver`."""
    queues = redis.Redis.from_url(redis_url)
    queues.flushdb()
    store = connect(redis_cluster.url)
    store.flushdb()
    env = {**os.environ, "REDIS_URL": redis_cluster.url, "RUMMY_QUEUE_URL": redis_url,
           "RUMMY_ADMIN_KEY": ADMIN_KEY, "RUMMY_SECRET": SECRET,
           "RUMMY_OFFER_DEADLINE_S": str(OFFER_DEADLINE_S), "RUMMY_SWEEP_INTERVAL_S": "1",
           "RUMMY_SWEEP_STALE_S": "3", "WEB_CONCURRENCY": "1", "PYTHONUNBUFFERED": "1",
           "RUMMY_INTEGRATION_KEY": INTEGRATION_KEY, "RUMMY_WEBHOOK_URL": receiver.url,
           "RUMMY_WEBHOOK_SECRET": WEBHOOK_SECRET,
           "RUMMY_RATE_LIMITS": "general=1000/second"}  # counted on the cluster too
    logs = tmp_path_factory.mktemp("cluster")
    bind = f"127.0.0.1:{free_port()}"
    out = [(logs / f"{name}.log").open("w") for name in ("api", "worker", "webhooks")]
    procs = [start_api(env, bind, stdout=out[0], stderr=subprocess.STDOUT),
             start_worker(env, stdout=out[1], stderr=subprocess.STDOUT),
             start_webhook_worker(env, stdout=out[2], stderr=subprocess.STDOUT)]
    try:
        wait_healthy(f"http://{bind}", procs[0])
        with Client(f"http://{bind}") as client:
            yield client, store, queues
    finally:
        stop_all(procs)
        for file in out:
            file.close()


def test_four_bots_finish_on_the_cluster_with_the_queues_on_their_own_server(stack):
    client, store, queues = stack
    game = client.create(BOTS, seed=1201)
    check_game(client, game, [])
    assert store.exists(events_key(game["id"])) and not queues.exists(events_key(game["id"]))
    # The worker registers on the queue server (a game of bots enqueues no RQ job: its moves
    # go through the ready queue, so rq:queues may not exist yet).
    assert queues.exists(REDIS_WORKER_KEYS) and not store.exists(REDIS_WORKER_KEYS)
    listed = client.get("/v1/games?status=finished")
    assert game["id"] in [item["id"] for item in listed.json()["items"]]
    assert int(listed.headers["RateLimit-Remaining"]) < 1000  # the limiter's storage answered
    assert any(store.scan_iter("*rummy-rate*"))  # flask-limiter counts on the cluster


def test_a_primary_failover_mid_game_loses_no_acknowledged_event(stack, redis_cluster):
    client, store, _ = stack
    game = client.create(BOTS, seed=1202)
    before = events_until(client, game, 120)
    primary = redis_cluster.primary_port(events_key(game["id"]))
    promoted = redis_cluster.failover(primary)
    assert redis_cluster.primary_port(events_key(game["id"])) == promoted
    check_game(client, game, before)


def test_a_silent_humans_turn_times_out_through_the_deadline_set_on_the_cluster(stack):
    """The worker polls the deadline set (`rummy:{deadlines}:*`, on the cluster) and enqueues
    the deadline job on the queue server: the silent seat times out and a bot takes it over."""
    client, _, _ = stack
    game = client.create([{"kind": "human", "name": "Ann"}] + BOTS[1:], seed=1203,
                         clock={"turn_s": 1, "offer_s": 1, "timeouts_before_takeover": 1})
    seen: list[dict] = []
    taken = client.wait_for(game["id"], game["admin_token"],
                            lambda event: event["type"] == "SeatTakenOver", 20, seen)
    assert taken["data"] == {"seat": 0, "level": "basic", "reason": "timeouts"}
    assert [e["type"] for e in seen].count("TurnTimedOut") == 1


def test_a_private_lobby_game_joined_by_a_player_reaches_her_inbox_on_the_cluster(stack,
                                                                                  receiver):
    """Join code, the seat's player, the inbox index and the rematch: each a key of its own
    slot (`rummy:join:*`, `rummy:{<game>}:*`, `rummy:{player:ann}:*`) on the cluster."""
    client, _, _ = stack
    host = {"kind": "human", "name": "Host"}
    game = client.create([host, {"kind": "open", "level": "basic"}] + BOTS[2:],
                         visibility="private", auto_start=True,
                         clock={"turn_s": 1, "offer_s": 1, "timeouts_before_takeover": 1})
    gid = game["id"]
    assert client.get(f"/v1/games/{gid}").json()["type"] == "/docs/problems#game-not-found"
    joined = client.http.post(f"{client.base}/v1/games/join", headers=AS_ANN, timeout=10,
                              json={"code": game["join_code"], "name": "Ann"})
    assert joined.status_code == 201, joined.text
    assert (joined.json()["game_id"], joined.json()["seat"]) == (gid, 1)
    inbox = client.get("/v1/players/ann/games?status=playing", **AS_ANN).json()["items"]
    assert [(item["game_id"], item["seat"]) for item in inbox] == [(gid, 1)]
    events = client.follow_to_end(gid, game["admin_token"], 60)  # silent humans: taken over
    ended = next(e["version"] for e in events if e["type"] == "GameEnded")
    finished = f"msg_{gid}_{ended}_game.finished_game"  # its delivery records on the cluster
    assert receiver.wait_for(lambda got: finished in got, 30), sorted(receiver.accepted)
    assert receiver.accepted[finished][0]["data"]["winners"] == client.get(
        f"/v1/games/{gid}", game["admin_token"]).json()["winners"]
    rematch = client.post(f"/v1/games/{gid}/rematch", game["admin_token"])
    assert rematch.status_code in (200, 201), rematch.text
    inbox = client.get("/v1/players/ann/games", **AS_ANN).json()["items"]
    assert [(item["game_id"], item["seat"]) for item in inbox] == [
        (rematch.json()["id"], 1), (gid, 1)]
