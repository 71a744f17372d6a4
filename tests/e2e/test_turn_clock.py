"""The turn clock end to end (issue 8, docs/clock.md): gunicorn, a real `rummy worker` and a
real server, with one-second clocks. A silent human times out, is taken over and the game
finishes; a seat taken over is reclaimed and then played by its human."""
from __future__ import annotations

import time

import pytest

from service.clock import TURN_STARTS, parse_rfc3339

BOTS = [{"kind": "bot", "level": "basic"}] * 3
ANN = {"kind": "human", "name": "Ann"}

pytestmark = pytest.mark.slow


def test_one_silent_human_times_out_is_taken_over_and_the_game_finishes(client, worker):
    game = client.create([ANN] + BOTS, seed=808,
                         clock={"turn_s": 1, "offer_s": 1, "timeouts_before_takeover": 2})
    events = client.follow_to_end(game["id"], game["admin_token"], 55)
    timed_out = [e for e in events if e["type"] == "TurnTimedOut"]
    taken = [e for e in events if e["type"] == "SeatTakenOver"]
    assert [e["data"] for e in timed_out] == [{"seat": 0}, {"seat": 0}]
    assert [e["data"] for e in taken] == [{"seat": 0, "level": "basic", "reason": "timeouts"}]
    assert taken[0]["version"] == timed_out[1]["version"] + 1  # in the second timeout's append
    for event in timed_out:  # never early: at or after its turn's deadline
        start = next(e for e in reversed(events[:event["version"] - 1])
                     if e["type"] in TURN_STARTS)
        late_ms = parse_rfc3339(event["recorded_at"]) - parse_rfc3339(start["recorded_at"])
        assert late_ms >= 1000
    table = client.table(game["id"])
    assert table["status"] == "finished" and table["taken_over"][0]["reason"] == "timeouts"
    assert table["awaiting"]["deadline"] is None


def test_a_seat_taken_over_is_reclaimed_and_then_played_by_its_human(client, worker):
    game = client.create([ANN] + BOTS, seed=909,
                         clock={"turn_s": 3, "offer_s": 1, "timeouts_before_takeover": 1})
    gid, token = game["id"], game["seats"][0]["token"]
    seen: list[dict] = []
    client.wait_for(gid, game["admin_token"], lambda e: e["type"] == "SeatTakenOver", 30, seen)
    reply = client.post(f"/v1/games/{gid}/seats/0/reclaim", token,
                        **{"Idempotency-Key": "reclaim-1"})
    assert reply.status_code == 200, reply.text
    reclaimed_at = reply.json()["version"]
    # the game waits for the human again: its next turn has a deadline and nobody plays it
    deadline = time.monotonic() + 30
    while True:
        assert time.monotonic() < deadline, client.table(gid)["awaiting"]
        view = client.get(f"/v1/games/{gid}/view", token).json()
        if view["awaiting"]["seats"] == [0] and view["phase"] in ("draw", "play"):
            break
        client.events(gid, token, after=view["version"], wait=1)
    assert view["awaiting"]["deadline"] is not None and view["taken_over"][0] is None
    if view["phase"] == "draw":  # the discard top: no buy offer to wait for (R5.2)
        reply = client.act(gid, token, {"type": "draw", "from": "discard"}, view["version"])
        assert reply.status_code == 200, reply.text
        view = reply.json()["view"]
    discard = next(a for a in view["legal_actions"] if a["type"] == "discard")
    reply = client.act(gid, token, discard, version=view["version"])
    assert reply.status_code == 200, reply.text
    after = client.events(gid, game["admin_token"], after=reclaimed_at)
    mine = [e["type"] for e in after if e["data"].get("seat") == 0]
    assert "TurnTimedOut" not in mine and "CardDiscarded" in mine
