"""The lobby end to end (issue 8 test 2, docs/lobby.md): gunicorn, a real `rummy worker`, a
real server. A game with open seats is joined by code from two separate HTTP clients and
started by its host; the seat nobody took is played by its bot and the game finishes; a lobby
nobody starts is expired by the sweeper; a finished game's rematch hands each human seat a new
token; a private game is a 404 without a token."""
from __future__ import annotations

import time

import pytest
import requests

from e2e_harness import Client

pytestmark = pytest.mark.slow
LOBBY_TTL_S = 10  # the first test's joins and start take well under it, even on a busy machine
HOST = {"kind": "human", "name": "Host"}
OPEN = {"kind": "open", "level": "basic"}
# One-second turns and a takeover at the first timeout: silent humans cost the game seconds.
CLOCK = {"turn_s": 1, "offer_s": 1, "timeouts_before_takeover": 1}


@pytest.fixture(scope="module")
def e2e_env(e2e_env):
    """The harness's environment with a short lobby time to live."""
    return {**e2e_env, "RUMMY_LOBBY_TTL_S": str(LOBBY_TTL_S)}


def join(base: str, code: str, name: str) -> dict:
    """POST /v1/games/join from a client of its own (a separate HTTP session)."""
    with requests.Session() as session:
        reply = session.post(f"{base}/v1/games/join", json={"code": code, "name": name},
                             headers={"Idempotency-Key": f"join-{name}-{code}"}, timeout=10)
    assert reply.status_code == 201, reply.text
    return reply.json()


@pytest.fixture(scope="module", autouse=True)
def unstarted_lobby(client: Client, api_url, worker) -> dict:
    """A lobby joined once and never started, made before the module's first test, so that
    its time to live runs out while the other tests play (not after them)."""
    game = client.create([HOST, OPEN, OPEN, OPEN])
    join(api_url, game["join_code"], "Early")
    return game


def test_two_join_by_code_the_host_starts_a_bot_plays_the_third_seat_to_the_end(
        client: Client, api_url, worker):
    game = client.create([HOST, OPEN, OPEN, OPEN], clock=CLOCK)
    gid, code = game["id"], game["join_code"]
    assert client.table(gid)["status"] == "waiting"
    ann, bob = join(api_url, code.lower(), "Ann"), join(api_url, code, "Bob")
    assert (ann["game_id"], ann["seat"], bob["seat"]) == (gid, 1, 2)
    started = client.post(f"/v1/games/{gid}/start", game["admin_token"],
                          **{"Idempotency-Key": "start-1"})
    assert started.status_code == 200, started.text
    assert started.json()["table"]["status"] == "playing"
    view = client.get(f"/v1/games/{gid}/view", ann["token"]).json()
    assert view["seat"] == 1 and len(view["hand"]) > 0
    events = client.follow_to_end(gid, game["admin_token"], 55)
    types = [e["type"] for e in events]
    assert types[:7] == ["GameCreated", "ClockSet", "SeatsOpened", "SeatJoined", "SeatJoined",
                         "GameStarted", "RoundDealt"]
    # seat 3, open and not joined, was played by its bot: it acted and never timed out
    assert any(e["data"].get("seat") == 3 for e in events if e["type"] == "CardDiscarded")
    assert all(e["data"]["seat"] != 3 for e in events if e["type"] == "TurnTimedOut")
    table = client.table(gid)
    assert table["status"] == "finished" and table["lobby"]["joined"] == [None, "Ann", "Bob", None]
    rematch_and_new_tokens(client, gid, game, ann)


def rematch_and_new_tokens(client: Client, gid: str, game: dict, ann: dict) -> None:
    """The finished game's rematch: one follow-up; Ann's old token takes her new one."""
    first = client.post(f"/v1/games/{gid}/rematch", ann["token"])
    assert first.status_code == 201, first.text
    again = client.post(f"/v1/games/{gid}/rematch", game["admin_token"])
    assert again.json()["id"] == first.json()["id"]
    new_id = first.json()["id"]
    table = client.table(new_id)
    assert table["status"] == "playing" and table["origin"] == "rematch"
    assert table["clock"]["turn_s"] == 1 and table["lobby"] is None
    seat = client.get(f"/v1/games/{gid}/rematch", ann["token"])
    assert seat.status_code == 200, seat.text
    assert (seat.json()["game_id"], seat.json()["seat"]) == (new_id, 1)
    newer = client.get(f"/v1/games/{gid}/rematch", ann["token"]).json()["token"]
    assert client.get(f"/v1/games/{new_id}/view", seat.json()["token"]).status_code == 401
    assert client.get(f"/v1/games/{new_id}/view", newer).json()["seat"] == 1
    aborted = client.post(f"/v1/games/{new_id}/abort", game["admin_token"])  # the same host
    assert aborted.status_code == 200, aborted.text


def test_a_lobby_nobody_starts_is_expired_by_the_sweeper(client: Client, api_url,
                                                       unstarted_lobby):
    game = unstarted_lobby
    deadline = time.monotonic() + LOBBY_TTL_S + 20
    while (status := client.table(game["id"])["status"]) == "waiting":
        assert time.monotonic() < deadline, "the lobby was not expired"
        time.sleep(0.5)
    assert status == "expired"
    late = requests.post(f"{api_url}/v1/games/join",
                         json={"code": game["join_code"], "name": "Late"}, timeout=10)
    assert late.status_code == 404
    assert client.post(f"/v1/games/{game['id']}/start", game["admin_token"]).status_code == 409


def test_a_private_game_is_a_404_without_a_token(client: Client, api_url, worker):
    game = client.create([HOST, OPEN, OPEN, OPEN], visibility="private")
    gid = game["id"]
    unknown = client.get("/v1/games/0000000000000000")
    for path in ("", "/events?after=0", "/replay?version=1", "/export"):
        hidden = client.get(f"/v1/games/{gid}{path}")
        assert hidden.status_code == 404, path
        assert hidden.json()["detail"] == unknown.json()["detail"].replace(
            "0000000000000000", gid), path
    assert client.get(f"/v1/games/{gid}", game["seats"][0]["token"]).status_code == 200
    listed = client.get("/v1/games?limit=100").json()["items"]
    assert gid not in {item["id"] for item in listed}
