"""A small client of the REST API for the tests (cosmicpython's api_client.py): the app on
the test server, a created game and its tokens."""
from __future__ import annotations

import pytest

from api import create_app

HUMANS = [{"kind": "human", "name": f"p{n}"} for n in range(4)]
PROBLEM = "application/problem+json"


def bearer(token: str | None) -> dict:
    """The Authorization header of a bearer `token` (none for None)."""
    return {"Authorization": f"Bearer {token}"} if token else {}


def active_token(client, game: dict) -> str:
    """The token of the seat whose turn it is in `game` (what POST /v1/games returned)."""
    turn = client.get(f"/v1/games/{game['id']}").get_json()["turn"]
    return game["seats"][turn]["token"]


@pytest.fixture
def app(service):
    """The API on the test server's GameService, with short SSE limits and no rate limit
    (tests/integration/test_rate_limits.py builds its own)."""
    return create_app({"RUMMY_SERVICE": service, "TESTING": True, "RUMMY_RATE_LIMITS": "off",
                       "RUMMY_SSE_MAX_S": 1.0, "RUMMY_SSE_HEARTBEAT_S": 0.2})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def game(client):
    """A seeded game of four humans, as POST /v1/games returned it (ids and tokens)."""
    response = client.post("/v1/games", json={"seats": HUMANS, "seed": 7})
    assert response.status_code == 201
    return response.get_json()
