"""Comparing bot levels: seats rotated game by game, mean penalty per level with a 95% interval.

Game g seats level ``levels[(g + s) % k]`` at seat s (k levels), so every level sits at every
seat equally often and meets every mix of opponents. Each (game, seat) gives one sample: that
seat's final total (R9.3); lower is better. The interval is the normal approximation
mean +- 1.96 sd / sqrt(n). Wins count shared victories (R9.4).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

SEATS = 4


@dataclass(frozen=True)
class Sample:
    """One seat of one finished game: its bot level, final total (points) and whether it won."""

    level: str
    total: int
    won: bool


@dataclass(frozen=True)
class LevelSummary:
    """Per level: seat-games `n`, mean penalty, its 95% interval (low, high), share of wins."""

    level: str
    n: int
    mean: float
    low: float
    high: float
    wins: float


def seating(levels: tuple[str, ...], game: int, seats: int = SEATS) -> tuple[str, ...]:
    """The level of each of the `seats` seats in game number `game` (rotating, see above)."""
    return tuple(levels[(game + seat) % len(levels)] for seat in range(seats))


def samples_of(seats: tuple[str, ...], totals: tuple[int, ...],
               winners: tuple[int, ...]) -> list[Sample]:
    """The samples of one finished game: one per seat."""
    return [Sample(level, totals[seat], seat in winners) for seat, level in enumerate(seats)]


def summarize(samples: list[Sample], levels: tuple[str, ...]) -> list[LevelSummary]:
    """One LevelSummary per distinct level of `levels`, in that order. Raises
    ZeroDivisionError when a level has no sample."""
    rows = []
    for level in dict.fromkeys(levels):
        totals = [s.total for s in samples if s.level == level]
        n = len(totals)
        mean = sum(totals) / n
        sd = math.sqrt(sum((t - mean) ** 2 for t in totals) / (n - 1)) if n > 1 else 0.0
        half = 1.96 * sd / math.sqrt(n)
        wins = sum(s.won for s in samples if s.level == level) / n
        rows.append(LevelSummary(level, n, mean, mean - half, mean + half, wins))
    return rows


def markdown(rows: list[LevelSummary]) -> str:
    """The summaries as a Markdown table."""
    lines = ["| level | seat-games | mean penalty | 95% interval | games won |",
             "|---|---:|---:|---:|---:|"]
    lines += [f"| {r.level} | {r.n} | {r.mean:.1f} | {r.low:.1f} - {r.high:.1f} | "
              f"{100 * r.wins:.1f}% |" for r in rows]
    return "\n".join(lines)
