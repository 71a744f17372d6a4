"""POST /v1/games honours Idempotency-Key (issue 8, docs/service.md "Sealed answers"), over
HTTP on a real Redis: a retry gets the same game and tokens and no second game is made, also
while the first is still being made; another body is a 422; keys are per creator; a key
standing for tokens is at least 16 characters."""
from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest

from api import create_app
from service.sealed_answers import CLAIM_MS, creation_slot
from tests.conftest import ADMIN_KEY
from tests.integration.api_client import HUMANS, PROBLEM, app, client  # noqa: F401
from tests.integration.players_fixtures import INTEGRATION_KEY, as_player, service  # noqa: F401
from tests.integration.players_fixtures import token as player_jwt

KEY = "create-0123456789abcdef"
LOBBY = [{"kind": "human", "name": "Host"}, {"kind": "open", "level": "basic"},
         {"kind": "open"}, {"kind": "bot", "name": "B", "level": "basic"}]
CASES = Path(__file__).resolve().parents[1] / "conformance" / "cases"


def create(client, body: dict, key: str | None = KEY, **headers):
    return client.post("/v1/games", json=body,
                       headers={**({"Idempotency-Key": key} if key else {}), **headers})


def games_in(redis_client) -> int:
    """How many games Redis holds (their record hashes)."""
    return sum(1 for _ in redis_client.scan_iter(match="rummy:{*}:meta", count=1000))


def problem_type(response) -> str:
    return response.get_json()["type"].rsplit("#", 1)[-1]


@pytest.mark.parametrize("body", [{"seats": HUMANS}, {"seats": HUMANS, "seed": 7},
                                  {"seats": LOBBY, "visibility": "private"}],
                         ids=["random", "seeded", "lobby"])
def test_a_creation_retried_with_its_key_gets_the_same_game_and_tokens(client, redis_client,
                                                                       body):
    first = create(client, body)
    assert first.status_code == 201, first.get_json()
    again = create(client, body)
    assert again.status_code == 201 and again.get_json() == first.get_json()
    assert again.headers["Location"] == first.headers["Location"]
    assert games_in(redis_client) == 1
    assert client.get(f"/v1/games/{first.get_json()['id']}/view", headers={
        "Authorization": f"Bearer {again.get_json()['seats'][0]['token']}"}).status_code == 200


def test_a_game_from_a_position_retried_with_its_key_is_made_once(client, redis_client):
    position = json.loads((CASES / "r2.4-out-of-turn.json").read_text())["position"]
    body = {"seats": HUMANS, "position": position}
    first = create(client, body, **{"X-Admin-Key": ADMIN_KEY})
    again = create(client, body, **{"X-Admin-Key": ADMIN_KEY})
    assert first.status_code == again.status_code == 201
    assert again.get_json() == first.get_json() and games_in(redis_client) == 1


def test_without_a_key_or_with_another_key_each_creation_is_a_new_game(client, redis_client):
    body = {"seats": HUMANS}
    ids = {create(client, body, key=None).get_json()["id"],
           create(client, body, key=None).get_json()["id"],
           create(client, body).get_json()["id"],
           create(client, body, key=KEY + "-other").get_json()["id"]}
    assert len(ids) == 4 and games_in(redis_client) == 4


def test_a_key_reused_with_another_body_is_a_422_and_creates_nothing(client, redis_client):
    assert create(client, {"seats": HUMANS}).status_code == 201
    for other in ({"seats": HUMANS, "seed": 8}, {"seats": LOBBY}):
        refused = create(client, other)
        assert refused.status_code == 422 and refused.mimetype == PROBLEM
        assert problem_type(refused) == "idempotency-key-reused"
    assert games_in(redis_client) == 1


def test_keys_are_per_creator_so_two_creators_never_share_a_game(client, redis_client):
    body = {"seats": HUMANS}
    callers = [{}, {"X-Admin-Key": ADMIN_KEY}, as_player("ann"), as_player("bob"),
               {"X-Integration-Key": INTEGRATION_KEY},
               {"Authorization": f"Bearer {player_jwt('ann')}"}]
    answers = [create(client, body, **headers) for headers in callers]
    assert all(a.status_code == 201 for a in answers), [a.get_json() for a in answers]
    assert len({a.get_json()["id"] for a in answers}) == len(callers)
    again = [create(client, body, **headers).get_json()["id"] for headers in callers]
    assert again == [a.get_json()["id"] for a in answers]
    assert games_in(redis_client) == len(callers)


