"""The webhook projection through the API on a real Redis (docs/players.md "Webhooks"): what
each append records in the outbox (the jobs are only enqueued here; tests/e2e/test_webhooks.py
delivers them), for players given at creation and players who joined by code."""
import base64
import json

import pytest

from api import create_app
from service.bootstrap import wire
from service.config import Settings
from tests.conftest import ADMIN_KEY, SECRET
from tests.integration.api_client import bearer
from tests.integration.players_fixtures import as_player, integration_settings

WEBHOOK_SECRET = "whsec_" + base64.b64encode(bytes(range(32))).decode()


@pytest.fixture
def client(redis_url, redis_client):
    settings = Settings(redis_url=redis_url, admin_key=ADMIN_KEY, secret=SECRET,
                        integration=integration_settings(
                            webhook_url="http://127.0.0.1:9/hooks",
                            webhook_secret=WEBHOOK_SECRET))
    app = create_app({"RUMMY_SERVICE": wire(settings).service, "TESTING": True,
                      "RUMMY_RATE_LIMITS": "off"})
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


def test_a_game_of_bots_records_no_webhook(client, redis_client):
    game = client.post("/v1/games", json={"seats": [{"kind": "bot"}] * 4}).get_json()
    assert payloads(redis_client, game["id"]) == {}
