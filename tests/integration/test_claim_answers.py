"""Answering a Shanghai claim (R11.18) is held to the claim the caller saw, as a buy answer is
to its offer (R6.1): a claim or pass naming another card is refused, and one without a card
and without If-Match is a 409, not a claim of the next discard, when a claim opened or closed
while it was decided (docs/service.md "GameService")."""
import pytest

from api import create_app

HUMANS = [{"kind": "human", "name": n} for n in ("ann", "bob", "cy", "di")]
# Shanghai without buying; seat 1 discarded 7S onto the pile and a claim on it is open. Seat 2
# is to draw next; seats 2 and 3 may claim it on meld 0 (the 7s, seat 0's). Seat 2 holds two
# cards that fit a meld (7C, 9S): after its claim gives one away at random, one is left.
POSITION = {
    "profile": {"preset": "shanghai", "buying": False}, "round": 1, "dealer": 0, "turn": 2,
    "phase": "claim", "opened": ["earlier", None, None, None],
    "melds": [{"owner": 0, "cards": ["7C", "7D", "7H"]},
              {"owner": 0, "cards": ["9C", "9D", "9H"]}],
    "discard": ["3C", "7S"], "claim": {"card": "7S", "discarder": 1},
    "hands": [["2C", "4D", "5H", "KS", "QS"], ["3D", "4C", "6H", "8S", "JD", "QC"],
              ["7C", "9S", "5C", "6D", "8H", "10C", "JH", "KD"],
              ["4H", "5D", "6C", "8D", "10H", "QD", "AH"]],
    "fill": "stock",
}


def _app(service):
    return create_app({"RUMMY_SERVICE": service, "TESTING": True,
                       "RUMMY_RATE_LIMITS": "off"}).test_client()


@pytest.fixture
def table(service, admin_key):
    """(client, game id, seat headers) of a game loaded at POSITION."""
    client = _app(service)
    game = client.post("/v1/games", json={"seats": HUMANS, "position": POSITION},
                       headers={"X-Admin-Key": admin_key}).get_json()
    tokens = {s["seat"]: {"Authorization": f"Bearer {s['token']}"} for s in game["seats"]}
    return client, game["id"], tokens


def _events(client, game_id, admin_key, after):
    page = client.get(f"/v1/games/{game_id}/events?after={after}",
                      headers={"X-Admin-Key": admin_key}).get_json()
    return [(e["type"], e["data"]) for e in page["events"]]


@pytest.mark.parametrize("answer", [{"type": "claim", "meld": 0, "card": "8S"},
                                    {"type": "pass", "card": "8S"}])
def test_an_answer_naming_another_card_than_the_claimed_one_is_refused(table, answer):
    client, game_id, tokens = table
    url = f"/v1/games/{game_id}"
    before = client.get(url).get_json()["version"]
    refused = client.post(f"{url}/actions", headers=tokens[3], json=answer)
    assert refused.status_code == 422, refused.get_json()
    assert refused.get_json()["rule"] == "R11.18" and "7S" in refused.get_json()["detail"]
    assert client.get(url).get_json()["version"] == before


def test_a_claim_naming_the_claimed_card_is_taken(table, admin_key):
    client, game_id, tokens = table
    before = client.get(f"/v1/games/{game_id}").get_json()["version"]
    taken = client.post(f"/v1/games/{game_id}/actions", headers=tokens[3],
                        json={"type": "claim", "meld": 0, "card": "7S"})
    assert taken.status_code == 200, taken.get_json()
    assert ("ClaimRequested", {"seat": 3, "meld": 0, "card": "7S", "end": None}) in _events(
        client, game_id, admin_key, before)


@pytest.mark.parametrize("answer", [{"type": "claim", "meld": 0}, {"type": "pass"}])
def test_an_answer_without_a_card_is_not_decided_again_on_the_next_claim(
        table, service, make_service, admin_key, answer):
    """Seat 3 decides on the claim of 7S; before its append lands, seat 2 (another process)
    claims 7S, draws and discards 7C (or 9S), which opens a claim on it. Decided again, seat
    3's answer would claim (or decline) that card, which it never saw: it is a 409 instead."""
    client, game_id, tokens = table
    other = _app(make_service())
    original, raced = service.store.append, []

    def append_after_the_other_seat(game_id_, events, expected, *args, **kwargs):
        if not raced:
            url = f"/v1/games/{game_id}/actions"
            for body in ({"type": "claim", "meld": 0}, {"type": "draw", "from": "stock"}):
                moved = other.post(url, headers=tokens[2], json=body)
                assert moved.status_code == 200, moved.get_json()
            fitting = next(c for c in ("7C", "9S") if c in moved.get_json()["view"]["hand"])
            raced.append(fitting)
            moved = other.post(url, headers=tokens[2], json={"type": "discard", "card": fitting})
            assert moved.status_code == 200, moved.get_json()
        return original(game_id_, events, expected, *args, **kwargs)

    service.store.append = append_after_the_other_seat
    before = client.get(f"/v1/games/{game_id}").get_json()["version"]
    answered = client.post(f"/v1/games/{game_id}/actions", headers=tokens[3], json=answer)
    assert answered.status_code == 409, answered.get_json()
    after = _events(client, game_id, admin_key, before)
    assert ("ClaimOpened", {"card": raced[0], "discarder": 2}) in after
    assert not any(data.get("seat") == 3 for _, data in after), after
