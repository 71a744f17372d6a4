"""p50 latency of GameService.seat_view on a game at version ~1,500 (issue 3 "Benchmarks").

`python -m bench.view_bench [--target 1500] [--samples 300]` on REDIS_URL, or on an embedded
server when unset. The game is built by scripted play through the service (a random legal
action of a seat that must act; rounds scored as the workers would). Three figures:
- warm: the same process again (in-process snapshot of the latest state, nothing to fold);
- cold: a fresh process's first read each time (Redis snapshot, fold of the tail <= 100);
- no snapshots: a full fold of every event, what every read would cost without the cache.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from domain import awaiting
from service.bootstrap import wire
from service.config import Settings
from service.embedded import EmbeddedRedis
from service.principal import Principal
from service.snapshots import Snapshots

HUMANS = [{"kind": "human"} for _ in range(4)]


def build_game(service, target: int, seed: int) -> dict:
    """A game played to at least version `target` (or its end); returns what create_game
    returned (its id and seat tokens)."""
    rng = random.Random(seed)
    created = service.create_game(HUMANS, seed=seed)
    game_id = created["id"]
    while True:
        version, state = service.load(game_id)
        wait = awaiting(state)
        if version >= target or wait.status == "finished":
            return created
        if wait.status == "scoring":
            service.system_act(game_id, {"type": "score_round"}, version)
            continue
        seat = Principal(seat=wait.seats[0])
        service.act(game_id, seat, rng.choice(service.seat_view(game_id, seat)[1]["legal_actions"]))


def p50_ms(read, samples: int) -> float:
    """Median wall time of `read()` in milliseconds."""
    times = []
    for _ in range(samples):
        started = time.perf_counter()
        read()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def run(url: str, target: int, samples: int) -> None:
    settings = Settings(redis_url=url)
    service = wire(settings).service
    started = time.perf_counter()
    game_id = build_game(service, target, seed=1)["id"]
    version = service.store.version(game_id)
    print(f"game {game_id} at version {version}, built in {time.perf_counter() - started:.1f} s")
    seat = Principal(seat=0)
    warm = p50_ms(lambda: service.seat_view(game_id, seat), samples)
    cold = p50_ms(lambda: wire(settings).service.seat_view(game_id, seat), max(samples // 5, 20))
    bare = wire(settings).service
    bare.loader.snapshots = Snapshots()
    full = p50_ms(lambda: bare.seat_view(game_id, seat), max(samples // 5, 20))
    print(f"seat_view p50 at version {version}: warm {warm:.2f} ms | cold process {cold:.2f} ms"
          f" | no snapshots (full fold) {full:.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", type=int, default=1500)
    parser.add_argument("--samples", type=int, default=300)
    args = parser.parse_args()
    if os.environ.get("REDIS_URL"):
        run(os.environ["REDIS_URL"], args.target, args.samples)
        return
    with EmbeddedRedis() as server:
        run(server.url, args.target, args.samples)


if __name__ == "__main__":
    main()
