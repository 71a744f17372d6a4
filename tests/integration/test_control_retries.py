"""Idempotency-Key on the POSTs issue 8 added (docs/lobby.md, docs/clock.md): a retry with the
key gets the first answer and appends nothing, where a call without it is refused (the
action happened already). Join, spectators and reclaim are checked beside their features
(test_lobby_api.py, test_clock.py); here start, resign, abort and rematch."""
import pytest

from tests.conftest import ADMIN_KEY
from tests.integration.api_client import HUMANS, app, bearer, client  # noqa: F401 - fixtures
from tests.integration.records import finished_record

LOBBY = [{"kind": "human", "name": "Host"}, {"kind": "open"}, {"kind": "open"}, {"kind": "bot"}]


def version(client, game_id):
    return client.get(f"/v1/games/{game_id}").get_json()["version"]


def started(client):
    game = client.post("/v1/games", json={"seats": LOBBY}).get_json()
    return game, "start", game["admin_token"]


def resigned(client):
    game = client.post("/v1/games", json={"seats": HUMANS}).get_json()
    return game, "resign", game["seats"][1]["token"]


def aborted(client):
    game = client.post("/v1/games", json={"seats": HUMANS}).get_json()
    return game, "abort", game["admin_token"]


@pytest.mark.parametrize("make, refusal", [(started, (409, "L1")), (resigned, (422, "T4")),
                                           (aborted, (422, "T1"))])
def test_a_retry_with_its_key_gets_the_first_answer_and_appends_nothing(client, make, refusal):
    game, route, token = make(client)
    url, key = f"/v1/games/{game['id']}/{route}", {"Idempotency-Key": f"{route}-1"}
    first = client.post(url, headers={**bearer(token), **key})
    assert first.status_code == 200, first.get_json()
    after = version(client, game["id"])
    again = client.post(url, headers={**bearer(token), **key})
    assert (again.status_code, again.get_json()) == (200, first.get_json())
    assert version(client, game["id"]) == after
    fresh = client.post(url, headers={**bearer(token), "Idempotency-Key": f"{route}-2"})
    assert (fresh.status_code, fresh.get_json()["rule"]) == refusal
    assert version(client, game["id"]) == after


def test_a_rematch_retried_with_or_without_its_key_is_the_same_game(client):
    finished = client.post("/v1/games/import", json=finished_record(),
                           headers={"X-Admin-Key": ADMIN_KEY}).get_json()
    url, token = f"/v1/games/{finished['id']}/rematch", bearer(finished["seats"][0]["token"])
    first = client.post(url, headers={**token, "Idempotency-Key": "rematch-1"})
    assert first.status_code == 201, first.get_json()
    created = version(client, first.get_json()["id"])
    again = client.post(url, headers={**token, "Idempotency-Key": "rematch-1"})
    bare = client.post(url, headers=bearer(finished["admin_token"]))
    assert again.get_json() == first.get_json() and bare.get_json()["id"] == first.get_json()["id"]
    assert version(client, first.get_json()["id"]) == created
