"""In-process games per second for each preset of RULES.md R11.20 (issue 10).

`python -m bench.variant_speed [--games 10] [--seed 1] [--players 4 8]` plays `games` seeded
games of basic bots per preset and table size (the bots read lazy seat views, as `rummy
simulate` does) and prints one row per preset with games per second at each size.
"""
from __future__ import annotations

import argparse
import random
import time

from domain.profile import PRESETS, resolve
from domain.simulation import play_game


def games_per_second(preset: str, players: int, games: int, seed: int) -> float:
    """Play `games` games of basic bots under `preset` at `players` seats; return games/s."""
    profile = resolve({"preset": preset, "players": players})
    started = time.perf_counter()
    for number in range(games):
        play_game(("basic",) * players, random.Random(seed + number), profile)
    return games / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, nargs="+", default=[4, 8])
    args = parser.parse_args()
    print("| preset | " + " | ".join(f"{n} players (games/s)" for n in args.players) + " |")
    print("|---|" + "---:|" * len(args.players))
    for preset in PRESETS:
        rates = [games_per_second(preset, n, args.games, args.seed) for n in args.players]
        print(f"| {preset} | " + " | ".join(f"{rate:.2f}" for rate in rates) + " |",
              flush=True)
    print(f"variant speed: basic bots, {args.games} games per cell, one process")


if __name__ == "__main__":
    main()
