"""Throughput and latency through gunicorn (issue 3 "Benchmarks").

`python -m bench.http_bench [--clients 4] [--seconds 10] [--target 1500]` starts the stack of
bench/stack.py (gunicorn as deployed, an embedded Redis unless REDIS_URL is set, no worker)
and prints, from one run on one server:
- actions/s: `--clients` client processes each replay a script of random legal actions (recorded
  untimed beforehand on a game of the same seed, so the same deal) as POST /actions only;
- health/s: the same number of client processes calling GET /health for the same time;
- their ratio (goal >= 0.3);
- p50 and p99 of GET /v1/games/{id}/view on a game at version ~`--target`.
"""
from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import time
from multiprocessing.synchronize import Event

import requests

from bench.stack import running_stack

HUMANS = [{"kind": "human", "name": f"P{i}"} for i in range(4)]
# The stack's secret and server admin key: a seed given with the admin key deals the same game
# in every gunicorn worker process (without it the seed is mixed with the game id).
SECRET_ENV = {"RUMMY_SECRET": "bench-secret-not-for-production",
              "RUMMY_ADMIN_KEY": "bench-admin-key-not-for-production"}
ADMIN = {"X-Admin-Key": SECRET_ENV["RUMMY_ADMIN_KEY"]}


def create(http: requests.Session, base: str, seed: int) -> tuple[str, dict]:
    """A new four-human game with `seed` (reproducible: the admin key): (id, Authorization
    headers by seat)."""
    created = http.post(f"{base}/v1/games", json={"seats": HUMANS, "seed": seed},
                        headers=ADMIN).json()
    return created["id"], {s["seat"]: {"Authorization": f"Bearer {s['token']}"}
                           for s in created["seats"]}


def record_script(http: requests.Session, base: str, seed: int, length: int) -> list:
    """Play a game of `seed` by random legal actions (views read over HTTP, untimed); the
    script of (seat, action) pairs, at most `length` long, stopping when nobody can act."""
    rng, script = random.Random(seed), []
    game_id, auth = create(http, base, seed)
    while len(script) < length:
        seats = http.get(f"{base}/v1/games/{game_id}").json()["awaiting"]["seats"]
        if not seats:
            break
        view = http.get(f"{base}/v1/games/{game_id}/view", headers=auth[seats[0]]).json()
        action = rng.choice(view["legal_actions"])
        http.post(f"{base}/v1/games/{game_id}/actions", json=action,
                  headers=auth[seats[0]]).raise_for_status()
        script.append((seats[0], action))
    return script


def run_for(seconds: float, works: list) -> int:
    """Run each `work(session, stop)` in its own PROCESS for `seconds`; the sum of their counts.
    Processes, not threads: threads of one Python process capped GET /health near 1,000/s
    (the GIL), which made the actions/health ratio look better than it is (issue 12)."""
    stop, total = multiprocessing.Event(), multiprocessing.Value("q", 0)

    def client(work) -> None:
        with requests.Session() as http:
            done = work(http, stop)
        with total.get_lock():
            total.value += done

    processes = [multiprocessing.get_context("fork").Process(target=client, args=(work,))
                 for work in works]
    for process in processes:
        process.start()
    time.sleep(seconds)
    stop.set()
    for process in processes:
        process.join()
    return total.value


def replay_script(base: str, seed: int, script: list):
    """A `work` function: POST the recorded actions to new games of the same seed (the same
    deal), one game after another; each POST is one action."""
    def work(http: requests.Session, stop: Event) -> int:
        done = 0
        while not stop.is_set():
            game_id, auth = create(http, base, seed)
            for seat, action in script:
                if stop.is_set():
                    break
                http.post(f"{base}/v1/games/{game_id}/actions", json=action,
                          headers=auth[seat]).raise_for_status()
                done += 1
        return done
    return work


def hit_health(base: str):
    """A `work` function: GET /health as fast as it answers."""
    def work(http: requests.Session, stop: Event) -> int:
        done = 0
        while not stop.is_set():
            http.get(f"{base}/health").raise_for_status()
            done += 1
        return done
    return work


def view_latency_ms(base: str, redis_url: str, target: int, samples: int) -> tuple[float, float, int]:
    """(p50, p99) of GET /view on a game built to version ~`target`, and that version."""
    from bench.view_bench import build_game
    from service.bootstrap import wire
    from service.config import Settings

    service = wire(Settings(redis_url=redis_url, secret=SECRET_ENV["RUMMY_SECRET"])).service
    created = build_game(service, target, seed=1)
    version, _ = service.load(created["id"])
    url = f"{base}/v1/games/{created['id']}/view"
    headers = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
    return (*_latencies(url, headers, samples), version)


def _latencies(url: str, headers: dict, samples: int) -> tuple[float, float]:
    times = []
    with requests.Session() as http:
        for _ in range(samples):
            started = time.perf_counter()
            http.get(url, headers=headers).raise_for_status()
            times.append((time.perf_counter() - started) * 1000)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.99) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--target", type=int, default=1500)
    parser.add_argument("--samples", type=int, default=300)
    args = parser.parse_args()
    with running_stack(workers=0, env=SECRET_ENV) as (base, redis_url):
        with requests.Session() as http:
            scripts = {seed: record_script(http, base, seed, 400) for seed in range(args.clients)}
        replays = [replay_script(base, seed, script) for seed, script in scripts.items()]
        actions = run_for(args.seconds, replays) / args.seconds
        health = run_for(args.seconds, [hit_health(base)] * args.clients) / args.seconds
        print(f"actions/s {actions:.0f} | GET /health/s {health:.0f} | "
              f"ratio {actions / health:.2f} (goal >= 0.3) | {args.clients} clients, "
              f"{args.seconds:.0f} s each")
        p50, p99, version = view_latency_ms(base, redis_url, args.target, args.samples)
        print(f"GET /v1/games/{{id}}/view at version {version}: p50 {p50:.2f} ms, p99 {p99:.2f} ms")


if __name__ == "__main__":
    main()
