"""Whole games end to end (issue 4): gunicorn, a real `rummy worker`, real HTTP, a real server.
Games run by themselves where they should: bots play, rounds are scored once, silent humans
are passed over at the buy-offer deadline, and a killed worker loses nothing."""
from __future__ import annotations

import random
import signal
import time

import pytest

from e2e_harness import ADMIN_KEY, OFFER_DEADLINE_S, stop

BOTS = [{"kind": "bot", "level": level} for level in ("strong", "basic", "random", "basic")]
GAME_TIMEOUT_S = 60

pytestmark = pytest.mark.slow


def check_scores(events: list[dict], table: dict) -> None:
    """Seven rounds scored once each; final totals are the sums of the round scores (R9.3)."""
    assert [e["version"] for e in events] == list(range(1, len(events) + 1))
    scored = [e["data"] for e in events if e["type"] == "RoundScored"]
    assert [s["round"] for s in scored] == list(range(1, 8))
    sums = [sum(s["scores"][seat] for s in scored) for seat in range(4)]
    ended = events[-1]["data"]
    assert table["status"] == "finished" and table["scores"] == sums == ended["totals"]
    assert table["round_scores"] == [s["scores"] for s in scored]
    assert ended["winners"] == [seat for seat in range(4) if sums[seat] == min(sums)]


def test_four_bots_finish_by_themselves_and_the_export_replays_to_the_same_end(client, worker):
    game = client.create(BOTS, seed=101)
    events = client.follow_to_end(game["id"], game["admin_token"], GAME_TIMEOUT_S)
    table = client.table(game["id"])
    check_scores(events, table)

    record = client.get(f"/v1/games/{game['id']}/export", game["admin_token"]).json()
    reply = client.http.post(f"{client.base}/v1/games/import", json=record,
                             headers={"X-Admin-Key": ADMIN_KEY}, timeout=10)
    assert reply.status_code == 201, reply.text
    copy = reply.json()
    assert {**client.table(copy["id"]), "origin": "seeded"} == table
    last = table["version"]
    replayed = client.get(f"/v1/games/{copy['id']}/replay?version={last}", copy["admin_token"])
    original = client.get(f"/v1/games/{game['id']}/replay?version={last}", game["admin_token"])
    copied, played = replayed.json(), original.json()
    assert copied.pop("recorded_at") >= played.pop("recorded_at")  # imported later, anew
    assert copied["origin"] == "import" and played["origin"] == "seeded"
    assert {**copied, "origin": "seeded"} == played


def test_a_random_human_and_three_bots_finish(client, worker):
    game = client.create([{"kind": "human", "name": "Ann"}] + BOTS[1:], seed=202)
    token = game["seats"][0]["token"]
    rng = random.Random(202)
    deadline = time.monotonic() + GAME_TIMEOUT_S * 2
    while True:
        assert time.monotonic() < deadline, client.table(game["id"])["awaiting"]
        view = client.get(f"/v1/games/{game['id']}/view", token).json()
        if view["status"] == "finished":
            break
        if 0 in view["awaiting"]["seats"] and view["legal_actions"]:
            reply = client.act(game["id"], token, rng.choice(view["legal_actions"]),
                               version=view["version"])
            assert reply.status_code in (200, 409), reply.text  # 409: the deadline or a bot won
            continue
        client.events(game["id"], token, after=view["version"], wait=5)  # until something moves
    check_scores(client.events(game["id"], game["admin_token"]), client.table(game["id"]))


def test_a_buy_offer_waiting_on_silent_humans_closes_at_its_deadline(client, worker):
    game = client.create([{"kind": "human"}] * 4, seed=303)
    tokens = [seat["token"] for seat in game["seats"]]
    table = client.table(game["id"])
    active = table["awaiting"]["turn"]
    reply = client.act(game["id"], tokens[active], {"type": "draw", "from": "stock"})
    assert reply.status_code == 200, reply.text
    offered = reply.json()["version"]
    assert reply.json()["view"]["awaiting"]["phase"] == "buying"
    started = time.monotonic()
    events = client.events(game["id"], game["admin_token"], after=offered, wait=10)
    waited = time.monotonic() - started
    assert events, "the offer did not close"
    assert OFFER_DEADLINE_S * 0.8 <= waited <= OFFER_DEADLINE_S + 4
    assert "BuyRequested" not in {e["type"] for e in events}
    table = client.table(game["id"])
    assert table["offer"] is None and table["awaiting"]["seats"] == [active]


def test_a_game_survives_its_worker_killed_mid_game(client, start_worker, worker):
    game = client.create(BOTS, seed=404)
    seen: list[dict] = []
    while len(seen) < 400:  # well into the game (a few rounds)
        seen += client.events(game["id"], game["admin_token"], after=len(seen), wait=5)
        assert seen[-1]["type"] != "GameEnded", "finished before the kill"
    stop(worker, signal.SIGKILL)
    start_worker()
    events = client.follow_to_end(game["id"], game["admin_token"], GAME_TIMEOUT_S)
    check_scores(events, client.table(game["id"]))
    dealt = [e["data"]["round"] for e in events if e["type"] == "RoundDealt"]
    assert dealt == list(range(1, 8))
