"""In-process engine speed: four basic bots, one core, against issue 12's goal of 50 games/s.

`python -m bench.engine [--games 100] [--seed 1] [--repeats 3] [--cpu N]` plays the same
seeded games `repeats` times (the bots read lazy seat views with legal actions, as
`rummy simulate` does) and prints each run's games per second, the best, and whether the
best meets the goal. `--cpu N` pins the process to that core first (Linux). The games run
under `domain.simulation.batch_gc`, as `rummy simulate`'s do. On a shared
machine the best run is the least disturbed one; the figure is pessimistic under load.
"""
from __future__ import annotations

import argparse
import os
import random
import time

from domain.simulation import batch_gc, play_game

GOAL = 50.0   # games per second, issue 12


def games_per_second(games: int, seed: int) -> float:
    """Play `games` four-basic-bot games, seeds `seed`, `seed + 1`, ...; return games/s."""
    with batch_gc():
        started = time.perf_counter()
        for number in range(games):
            play_game(("basic",) * 4, random.Random(seed + number))
        return games / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cpu", type=int, default=None, help="pin to this core (Linux)")
    args = parser.parse_args()
    if args.cpu is not None:
        os.sched_setaffinity(0, {args.cpu})
    rates = []
    for run in range(args.repeats):
        rates.append(games_per_second(args.games, args.seed))
        print(f"run {run + 1}: {rates[-1]:.1f} games per second", flush=True)
    best = max(rates)
    print(f"engine: {best:.1f} games per second, best of {args.repeats} "
          f"(four basic bots, {args.games} games, one core); goal >= {GOAL:.0f}: "
          f"{'met' if best >= GOAL else 'not met'}")


if __name__ == "__main__":
    main()
