"""Games per second of four basic bots, in process, on one core.

`python -m bench.simulate_bench [--games 20] [--seed 0]`: plays the games (the bots read
seat views with legal actions, as the service's bots do) and prints games per second and
the mean events per game.
"""
from __future__ import annotations

import argparse
import random
import time

from domain.simulation import batch_gc, play_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    events = 0
    with batch_gc():
        started = time.perf_counter()
        for number in range(args.games):
            events += len(play_game(("basic",) * 4, random.Random(args.seed + number)).events)
        elapsed = time.perf_counter() - started
    print(f"simulate: {args.games / elapsed:.2f} games per second (four basic bots, one core), "
          f"{events / args.games:.0f} events per game")


if __name__ == "__main__":
    main()
