"""Caps on a caller's concurrent SSE streams and long polls, and their end at shutdown
(docs/streams.md "Caps", "Shutdown"), through the Flask app on the test server."""
from __future__ import annotations

import threading
import time

import pytest
import redis

from api import create_app
from api_client import HUMANS, PROBLEM, bearer
from service.notify import Notifier
from service.redis_store import RedisEventStore
from service.stream_leases import StreamLeases, credential_holder

ANYONE, OTHER = "192.0.2.1", "192.0.2.2"  # client addresses as the app sees them (no traffic)


@pytest.fixture
def app(service):
    return create_app({"RUMMY_SERVICE": service, "TESTING": True, "RUMMY_RATE_LIMITS": "off",
                       "RUMMY_SSE_MAX_S": 30.0,
                       "RUMMY_SSE_HEARTBEAT_S": 0.2, "RUMMY_MAX_WAIT_S": 0.3,
                       "RUMMY_MAX_STREAMS_PER_CREDENTIAL": 2, "RUMMY_MAX_STREAMS_PER_IP": 1})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def game(client):
    return client.post("/v1/games", json={"seats": HUMANS}).get_json()


def open_stream(client, game: dict, token: str | None = None, address: str = ANYONE):
    """GET /stream without reading it: the response holds its place until closed."""
    return client.get(f"/v1/games/{game['id']}/stream", headers=bearer(token), buffered=False,
                      environ_base={"REMOTE_ADDR": address})


def assert_capped(response) -> None:
    assert response.status_code == 429 and response.mimetype == PROBLEM
    assert response.headers["Retry-After"] == "10"
    body = response.get_json()
    assert body["type"] == "/docs/problems#too-many-streams" and body["status"] == 429


def test_a_token_at_its_cap_gets_429_with_retry_after_until_a_stream_closes(client, game):
    token, other = game["seats"][0]["token"], game["seats"][1]["token"]
    held = [open_stream(client, game, token) for _ in range(2)]
    assert [r.status_code for r in held] == [200, 200]
    assert_capped(open_stream(client, game, token))
    assert_capped(client.get(f"/v1/games/{game['id']}/events?after={game['version']}&wait=5", headers=bearer(token)))
    # A plain read holds nothing and is not capped; another seat has its own count.
    assert client.get(f"/v1/games/{game['id']}/events", headers=bearer(token)).status_code == 200
    assert open_stream(client, game, other).status_code == 200
    held.pop().close()
    assert open_stream(client, game, token).status_code == 200


def test_anonymous_callers_are_capped_per_address_and_tokens_are_not(client, game):
    assert open_stream(client, game).status_code == 200
    assert_capped(open_stream(client, game))
    assert_capped(client.get(f"/v1/games/{game['id']}/events?after={game['version']}&wait=5",
                             environ_base={"REMOTE_ADDR": ANYONE}))
    assert open_stream(client, game, address=OTHER).status_code == 200
    # A seat behind the same address (a mobile backend) is counted by its token.
    assert open_stream(client, game, game["seats"][0]["token"]).status_code == 200


def test_a_finished_long_poll_gives_its_place_back(client, game, redis_client):
    token = game["seats"][0]["token"]
    for _ in range(3):  # more than the cap, one after another
        response = client.get(f"/v1/games/{game['id']}/events?after={game['version']}&wait=0.3",
                              headers=bearer(token))
        assert response.status_code == 200 and response.get_json()["events"] == []
    # Kept warm for the next poll of this process (one lease served all three), then reaped.
    key = "rummy:streams:" + credential_holder(token)
    assert redis_client.zcard(key) == 1
    assert wait_for(lambda: redis_client.zcard(key) == 0, 3)


def wait_for(condition, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_a_released_lease_is_reused_by_its_process_and_counted_elsewhere_until_reaped(
        redis_client):
    here, elsewhere = (StreamLeases(redis_client, lease_s=60, reuse_s=0.5) for _ in range(2))
    first = here.acquire("h", 1)
    here.release("h", first)
    assert elsewhere.acquire("h", 1) is None  # warm here: still counted for the other process
    assert here.acquire("h", 1) == first  # taken again without a new lease
    here.release("h", first)
    released = time.monotonic()
    assert wait_for(lambda: elsewhere.acquire("h", 1) is not None, 3)
    assert 0.5 <= time.monotonic() - released < 2  # reaped within reuse_s and a reaper pass


def test_a_warm_lease_past_half_its_term_is_renewed_when_reused_or_replaced_if_gone(
        redis_client):
    leases = StreamLeases(redis_client, lease_s=0.4, reuse_s=5)
    kept = leases.acquire("w", 1)
    leases.release("w", kept)
    time.sleep(0.25)  # past half its term: renewed as it is taken again
    assert leases.acquire("w", 1) == kept
    time.sleep(0.25)  # a renewed lease is still held: the cap is reached
    assert StreamLeases(redis_client, lease_s=0.4).acquire("w", 1) is None
    leases.release("w", kept)
    time.sleep(0.5)  # expired in Redis while warm: a new lease is taken instead
    fresh = leases.acquire("w", 1)
    assert fresh is not None and fresh != kept


def test_a_lease_of_a_dead_process_expires_and_a_renewed_one_stays(redis_client):
    leases = StreamLeases(redis_client, lease_s=0.4)
    kept = leases.acquire("h", 2)
    assert leases.acquire("h", 2) is not None and leases.acquire("h", 2) is None
    time.sleep(0.25)
    assert leases.renew("h", kept)
    time.sleep(0.25)  # the other lease is gone, the renewed one is still held
    assert leases.acquire("h", 2) is not None and leases.acquire("h", 2) is None
    leases.release("h", kept)
    leases.release("h", kept)
    assert leases.acquire("h", 2) is not None


def test_a_stream_ends_with_a_retry_hint_when_the_server_drains(app, service, redis_url, game):
    # Its own notifier: draining the process's shared one would end every later test's waits.
    notifier = Notifier(redis.Redis.from_url(redis_url))
    service.store = RedisEventStore(redis.Redis.from_url(redis_url), notifier)
    response = open_stream(app.test_client(), game, game["seats"][0]["token"])
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(
        chunk.decode() for chunk in response.response))
    reader.start()
    time.sleep(0.5)
    drained = time.monotonic()
    service.drain()
    reader.join(5)
    notifier.close()
    assert not reader.is_alive() and time.monotonic() - drained < 2
    assert lines[0].startswith("retry: ") and lines[-1].startswith("retry: ")
    started = time.monotonic()  # a long poll while draining answers at once
    assert app.test_client().get(f"/v1/games/{game['id']}/events?after={game['version']}&wait=5").get_json() == {
        "events": [], "more": False, "next_after": game["version"]}
    assert time.monotonic() - started < 1