def test_two_anonymous_clients_with_one_key_and_body_get_two_games(client, redis_client):
    """Anonymous keys are per client address: one who picked another's key (and body) gets
    a game of its own, never the other's tokens."""
    body = {"seats": HUMANS}
    here = create(client, body)
    there = client.post("/v1/games", json=body, headers={"Idempotency-Key": KEY},
                        environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert (here.status_code, there.status_code) == (201, 201)
    assert here.get_json()["id"] != there.get_json()["id"]
    assert create(client, body).get_json() == here.get_json()
    assert games_in(redis_client) == 2


@pytest.mark.parametrize("path", ["/v1/games", "/v1/games/join"])
def test_a_key_that_stands_for_tokens_is_at_least_16_characters(client, redis_client, path):
    body = {"seats": HUMANS} if path == "/v1/games" else {"code": "7K3QX9M2ZD", "name": "Ann"}
    short = client.post(path, json=body, headers={"Idempotency-Key": "k" * 15})
    assert short.status_code == 422 and "Idempotency-Key" in short.get_json()["errors"]["headers"]
    assert games_in(redis_client) == 0
    long_enough = client.post(path, json=body, headers={"Idempotency-Key": "k" * 16})
    assert long_enough.status_code in (201, 404)  # 404: no game has that join code


def test_a_spectator_key_is_at_least_16_characters(client):
    game = create(client, {"seats": HUMANS}, key=None).get_json()
    admin = {"Authorization": f"Bearer {game['admin_token']}"}
    url = f"/v1/games/{game['id']}/spectators"
    assert client.post(url, headers={**admin, "Idempotency-Key": "s" * 15}).status_code == 422
    assert client.post(url, headers={**admin, "Idempotency-Key": "s" * 16}).status_code == 201


def test_a_creation_refused_leaves_its_key_free_for_the_corrected_retry(client, redis_client):
    position = json.loads((CASES / "r2.4-out-of-turn.json").read_text())["position"]
    body = {"seats": HUMANS, "position": position}
    refused = [create(client, body) for _ in range(2)]  # a position needs the admin key
    assert [r.status_code for r in refused] == [403, 403]
    assert games_in(redis_client) == 0
    assert create(client, body, **{"X-Admin-Key": ADMIN_KEY}).status_code == 201


def test_a_retry_while_the_creation_is_still_being_made_waits_then_is_a_409(
        client, service, redis_client, monkeypatch):
    release, make = threading.Event(), service.lobby.create

    def slow(*args, **kwargs):  # the first creation, held until the retries were answered
        release.wait(10)
        return make(*args, **kwargs)
    monkeypatch.setattr(service.lobby, "create", slow)
    first: list = []
    holder = threading.Thread(target=lambda: first.append(create(client, {"seats": HUMANS})))
    holder.start()
    where, ends = creation_slot("anonymous:127.0.0.1").redis_key(KEY), time.monotonic() + 5
    while not redis_client.exists(where) and time.monotonic() < ends:
        time.sleep(0.01)
    assert 0 < redis_client.pttl(where) <= CLAIM_MS  # a claim that lapses if its holder dies
    retry = create(client, {"seats": HUMANS})
    assert retry.status_code == 409 and retry.mimetype == PROBLEM, retry.get_json()
    assert problem_type(retry) == "idempotency-key-in-progress"
    assert int(retry.headers["Retry-After"]) >= 1
    other = create(client, {"seats": HUMANS, "seed": 1})  # another body: 422 at once
    assert other.status_code == 422 and problem_type(other) == "idempotency-key-reused"
    release.set()
    holder.join(10)
    assert first[0].status_code == 201
    assert create(client, {"seats": HUMANS}).get_json() == first[0].get_json()
    assert games_in(redis_client) == 1


def test_racing_creations_with_one_key_make_one_game(make_service, redis_client):
    clients = [create_app({"RUMMY_SERVICE": make_service(), "TESTING": True,
                           "RUMMY_RATE_LIMITS": "off"}).test_client() for _ in range(2)]
    racers, barrier = 16, threading.Barrier(16)
    answers: list = [None] * racers

    def post(n: int) -> None:
        barrier.wait()
        answers[n] = create(clients[n % 2], {"seats": LOBBY})

    threads = [threading.Thread(target=post, args=(n,)) for n in range(racers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    done = [a for a in answers if a.status_code == 201]
    assert done and all(a.get_json() == done[0].get_json() for a in done)
    assert all(a.status_code == 201 or (a.status_code == 409 and problem_type(a)
                                        == "idempotency-key-in-progress") for a in answers)
    assert games_in(redis_client) == 1


@pytest.mark.parametrize("given", ["junk", "eyJhbGciOiJub25lIn0.eyJzdWIiOiJwLTEifQ.", "seat"])
def test_a_creation_with_any_other_bearer_is_a_401_and_creates_nothing(client, redis_client,
                                                                          given):
    if given == "seat":
        given = create(client, {"seats": HUMANS}, key=None).get_json()["seats"][0]["token"]
    before = games_in(redis_client)
    refused = create(client, {"seats": HUMANS}, Authorization=f"Bearer {given}")
    assert refused.status_code == 401 and refused.content_type == PROBLEM
    assert problem_type(refused) == "unauthorized" and "WWW-Authenticate" in refused.headers
    assert games_in(redis_client) == before


def test_a_creation_with_the_server_admin_key_as_bearer_is_served(client):
    created = create(client, {"seats": HUMANS}, key=None, Authorization=f"Bearer {ADMIN_KEY}")
    assert created.status_code == 201
