"""Helpers of the end-to-end tests: a small HTTP client of the API. Process control (`stop`)
is bench/stack.py's, shared with the benchmarks."""
from __future__ import annotations

import time

import requests

from bench.stack import stop  # noqa: F401 (the tests stop and kill processes with it)

ADMIN_KEY = "e2e-admin-key-0123456789"  # Settings refuses keys under 16 characters
SECRET = "e2e-server-secret"
OFFER_DEADLINE_S = 1.0


class Client:
    """A small HTTP client of the API (cosmicpython's api_client)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.http = requests.Session()

    def close(self) -> None:
        """Close the kept-alive connections: gunicorn's graceful stop waits for an idle one
        until its keepalive (5 s) runs out."""
        self.http.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def create(self, seats: list[dict], seed: int | None = None, **fields) -> dict:
        """POST /v1/games with `seats`, `seed` and any other `fields` (e.g. `clock`)."""
        body = {"seats": seats, **fields} if seed is None else {"seats": seats, "seed": seed,
                                                                 **fields}
        reply = self.http.post(f"{self.base}/v1/games", json=body, timeout=10)
        assert reply.status_code == 201, reply.text
        return reply.json()

    def get(self, path: str, token: str | None = None, **headers) -> requests.Response:
        if token:
            headers["Authorization"] = f"Bearer {token}"
        return self.http.get(f"{self.base}{path}", headers=headers, timeout=40)

    def table(self, game_id: str) -> dict:
        return self.get(f"/v1/games/{game_id}").json()

    def events(self, game_id: str, token: str | None, after: int = 0, wait: float = 0,
               **headers) -> list[dict]:
        """The events after `after` (waiting up to `wait` s for the first), every page of them."""
        found: list[dict] = []
        while True:
            reply = self.get(f"/v1/games/{game_id}/events?after={after}&wait={wait}", token,
                             **headers)
            assert reply.status_code == 200, reply.text
            page = reply.json()
            found += page["events"]
            if not page["more"]:
                return found
            after, wait = page["next_after"], 0

    def act(self, game_id: str, token: str, action: dict, version: int | None = None):
        headers = {"Authorization": f"Bearer {token}"}
        if version is not None:
            headers["If-Match"] = f'"{version}"'
        return self.http.post(f"{self.base}/v1/games/{game_id}/actions", json=action,
                              headers=headers, timeout=10)

    def post(self, path: str, token: str | None = None, **headers) -> requests.Response:
        if token:
            headers["Authorization"] = f"Bearer {token}"
        return self.http.post(f"{self.base}{path}", headers=headers, timeout=10)

    def wait_for(self, game_id: str, token: str, found, timeout_s: float,
                 seen: list[dict]) -> dict:
        """Follow the events (appended to `seen`) until one satisfies `found`; return it."""
        deadline = time.monotonic() + timeout_s
        checked = 0
        while True:
            for event in seen[checked:]:
                if found(event):
                    return event
            checked = len(seen)
            assert time.monotonic() < deadline, f"not seen: {self.table(game_id)['awaiting']}"
            seen += self.events(game_id, token, after=len(seen), wait=2)

    def follow_to_end(self, game_id: str, token: str, timeout_s: float) -> list[dict]:
        """Every event (admin view) until GameEnded; fails after `timeout_s`."""
        seen: list[dict] = []
        deadline = time.monotonic() + timeout_s
        while not seen or seen[-1]["type"] != "GameEnded":
            assert time.monotonic() < deadline, f"not finished: {self.table(game_id)['awaiting']}"
            seen += self.events(game_id, token, after=len(seen), wait=5)
        return seen
