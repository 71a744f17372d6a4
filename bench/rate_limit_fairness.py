"""A flood from one client leaves another client's actions as fast as before (issue 12 "Rate
limits": goal, the other client's action p99 under the flood within 1.5x of its unloaded value).

`python -m bench.rate_limit_fairness [--samples 400] [--rounds 4] [--flooders 2] [--threads 8]` starts the
stack of bench/stack.py (gunicorn as deployed, the default RUMMY_RATE_LIMITS on the app's Redis,
no worker) and prints:
- the victim's action p50/p99 (POST /actions with its seat tokens, paced like players)
  unloaded and while `--flooders` processes (at nice 19: the flood's own CPU is not the
  server's) of `--threads` threads each create games anonymously from one address as fast as
  answered (POST /v1/games); the two alternate in `--rounds` rounds of `--samples` /
  `--rounds` samples each (unloaded, then flooded), so that a drift of the machine's load
  during the run falls on both alike;
- their ratio (goal <= 1.5) and the flood's rate and share of 429 answers.
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import statistics
import threading
import time

import requests

from bench.stack import running_stack
from bench.stats import percentile

HUMANS = [{"kind": "human", "name": f"P{i}"} for i in range(4)]
PACE_S = 0.05  # the victim's pause between actions: 20 actions/s over its four seats
GAMES = 12  # the victim's games, made before any flood (round 1 of each: no worker scores)
# The service's own default budgets (service.config.DEFAULT_RATE_LIMITS) are what is measured;
# the admin key only gives the victim's game creations a budget apart from the flood's address.
ADMIN_KEY = "bench-admin-key-not-for-production"
STACK_ENV = {"RUMMY_RATE_LIMITS": "", "RUMMY_ADMIN_KEY": ADMIN_KEY}


def victim_games(base: str, count: int) -> list[tuple[str, dict]]:
    """`count` new four-human games: (id, Authorization headers by seat)."""
    games = []
    with requests.Session() as http:
        for _ in range(count):
            created = http.post(f"{base}/v1/games", json={"seats": HUMANS},
                                headers={"X-Admin-Key": ADMIN_KEY}).json()
            games.append((created["id"], {s["seat"]: {"Authorization": f"Bearer {s['token']}"}
                                          for s in created["seats"]}))
    return games


def victim_latencies(base: str, games: list, samples: int, seed: int) -> list[float]:
    """ms of `samples` POST /actions, each a random legal action of the seat to act (its view
    read untimed first), taking the next of `games` (popped) when one waits on scoring."""
    rng, times = random.Random(seed), []
    with requests.Session() as http:
        while len(times) < samples:
            if not games:
                raise RuntimeError(f"the victim's {GAMES} games are played out: raise GAMES")
            game_id, auth = games[0]
            seats = http.get(f"{base}/v1/games/{game_id}", headers=auth[0]).json()
            waiting = seats["awaiting"]["seats"]
            if not waiting:
                games.pop(0)
                continue
            view = http.get(f"{base}/v1/games/{game_id}/view", headers=auth[waiting[0]]).json()
            action = rng.choice(view["legal_actions"])
            started = time.perf_counter()
            reply = http.post(f"{base}/v1/games/{game_id}/actions", json=action,
                              headers=auth[waiting[0]])
            times.append((time.perf_counter() - started) * 1000)
            if reply.status_code == 429:
                raise RuntimeError("the victim itself was rate limited: lower its pace")
            time.sleep(PACE_S)
    return times


def flood(base: str, threads: int, flooding, stop, counts) -> None:
    """One flooding process: `threads` threads create games anonymously (the adversarial run's
    348 creations/s of issue 7) while `flooding` is set, until `stop` is set;
    adds (requests, 429s) to `counts`. It runs at the lowest CPU priority: it stands for a
    client on another machine, whose own CPU is not the server's to spend."""
    os.nice(19)
    sent, limited, lock = [0], [0], threading.Lock()

    def run() -> None:
        with requests.Session() as http:
            while not stop.is_set():
                if not flooding.wait(0.1):
                    continue
                reply = http.post(f"{base}/v1/games", json={"seats": HUMANS})
                with lock:
                    sent[0] += 1
                    limited[0] += reply.status_code == 429
    workers = [threading.Thread(target=run) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    with counts.get_lock():
        counts[0] += sent[0]
        counts[1] += limited[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--flooders", type=int, default=2)
    parser.add_argument("--threads", type=int, default=8)
    args = parser.parse_args()
    if args.rounds < 1 or args.samples < args.rounds:
        parser.error("--rounds must be at least 1 and at most --samples")
    per_round = args.samples // args.rounds
    quiet, loaded, flooded_s = [], [], 0.0
    with running_stack(workers=0, env=STACK_ENV) as (base, _):
        games = victim_games(base, GAMES)
        victim_latencies(base, games, 20, seed=0)  # warm up both gunicorn workers
        flooding, stop = multiprocessing.Event(), multiprocessing.Event()
        counts = multiprocessing.Array("l", 2)
        flooders = [multiprocessing.Process(target=flood,
                                            args=(base, args.threads, flooding, stop, counts))
                    for _ in range(args.flooders)]
        for proc in flooders:
            proc.start()
        for number in range(args.rounds):
            quiet += victim_latencies(base, games, per_round, seed=2 * number + 1)
            flooding.set()
            time.sleep(1.0)  # the flood is under way before the first sample
            started = time.monotonic()
            loaded += victim_latencies(base, games, per_round, seed=2 * number + 2)
            flooded_s += time.monotonic() - started + 1.0
            flooding.clear()
            time.sleep(1.0)  # the flood's held answers are over before the next quiet sample
        stop.set()
        for proc in flooders:
            proc.join()
    sent, limited = counts[0], counts[1]
    print(f"victim action p50/p99 unloaded {statistics.median(quiet):.1f}/{percentile(quiet, 0.99):.1f} ms"
          f" | under flood {statistics.median(loaded):.1f}/{percentile(loaded, 0.99):.1f} ms"
          f" ({len(quiet)} samples each, {args.rounds} rounds)")
    print(f"p99 ratio {percentile(loaded, 0.99) / percentile(quiet, 0.99):.2f} (goal <= 1.5) | flood "
          f"{sent / flooded_s:.0f} requests/s from {args.flooders}x{args.threads} threads, "
          f"{100 * limited / max(sent, 1):.0f}% answered 429")


if __name__ == "__main__":
    main()
