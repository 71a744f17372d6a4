"""What the API refuses at its door, over HTTP (Flask test client) on a real Redis: bodies too
deep or too large, numbers and headers outside the document, records that are not finished
games. Every refusal is a problem+json with type/title/status/detail and changes nothing."""
import pytest

from api import create_app

HUMANS = [{"kind": "human", "name": f"p{n}"} for n in range(4)]
PROBLEM = "application/problem+json"


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def app(service):
    return create_app({"RUMMY_SERVICE": service, "TESTING": True})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def game(client):
    response = client.post("/v1/games", json={"seats": HUMANS, "seed": 7})
    assert response.status_code == 201
    return response.get_json()


def active_token(client, game):
    turn = client.get(f"/v1/games/{game['id']}").get_json()["turn"]
    return game["seats"][turn]["token"]


def assert_problem(response, status):
    assert response.status_code == status, response.get_data(as_text=True)[:300]
    assert response.content_type == PROBLEM
    body = response.get_json()
    assert {"type", "title", "status", "detail"} <= set(body) and body["status"] == status
    assert "Traceback" not in body["detail"] and "Error" not in body["detail"]
    return body


def assert_unchanged(client, game):
    """The game is still at its first version and it is the only game."""
    assert client.get(f"/v1/games/{game['id']}").get_json()["version"] == game["version"]
    assert [g["id"] for g in client.get("/v1/games").get_json()["items"]] == [game["id"]]


def post_json(client, url, text, **headers):
    return client.post(url, data=text, content_type="application/json", headers=headers)


@pytest.mark.parametrize("with_token", [False, True])
def test_a_deeply_nested_action_body_is_a_400_problem(client, game, with_token):
    body = '{"type":"open","melds":' + "[" * 1000 + "]" * 1000 + "}"
    headers = bearer(active_token(client, game)) if with_token else {}
    problem = assert_problem(post_json(client, f"/v1/games/{game['id']}/actions", body,
                                       **headers), 400)
    assert problem["type"].endswith("/invalid-json") and "nested" in problem["detail"]
    assert_unchanged(client, game)


@pytest.mark.parametrize("depth", [40, 900, 5000])
def test_a_deeply_nested_new_game_body_is_a_400_problem(client, game, depth):
    body = '{"seats": ' + "[" * depth + "]" * depth + "}"
    assert_problem(post_json(client, "/v1/games", body), 400)
    assert_unchanged(client, game)


@pytest.mark.parametrize("text", ['{"seats": NaN}', '{"seats": Infinity}', '{"seed": 1e999}'])
def test_json_that_rfc_8259_does_not_allow_is_a_400_problem(client, game, text):
    assert_problem(post_json(client, "/v1/games", text), 400)
    assert_unchanged(client, game)


def too_large():
    from api import MAX_BODY_BYTES
    return '{"seats": "' + "x" * MAX_BODY_BYTES + '"}'


def test_a_finished_games_record_fits_well_under_the_body_limit():
    import json
    import random

    from api import MAX_BODY_BYTES
    from domain import event_to_dict
    from domain.simulation import play_game
    events = play_game(("random",) * 4, random.Random(2)).events
    record = json.dumps([{**event_to_dict(e), "version": n} for n, e in enumerate(events, 1)])
    assert len(record) * 4 < MAX_BODY_BYTES


@pytest.mark.parametrize("path", ["/v1/games", "/v1/games/import", "/v1/games/{id}/actions"])
def test_a_body_over_the_limit_is_a_413_problem(client, game, admin_key, path):
    headers = {"X-Admin-Key": admin_key, **bearer(active_token(client, game))}
    response = post_json(client, path.format(id=game["id"]), too_large(), **headers)
    problem = assert_problem(response, 413)
    assert "larger than" in problem["detail"]
    assert_unchanged(client, game)


def test_the_body_limit_is_documented_on_every_operation_with_a_body():
    from api.cli import openapi_document
    for path, item in openapi_document()["paths"].items():
        for method, operation in item.items():
            if isinstance(operation, dict) and "requestBody" in operation:
                assert "413" in operation["responses"], (method, path)
