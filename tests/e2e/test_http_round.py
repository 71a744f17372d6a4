"""A client with plain HTTP only plays round 1 of a four-human game to its end through
gunicorn (issue 3 "Done when"): every action is one of the acting seat's legal actions, sent
with its version; the round ends (a seat goes out R5.7, or R10.2/R10.4) and the game then
waits on the round's scoring (R9)."""
from __future__ import annotations

import random

import pytest

from e2e_harness import ADMIN_KEY

HUMANS = [{"kind": "human", "name": name} for name in ("Ann", "Bob", "Cid", "Dee")]
PREFERRED = ("open", "lay_off", "swap_joker")  # play toward the end of the round
MAX_ACTIONS = 5000

pytestmark = pytest.mark.slow


def choose(view: dict, rng: random.Random) -> dict:
    """A legal action of `view`: melding first, otherwise any at random."""
    preferred = [a for a in view["legal_actions"] if a["type"] in PREFERRED]
    return rng.choice(preferred or view["legal_actions"])


def test_four_humans_play_round_one_to_its_end_over_plain_http(client):
    game = client.create(HUMANS, seed=404)
    tokens = {seat["seat"]: seat["token"] for seat in game["seats"]}
    rng = random.Random(404)
    view = client.get(f"/v1/games/{game['id']}/view", tokens[0]).json()
    for _ in range(MAX_ACTIONS):
        if view["status"] != "playing":
            break
        seat = view["awaiting"]["seats"][0]
        if view["seat"] != seat:  # an action's reply is its seat's view: another seat acts next
            view = client.get(f"/v1/games/{game['id']}/view", tokens[seat]).json()
        reply = client.act(game["id"], tokens[seat], choose(view, rng), version=view["version"])
        assert reply.status_code == 200, reply.text
        view = reply.json()["view"]
    table = client.table(game["id"])
    assert table["status"] == "scoring" and table["round"] == 1 and view["status"] == "scoring"
    assert table["round_end"]["reason"] in ("went_out", "no_card", "turn_cap")
    full = client.get(f"/v1/games/{game['id']}/replay?version={table['version']}",
                      **{"X-Admin-Key": ADMIN_KEY}).json()  # a live game: the server's key
    cards = (sum(map(len, full["hands"])) + len(full["stock"]) + full["discard_size"]
             + sum(len(meld["cards"]) for meld in full["melds"]))
    assert cards == 107  # R1.4, as the round ended
