"""Fold of a finished eight-player `eight_deals` game (issue 10: goal at most 10 ms).

`python -m bench.variant_fold [--seed 1] [--repeats 20]` plays one game of eight basic bots
under the `eight_deals` preset (RULES.md R11.20), then folds its events from the start
`repeats` times and prints the best time and whether it meets the goal.
"""
from __future__ import annotations

import argparse
import random
import time

from domain.fold import fold
from domain.profile import resolve
from domain.simulation import play_game

GOAL_MS = 10.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args()
    profile = resolve({"preset": "eight_deals", "players": 8})
    events = play_game(("basic",) * 8, random.Random(args.seed), profile).events
    best = float("inf")
    for _ in range(args.repeats):
        started = time.perf_counter()
        fold(events)
        best = min(best, time.perf_counter() - started)
    ms = best * 1000
    print(f"variant fold: {ms:.2f} ms to fold a finished 8-player eight_deals game "
          f"({len(events)} events), best of {args.repeats}; goal <= {GOAL_MS:.0f} ms: "
          f"{'met' if ms <= GOAL_MS else 'not met'}")


if __name__ == "__main__":
    main()
