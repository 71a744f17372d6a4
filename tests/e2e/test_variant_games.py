"""Variant games end to end (issue 10): gunicorn, a real `rummy worker`, real HTTP. Bots play
a six-seat Shanghai game and an eight-seat standard game to the end (cuts, claims, capped
purchases and two penalty cards included), and a Liverpool deal awaits its human cutter."""
from __future__ import annotations

import pytest

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
