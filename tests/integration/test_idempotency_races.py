"""Idempotency keys under racing requests (issue 7 item 5), over HTTP through two apps (two
processes' worth of caches) on a real Redis, with real threads released together.

A request with an Idempotency-Key gets the first answer to that key, or a 409
`idempotency-key-in-progress` with Retry-After while the first is still being decided; never
another outcome (no version conflict, no rule violation), and the action is applied once."""
from __future__ import annotations

import threading

import pytest

from api import create_app
from service.idempotency import fingerprint
from service.keys import idem_key, idempotency_scope
from service.redis_store import CLAIM_TTL_S
from tests.integration.api_client import HUMANS, PROBLEM, active_token, bearer

RACERS = 20
ROUNDS = 3


@pytest.fixture
def clients(make_service):
    """Test clients of two apps, each on its own GameService (own caches), as two processes."""
    return [create_app({"RUMMY_SERVICE": make_service(), "TESTING": True}).test_client()
            for _ in range(2)]


def race(clients, requests: list[tuple[str, dict, dict]]) -> list:
    """POST every (url, body, headers) from its own thread, all released at once."""
    barrier = threading.Barrier(len(requests))
    answers: list = [None] * len(requests)

    def post(n: int) -> None:
        url, body, headers = requests[n]
        barrier.wait()
        answers[n] = clients[n % len(clients)].post(url, json=body, headers=headers)

    threads = [threading.Thread(target=post, args=(n,)) for n in range(len(requests))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return answers


def new_game(client) -> tuple[dict, str, int]:
    game = client.post("/v1/games", json={"seats": HUMANS}).get_json()
    return game, active_token(client, game), game["version"]


def applied_once(client, game: dict, before: int, first) -> bool:
    """Whether the game holds exactly the events of the first answer's decision: its version
    is the first answer's, one decision past `before`."""
    version = client.get(f"/v1/games/{game['id']}").get_json()["version"]
    return version == first.get_json()["version"] > before


def in_progress(answer) -> bool:
    """A 409 telling the caller to retry the same request shortly."""
    return (answer.status_code == 409 and answer.content_type == PROBLEM
            and answer.get_json()["type"] == "/docs/problems#idempotency-key-in-progress"
            and int(answer.headers["Retry-After"]) >= 1)


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_racing_identical_requests_get_the_first_answer_and_apply_once(clients, round_):
    game, token, version = new_game(clients[0])
    headers = {**bearer(token), "Idempotency-Key": f"draw-{round_}", "If-Match": f'"{version}"'}
    url = f"/v1/games/{game['id']}/actions"
    answers = race(clients, [(url, {"type": "draw", "from": "stock"}, headers)] * RACERS)
    done = [a for a in answers if a.status_code == 200]
    assert done and all(a.get_json() == done[0].get_json() for a in done)
    assert all(a.status_code == 200 or in_progress(a) for a in answers), \
        [(a.status_code, a.get_json()) for a in answers if a.status_code != 200]
    assert applied_once(clients[0], game, version, done[0])
    again = clients[1].post(url, json={"type": "draw", "from": "stock"}, headers=headers)
    assert again.status_code == 200 and again.get_json() == done[0].get_json()


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_racing_requests_reusing_a_key_get_the_first_answer_or_key_reused(clients, round_):
    game, token, version = new_game(clients[0])
    headers = {**bearer(token), "Idempotency-Key": f"mixed-{round_}"}
    url = f"/v1/games/{game['id']}/actions"
    bodies = [{"type": "draw", "from": "stock"}, {"type": "draw", "from": "discard"}]
    answers = race(clients, [(url, bodies[n % 2], headers) for n in range(RACERS)])
    done = [a for a in answers if a.status_code == 200]
    assert done and all(a.get_json() == done[0].get_json() for a in done)
    refused = [a for a in answers if a.status_code != 200]
    assert all(in_progress(a) or (a.status_code == 422 and a.get_json()["type"]
                                  == "/docs/problems#idempotency-key-reused")
               for a in refused), [a.get_json() for a in refused]
    assert applied_once(clients[0], game, version, done[0])


def test_a_key_held_by_a_request_that_died_is_in_progress_and_lapses(make_service, redis_client):
    service = make_service()
    client = create_app({"RUMMY_SERVICE": service, "TESTING": True}).test_client()
    game, token, version = new_game(client)
    seat = client.get(f"/v1/games/{game['id']}").get_json()["turn"]
    action = {"type": "draw", "from": "stock"}
    key = idempotency_scope(seat, "held")
    service.store.claim(game["id"], key, fingerprint(seat, action), "a-request-that-died")
    answer = client.post(f"/v1/games/{game['id']}/actions", json=action,
                         headers={**bearer(token), "Idempotency-Key": "held"})
    assert in_progress(answer), answer.get_json()
    assert client.get(f"/v1/games/{game['id']}").get_json()["version"] == version
    assert 0 < redis_client.pttl(idem_key(game["id"], key)) <= CLAIM_TTL_S * 1000
