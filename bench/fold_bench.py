"""Fold time of a finished 7-round game's events (budget: 10 ms).

`python -m bench.fold_bench [--games 5] [--repeats 30]`: plays games of four basic bots
(seeds 0..games-1), then folds each game's whole event list `repeats` times and prints the
mean and median milliseconds per fold, with the event counts.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from domain import fold
from domain.simulation import play_game


def fold_times(events: tuple, repeats: int) -> list[float]:
    """Milliseconds of `repeats` folds of `events`."""
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        fold(events)
        times.append((time.perf_counter() - started) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=30)
    args = parser.parse_args()
    times, sizes = [], []
    for seed in range(args.games):
        events = play_game(("basic",) * 4, random.Random(seed)).events
        sizes.append(len(events))
        times += fold_times(events, args.repeats)
    print(f"fold of a finished game ({args.games} games, {min(sizes)}-{max(sizes)} events): "
          f"mean {statistics.mean(times):.2f} ms, median {statistics.median(times):.2f} ms, "
          f"max {max(times):.2f} ms")


if __name__ == "__main__":
    main()
