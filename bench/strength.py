"""Strength of the bot levels: mixed-level games, mean penalty per level with a 95% interval.

    python -m bench.strength --games 1000
    python -m bench.strength --games 400 --levels strong,basic --jobs 4

Game g seats level ``levels[(g + s) % k]`` at seat s (k levels), so every level sits at every
seat equally often and meets every mix of opponents; the first dealer is random per game
(R2.2). Each (game, seat) gives one sample: that seat's final total (R9.3). The table shows
per level the samples, the mean penalty, its 95% confidence interval (normal approximation,
mean +- 1.96 sd / sqrt(n)) and the share of games won (shared wins count, R9.4).
"""
from __future__ import annotations

import argparse
import math
import random
import time
from concurrent.futures import ProcessPoolExecutor

from domain.simulation import play_game

SEATS = 4


def seating(levels: tuple[str, ...], game: int) -> tuple[str, ...]:
    """The level of each seat in game number ``game`` (rotating, see the module doc)."""
    return tuple(levels[(game + seat) % len(levels)] for seat in range(SEATS))


def play_one(levels: tuple[str, ...], seed: int, game: int) -> list[tuple[str, int, bool]]:
    """Play game ``game``; return ``(level, total, won)`` per seat."""
    seats = seating(levels, game)
    result = play_game(seats, random.Random(f"{seed}:{game}"))
    return [(seats[s], result.totals[s], s in result.winners) for s in range(SEATS)]


def _play_range(args: tuple[tuple[str, ...], int, range]) -> list[tuple[str, int, bool]]:
    levels, seed, games = args
    return [row for game in games for row in play_one(levels, seed, game)]


def run(levels: tuple[str, ...], games: int, seed: int, jobs: int) -> list[tuple[str, int, bool]]:
    """All (level, total, won) samples of ``games`` games, over ``jobs`` processes."""
    if jobs <= 1:
        return _play_range((levels, seed, range(games)))
    chunks = [(levels, seed, range(start, games, jobs)) for start in range(jobs)]
    with ProcessPoolExecutor(jobs) as pool:
        return [row for part in pool.map(_play_range, chunks) for row in part]


def summary(samples: list[tuple[str, int, bool]], levels: tuple[str, ...]) -> list[dict]:
    """Per level: n, mean, 95% interval (low, high) and win share, in ``levels`` order."""
    rows = []
    for level in dict.fromkeys(levels):
        totals = [total for lv, total, _ in samples if lv == level]
        wins = sum(1 for lv, _, won in samples if lv == level and won)
        n = len(totals)
        mean = sum(totals) / n
        sd = math.sqrt(sum((t - mean) ** 2 for t in totals) / (n - 1)) if n > 1 else 0.0
        half = 1.96 * sd / math.sqrt(n)
        rows.append({"level": level, "n": n, "mean": mean, "low": mean - half,
                     "high": mean + half, "wins": wins / n})
    return rows


def markdown(rows: list[dict]) -> str:
    """The summary as a Markdown table (lower penalty is better)."""
    lines = ["| level | seat-games | mean penalty | 95% interval | games won |",
             "|---|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['level']} | {r['n']} | {r['mean']:.1f} | "
                     f"{r['low']:.1f} - {r['high']:.1f} | {100 * r['wins']:.1f}% |")
    return "\n".join(lines)


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
    print(markdown(summary(samples, levels)))
    print(f"\n{args.games} games, seed {args.seed}, {elapsed:.1f} s "
          f"({args.games / elapsed:.2f} games/s over {args.jobs} process(es))")


if __name__ == "__main__":
    main()
