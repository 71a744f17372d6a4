"""Strength of the bot levels: mixed-level games, mean penalty per level with a 95% interval.

    python -m bench.strength --games 1000
    python -m bench.strength --games 400 --levels strong,basic --jobs 4

Seats rotate game by game and the statistics are those of domain/strength.py; this module
adds the runner over several processes (`--jobs`). `rummy simulate` prints the same table in
one process.
"""
from __future__ import annotations

import argparse
import random
import time
from concurrent.futures import ProcessPoolExecutor

from domain.simulation import play_game
from domain.strength import Sample, markdown, samples_of, seating, summarize


def play_one(levels: tuple[str, ...], seed: int, game: int) -> list[Sample]:
    """Play game ``game``; return its samples (one per seat)."""
    seats = seating(levels, game)
    result = play_game(seats, random.Random(f"{seed}:{game}"))
    return samples_of(seats, result.totals, result.winners)


def _play_range(args: tuple[tuple[str, ...], int, range]) -> list[Sample]:
    levels, seed, games = args
    return [row for game in games for row in play_one(levels, seed, game)]


def run(levels: tuple[str, ...], games: int, seed: int, jobs: int) -> list[Sample]:
    """All samples of ``games`` games, over ``jobs`` processes."""
    if jobs <= 1:
        return _play_range((levels, seed, range(games)))
    chunks = [(levels, seed, range(start, games, jobs)) for start in range(jobs)]
    with ProcessPoolExecutor(jobs) as pool:
        return [row for part in pool.map(_play_range, chunks) for row in part]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--levels", default="strong,basic,random",
                        help="comma-separated levels, rotated over the seats")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    args = parser.parse_args(argv)
    levels = tuple(args.levels.split(","))
    started = time.perf_counter()
    samples = run(levels, args.games, args.seed, args.jobs)
    elapsed = time.perf_counter() - started
    print(markdown(summarize(samples, levels)))
    print(f"\n{args.games} games, seed {args.seed}, {elapsed:.1f} s "
          f"({args.games / elapsed:.2f} games/s over {args.jobs} process(es))")


if __name__ == "__main__":
    main()
