"""A Locust load test of the whole service (issue 12 "A load test with Locust").

Three kinds of users, their numbers fixed by environment variables (so a driver such as
bench.load_knee sets the mix; Locust's -u must be their sum):

- `Player` (RUMMY_LOAD_PLAYERS): a human seat against three basic bots, one game in flight per
  user. It thinks (RUMMY_LOAD_THINK_S, default "1-3" seconds) before each action, answers buy
  offers (pass, naming the offered card: no If-Match needed), draws from the stock and
  discards; while others play it waits on the long poll. Its POST /actions latency is the
  figure a person feels ("POST /actions" in the stats).
- `Listener` (RUMMY_LOAD_LISTENERS): a spectator holding the public SSE stream of a game being
  played for up to 30 s, then another ("SSE /stream": time to its first event).
- `BotTable` (RUMMY_LOAD_BOT_TABLES): an all-bot game (four basic bots) followed to its end by
  GET /v1/games/{id} each second, then another: load on the workers that no person waits on.

Run by hand: `locust -f bench/locustfile.py --headless -u 12 -r 12 -t 60s --host URL` with
RUMMY_LOAD_PLAYERS=10 RUMMY_LOAD_LISTENERS=1 RUMMY_LOAD_BOT_TABLES=1 (rate limits off on the
server: RUMMY_RATE_LIMITS=off). bench.load_knee runs it against bench.stack.
"""
from __future__ import annotations

import os
import random
import time

from locust import FastHttpUser, HttpUser, between, task

FINISHED = ("finished", "aborted")
OPEN_CLOCK = {"turn_s": None}  # a person may think; the load test measures the service


def _count(name: str) -> int:
    return int(os.environ.get(name, "0"))


def _think() -> tuple[float, float]:
    low, _, high = os.environ.get("RUMMY_LOAD_THINK_S", "1-3").partition("-")
    return float(low), float(high or low)


LIVE_GAMES: list[str] = []  # games of this Locust process's players, for the listeners


class Player(FastHttpUser):
    """A human seat against three bots (see the module docstring)."""

    fixed_count = _count("RUMMY_LOAD_PLAYERS")
    wait_time = between(*_think())

    def on_start(self) -> None:
        self._new_game()

    def _new_game(self) -> None:
        seats = [{"kind": "human"}] + [{"kind": "bot", "level": "basic"}] * 3
        with self.client.post("/v1/games", json={"seats": seats, "clock": OPEN_CLOCK},
                              name="POST /v1/games", catch_response=True) as reply:
            game = reply.json()
        self.game_id = game["id"]
        self.auth = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
        LIVE_GAMES.append(self.game_id)
        del LIVE_GAMES[:-200]

    @task
    def play(self) -> None:
        """Wait for this seat's turn (long poll), then act once."""
        url = f"/v1/games/{self.game_id}"
        view = self.client.get(f"{url}/view", headers=self.auth, name="GET view").json()
        while view["status"] not in FINISHED and 0 not in view["awaiting"]["seats"]:
            self.client.get(f"{url}/events?after={view['version']}&wait=10", headers=self.auth,
                            name="GET events (long poll)")
            view = self.client.get(f"{url}/view", headers=self.auth, name="GET view").json()
        if view["status"] in FINISHED:
            self._new_game()
            return
        with self.client.post(f"{url}/actions", json=_choose(view), headers=self.auth,
                              name="POST /actions", catch_response=True) as reply:
            if reply.status_code in (409, 422):  # a bot closed the offer first: not a failure
                reply.success()


def _choose(view: dict) -> dict:
    """Pass on an offer (naming its card), draw from the stock, else a legal action (almost
    always a discard; opening when the bots' analysis is not ours to copy)."""
    legal = view["legal_actions"]
    for action in legal:
        if action.get("type") == "pass":
            return action
    for action in legal:
        if action.get("type") == "draw" and action.get("from") == "stock":
            return action
    discards = [a for a in legal if a.get("type") == "discard"]
    return random.choice(discards or legal)


class Listener(HttpUser):
    """A spectator on the public SSE stream of a live game (see the module docstring)."""

    fixed_count = _count("RUMMY_LOAD_LISTENERS")
    wait_time = between(0.5, 1.0)
    HOLD_S = 30

    @task
    def watch(self) -> None:
        if not LIVE_GAMES:
            return
        game_id = random.choice(LIVE_GAMES)
        started = time.monotonic()
        with self.client.get(f"/v1/games/{game_id}/stream", stream=True, timeout=self.HOLD_S,
                             name="SSE /stream", catch_response=True) as reply:
            try:
                for line in reply.iter_lines():
                    if time.monotonic() - started > self.HOLD_S:
                        break
            except Exception:  # noqa: BLE001 - the server ended a held stream; reconnect
                pass
            reply.success()


class BotTable(FastHttpUser):
    """An all-bot game followed to its end, then another (see the module docstring)."""

    fixed_count = _count("RUMMY_LOAD_BOT_TABLES")
    wait_time = between(0.5, 1.0)

    @task
    def table(self) -> None:
        seats = [{"kind": "bot", "level": "basic"}] * 4
        game = self.client.post("/v1/games", json={"seats": seats},
                                name="POST /v1/games (bots)").json()
        status = "playing"
        while status not in FINISHED:
            time.sleep(1)
            status = self.client.get(f"/v1/games/{game['id']}", name="GET table").json()["status"]
