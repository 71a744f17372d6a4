"""A worker SIGKILLed while a human's turn deadline is due (issue 8 test 5): the timeout still
happens, exactly once, when another worker comes up (docs/clock.md "exactly once")."""
from __future__ import annotations

import signal
import time

import pytest

from e2e_harness import stop
from service.clock import parse_rfc3339

ANN = {"kind": "human", "name": "Ann"}
BOTS = [{"kind": "bot", "level": "basic"}] * 3

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("kill", ["before the deadline", "as it falls due"])
def test_a_deadline_due_while_its_worker_is_killed_times_out_once(client, start_worker, kill):
    """Killed a second before the deadline, the worker leaves it due with nobody to act; killed
    the moment it falls due, the worker may be claiming it, running its job or done with it.
    Either way two new workers racing for it time the turn out exactly once."""
    first = start_worker()
    game = client.create([ANN] + BOTS, seed=515,
                         clock={"turn_s": 2, "offer_s": 1, "timeouts_before_takeover": 5})
    gid, token = game["id"], game["seats"][0]["token"]
    deadline = time.monotonic() + 30
    while True:  # the human's turn is awaited, with its deadline
        assert time.monotonic() < deadline, client.table(gid)["awaiting"]
        view = client.get(f"/v1/games/{gid}/view", token).json()
        if view["awaiting"]["seats"] == [0] and view["phase"] == "draw":
            break
        client.events(gid, token, after=view["version"], wait=1)
    awaited = view["version"]
    due_s = parse_rfc3339(view["awaiting"]["deadline"]) / 1000
    if kill == "as it falls due":
        time.sleep(max(0.0, due_s - time.time()))
    stop(first, signal.SIGKILL)
    time.sleep(max(0.0, due_s - time.time()) + 1.0)
    if kill == "before the deadline":
        assert client.table(gid)["version"] == awaited  # due, and no worker to act on it
    start_worker()
    start_worker()  # two workers racing for the one timeout
    seen = client.events(gid, game["admin_token"], after=awaited, wait=20)
    assert seen and seen[0]["type"] == "TurnTimedOut" and seen[0]["data"] == {"seat": 0}
    time.sleep(2)  # let any duplicate show itself
    after = client.events(gid, game["admin_token"], after=awaited)
    first_turn = []
    for event in after:  # the events of that turn, up to seat 0's discard
        first_turn.append(event)
        if event["type"] == "CardDiscarded" and event["data"]["seat"] == 0:
            break
    assert [e["type"] for e in first_turn].count("TurnTimedOut") == 1
    assert len({e["recorded_at"] for e in first_turn[:2]}) == 1  # one append
