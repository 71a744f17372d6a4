"""The webhook projection through the API on a real Redis (docs/players.md "Webhooks"): what
each append records in the outbox (the jobs are only enqueued here; tests/e2e/test_webhooks.py
delivers them), for players given at creation and players who joined by code, and what each
refused attempt records, up to a delivery that failed for good."""
import base64
import json

import pytest

from api import create_app
from service.clock import parse_rfc3339
from service.webhooks import BACKOFF_S
from service.bootstrap import wire
from service.config import Settings
from tests.conftest import ADMIN_KEY, SECRET
from tests.integration.api_client import bearer
from tests.integration.players_fixtures import as_player, integration_settings

WEBHOOK_SECRET = "whsec_" + base64.b64encode(bytes(range(32))).decode()


@pytest.fixture
def service(redis_url, redis_client):
    """A GameService whose webhooks go to a port nobody listens on (127.0.0.1:9)."""
    settings = Settings(redis_url=redis_url, admin_key=ADMIN_KEY, secret=SECRET,
                        integration=integration_settings(
                            webhook_url="http://127.0.0.1:9/hooks",
                            webhook_secret=WEBHOOK_SECRET))
    return wire(settings).service


@pytest.fixture
def client(service):
    app = create_app({"RUMMY_SERVICE": service, "TESTING": True, "RUMMY_RATE_LIMITS": "off"})
    return app.test_client()


def payloads(redis_client, game_id):
    """webhook-id -> payload of every delivery the game's appends recorded."""
    found = {}
    for key in redis_client.scan_iter(f"rummy:{{{game_id}}}:webhook:*"):
        row = redis_client.hgetall(key)
        found[row[b"webhook_id"].decode()] = json.loads(row[b"body"])
    return found


def test_a_joined_player_is_named_in_the_webhooks_of_its_seat(client, redis_client):
    seats = [{"kind": "human", "name": "Host", "player_id": "host"}, {"kind": "open"},
             {"kind": "bot"}, {"kind": "bot"}]
    game = client.post("/v1/games", json={"seats": seats, "clock": {"turn_s": None}},
                       headers=as_player("integrator")).get_json()
    gid = game["id"]
    assert payloads(redis_client, gid) == {}  # waiting: nothing started, nobody awaited
    client.post("/v1/games/join", json={"code": game["join_code"], "name": "Ann"},
                headers=as_player("ann"))
    started = client.post(f"/v1/games/{gid}/start", headers=bearer(game["admin_token"]))
    assert started.status_code == 200
    found = payloads(redis_client, gid)
    start = next(p for p in found.values() if p["type"] == "game.started")["data"]
    assert start["seats"][:2] == [{"seat": 0, "kind": "human", "player_id": "host"},
                                  {"seat": 1, "kind": "human", "player_id": "ann"}]
    assert [s["player_id"] for s in start["seats"][2:]] == [None, None]
    turn = client.get(f"/v1/games/{gid}").get_json()["turn"]
    awaited = [p["data"] for p in found.values() if p["type"] == "seat.awaited"]
    # a human's turn first: that seat, its player, no clock; a bot's (no worker runs): none
    assert awaited == ([{"game_id": gid, "version": started.get_json()["version"], "seat": turn,
                         "player_id": ["host", "ann"][turn], "phase": "draw", "deadline": None}]
                       if turn in (0, 1) else [])


def test_the_join_that_starts_a_game_names_its_player_in_game_started(client, redis_client):
    """The joiner's PlayerSeated is in the append that starts the game (auto_start), and the
    players' projection runs before the webhooks: game.started names the last joiner too."""
    seats = [{"kind": "human", "name": "Host", "player_id": "host"}, {"kind": "open"},
             {"kind": "bot"}, {"kind": "bot"}]
    game = client.post("/v1/games", json={"seats": seats, "auto_start": True},
                       headers=as_player("integrator")).get_json()
    joined = client.post("/v1/games/join", json={"code": game["join_code"], "name": "Ann"},
                         headers=as_player("ann"))
    assert joined.status_code == 201
    found = payloads(redis_client, game["id"])
    start = next(p for p in found.values() if p["type"] == "game.started")["data"]
    assert [s["player_id"] for s in start["seats"]] == ["host", "ann", None, None]


def test_a_game_of_bots_records_no_webhook(client, redis_client):
    game = client.post("/v1/games", json={"seats": [{"kind": "bot"}] * 4}).get_json()
    assert payloads(redis_client, game["id"]) == {}


def test_a_delivery_never_taken_retries_with_backoff_then_is_listed_as_failed(client, service):
    """The outbox's side of RQ's retries (tests/e2e/test_webhooks.py runs the first ones):
    each refused attempt schedules the next after BACKOFF_S, and the last, with no retry
    left (24 h on), makes the delivery `failed`, listed by ?status=failed."""
    game = client.post("/v1/games", json={"seats": [{"kind": "human", "player_id": "ann"}] + [
        {"kind": "bot"}] * 3}, headers=as_player("integrator")).get_json()
    admin = {"X-Admin-Key": ADMIN_KEY}
    url = f"/v1/games/{game['id']}/webhook-deliveries"

    def shown():
        rows = client.get(url, headers=admin).get_json()["deliveries"]
        return next(r for r in rows if r["type"] == "game.started")
    row = shown()
    assert (row["status"], row["attempts"]) == ("pending", 0)
    for retries_left, wait_s in ((len(BACKOFF_S), 1), (1, 3 * 3600)):
        assert service.webhooks.attempt(game["id"], row["delivery_id"], retries_left) is False
        now = shown()
        assert now["status"] == "retrying" and now["last_status_code"] is None
        waited = parse_rfc3339(now["next_retry"]) - parse_rfc3339(now["last_attempt"])
        assert waited == wait_s * 1000
    assert service.webhooks.attempt(game["id"], row["delivery_id"], 0) is False
    failed = client.get("/v1/webhooks/deliveries?status=failed", headers=admin).get_json()
    assert [(r["delivery_id"], r["status"], r["attempts"], r["next_retry"])
            for r in failed["deliveries"]] == [(row["delivery_id"], "failed", 3, None)]
