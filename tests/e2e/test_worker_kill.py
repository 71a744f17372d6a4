"""A worker SIGKILLed while it plays games of bots (issue 12, docs/workers.md "Failures"): its
leased game goes back to the ready queue when the lease ends (RUMMY_SWEEP_STALE_S, 3 s here)
and another worker finishes every game, each event appended once (versions contiguous, each
round dealt and scored once)."""
from __future__ import annotations

import signal
import time

import pytest
import redis

from e2e_harness import ADMIN_KEY, stop
from service.ready_games import ReadyGames
from test_games import BOTS

pytestmark = pytest.mark.slow


def test_the_games_of_a_killed_worker_are_finished_by_another(client, start_worker, redis_url):
    first = start_worker()
    games = [client.create(BOTS, seed=seed) for seed in (1301, 1302, 1303)]
    ready = ReadyGames(redis.Redis.from_url(redis_url))
    deadline = time.monotonic() + 30
    while not ready.leased():  # the worker is playing one of them
        assert time.monotonic() < deadline
        time.sleep(0.01)
    stop(first, signal.SIGKILL)
    held = ready.leased()
    assert held  # left leased by the killed worker
    start_worker()
    for game in games:
        events = client.events(game["id"], ADMIN_KEY)
        deadline = time.monotonic() + 90
        while not events or events[-1]["type"] != "GameEnded":
            assert time.monotonic() < deadline, client.table(game["id"])["awaiting"]
            events += client.events(game["id"], ADMIN_KEY, after=len(events), wait=5)
        assert [e["version"] for e in events] == list(range(1, len(events) + 1))
        dealt = [e["data"]["round"] for e in events if e["type"] == "RoundDealt"]
        assert dealt == list(range(1, 8))
        assert [e["type"] for e in events].count("RoundScored") == 7
    deadline = time.monotonic() + 5  # the last slice's release follows its append
    while ready.leased() or ready.queued():
        assert time.monotonic() < deadline, (ready.leased(), ready.queued())
        time.sleep(0.05)
