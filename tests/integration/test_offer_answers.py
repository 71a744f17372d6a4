"""Answering a buy offer by naming its card needs no If-Match (issue 9, R6.1): the answer is
decided on the newest state, so other seats answering first never make it a 409; an answer
naming another card than the one on offer is refused."""
import pytest

from api import create_app

HUMANS = [{"kind": "human", "name": n} for n in ("ann", "bob", "cy", "di")]


@pytest.fixture
def client(service):
    return create_app({"RUMMY_SERVICE": service, "TESTING": True,
                       "RUMMY_RATE_LIMITS": "off"}).test_client()


@pytest.fixture
def offer(client):
    """A game whose active seat chose the stock: an offer is open. (game, tokens, view of a
    seat asked to answer)."""
    for seed in range(1, 40):
        game = client.post("/v1/games", json={"seats": HUMANS, "seed": seed}).get_json()
        tokens = {s["seat"]: {"Authorization": f"Bearer {s['token']}"} for s in game["seats"]}
        turn = client.get(f"/v1/games/{game['id']}").get_json()["turn"]
        drawn = client.post(f"/v1/games/{game['id']}/actions", headers=tokens[turn],
                            json={"type": "draw", "from": "stock"}).get_json()
        if drawn["view"]["offer"] is not None:
            return game, tokens, drawn["view"]
    pytest.fail("no seed in 1-39 opened an offer")


def test_answers_naming_the_card_on_offer_need_no_if_match(client, offer):
    game, tokens, seen = offer
    url = f"/v1/games/{game['id']}/actions"
    waiting = seen["offer"]["waiting_for"]
    assert len(waiting) >= 2, seen["offer"]
    card = seen["offer"]["card"]
    first, second = waiting[0], waiting[1]
    moved = client.post(url, headers=tokens[first], json={"type": "pass", "card": card})
    assert moved.status_code == 200
    # The second seat decided on the view it had (version `seen`); the game moved on since.
    assert moved.get_json()["version"] > seen["version"]
    answered = client.post(url, headers=tokens[second], json={"type": "pass", "card": card})
    assert answered.status_code == 200, answered.get_json()
    # The same answer with the stale If-Match is the 409 the card spares.
    assert client.post(url, headers={**tokens[waiting[-1]], "If-Match": f'"{seen["version"]}"'},
                       json={"type": "pass"}).status_code == 409


def test_an_answer_naming_another_card_is_refused_and_changes_nothing(client, offer):
    game, tokens, seen = offer
    card = seen["offer"]["card"]
    other = "2C" if card != "2C" else "3C"
    before = client.get(f"/v1/games/{game['id']}").get_json()["version"]
    refused = client.post(f"/v1/games/{game['id']}/actions",
                          headers=tokens[seen["offer"]["waiting_for"][0]],
                          json={"type": "buy", "card": other})
    assert refused.status_code == 422 and refused.get_json()["rule"] == "R6.1"
    assert client.get(f"/v1/games/{game['id']}").get_json()["version"] == before
