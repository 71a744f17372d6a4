"""`rummy_actions_total` counts the actions appended, once each: an idempotent replay (the same
Idempotency-Key again) and a refused action are not counted (issue 9)."""
from prometheus_client import REGISTRY

from api import create_app

HUMANS = [{"kind": "human", "name": n} for n in ("ann", "bob", "cy", "di")]


def draws() -> float:
    return REGISTRY.get_sample_value("rummy_actions_total", {"type": "draw"}) or 0.0


def test_an_idempotent_replay_is_not_counted_again(service):
    client = create_app({"RUMMY_SERVICE": service, "TESTING": True,
                         "RUMMY_RATE_LIMITS": "off"}).test_client()
    game = client.post("/v1/games", json={"seats": HUMANS, "seed": 3}).get_json()
    turn = client.get(f"/v1/games/{game['id']}").get_json()["turn"]
    tokens = {s["seat"]: s["token"] for s in game["seats"]}
    url = f"/v1/games/{game['id']}/actions"
    before = draws()
    for _ in range(3):
        answer = client.post(url, json={"type": "draw", "from": "discard"},
                             headers={"Authorization": f"Bearer {tokens[turn]}",
                                      "Idempotency-Key": "draw-once"})
        assert answer.status_code == 200
    refused = client.post(url, json={"type": "draw", "from": "stock"},
                          headers={"Authorization": f"Bearer {tokens[(turn + 1) % 4]}"})
    assert refused.status_code == 422
    assert draws() - before == 1
