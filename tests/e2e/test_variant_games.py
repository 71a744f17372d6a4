"""Variant games end to end (issue 10): gunicorn, a real `rummy worker`, real HTTP. Bots play
a six-seat Shanghai game and an eight-seat standard game to the end (cuts, claims, capped
purchases and two penalty cards included), a Liverpool deal awaits its human cutter, and a
silent human's Shanghai claim window closes at the service's deadline."""
from __future__ import annotations

import pytest

from service.clock import parse_rfc3339

pytestmark = pytest.mark.slow

LEVELS = ("strong", "basic", "random")
GAME_TIMEOUT_S = 240
# A low turn cap (R10.4) keeps the long final rounds of big tables short: the test is about
# every option being played to the end by the workers, not about who wins.
TURN_CAP = 60


def bots(count: int) -> list[dict]:
    return [{"kind": "bot", "level": LEVELS[n % 3]} for n in range(count)]


def check_finished(client, game: dict, seats: int, rounds: int) -> list[dict]:
    events = client.follow_to_end(game["id"], game["admin_token"], GAME_TIMEOUT_S)
    table = client.table(game["id"])
    scored = [e["data"] for e in events if e["type"] == "RoundScored"]
    assert table["status"] == "finished" and len(table["scores"]) == seats
    assert len(scored) >= rounds and events[-1]["data"]["totals"] == table["scores"]
    return events


def test_six_bots_play_shanghai_to_the_end(client, worker):
    game = client.create(bots(6), profile={"preset": "shanghai", "max_turns_per_round": TURN_CAP})
    events = check_finished(client, game, 6, 7)
    created = events[0]["data"]["profile"]
    assert (created["players"], created["packs"], created["jokers"]) == (6, 3, 6)
    dealt = [e for e in events if e["type"] == "RoundDealt"]
    assert len(dealt) == 7
    bought = [e for e in events if e["type"] == "PenaltyCardTaken"]
    assert all(e["type"] == "CardBought" for e in (events[events.index(b) - 1] for b in bought))


def test_eight_bots_play_standard_to_the_end(client, worker):
    game = client.create(bots(8), profile={"max_turns_per_round": TURN_CAP})
    events = check_finished(client, game, 8, 7)
    assert events[0]["data"]["profile"]["packs"] == 4


def test_a_liverpool_deal_awaits_the_cut_from_its_human_seat(client, worker):
    seats = [{"kind": "human", "name": "Cutter"}] + bots(3)
    for _ in range(40):  # the first dealer is random: wait for one whose right is seat 0
        game = client.create(seats, profile="liverpool")
        table = client.table(game["id"])
        if table["dealer"] == 1:
            break
    else:
        pytest.fail("no game dealt by seat 1 in 40 tries")
    assert table["awaiting"]["phase"] == "cut" and table["awaiting"]["seats"] == [0]
    assert table["awaiting"]["deadline"] is not None  # the turn clock runs for the cut
    token = game["seats"][0]["token"]
    view = client.get(f"/v1/games/{game['id']}/view", token).json()
    assert view["legal_actions"][0] == {"type": "cut", "count": 1}
    reply = client.act(game["id"], token, {"type": "cut", "count": 40})
    assert reply.status_code == 200, reply.text
    assert reply.json()["view"]["hand_sizes"] == [10] * 4


def test_a_silent_humans_claim_window_closes_at_the_offer_deadline(client, worker):
    # R11.18: silence at the service's deadline is a pass; the window lasts clock.offer_s. Seat
    # 0 is silent (its turns time out and are played for it); every bot claims a fitting
    # discard at once, so seat 0 is awaited only on the uncalled discards of seat 5, its right
    # (a random bot: it calls Shanghai about half the time).
    seats = [{"kind": "human", "name": "Silent"}] + [
        {"kind": "bot", "level": level} for level in ("basic", "random", "basic", "random",
                                                      "random")]
    game = client.create(seats, profile="shanghai",
                         clock={"turn_s": 1, "offer_s": 1, "timeouts_before_takeover": 100})
    seen: list[dict] = []

    def silent_pass(event: dict) -> bool:
        return event["type"] == "ClaimPassed" and event["data"]["seat"] == 0

    passed = client.wait_for(game["id"], game["admin_token"], silent_pass, 240, seen)
    opened = next(e for e in reversed(seen[:passed["version"] - 1]) if e["type"] == "ClaimOpened")
    assert opened["data"]["discarder"] != 0
    waited_ms = parse_rfc3339(passed["recorded_at"]) - parse_rfc3339(opened["recorded_at"])
    assert waited_ms >= 1000  # never before the deadline
    closed = client.wait_for(game["id"], game["admin_token"],
                             lambda e: e["type"] == "ClaimClosed"
                             and e["version"] > passed["version"], 10, seen)
    assert closed["data"]["claimer"] != 0
    assert client.post(f"/v1/games/{game['id']}/abort", game["admin_token"]).status_code == 200
