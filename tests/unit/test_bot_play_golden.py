"""Bot play is pinned: the same seeds give the same games, event for event.

Speed work on the bots (domain/bots/planning.py, frame.py, basic.py, strong.py), the
opening search (domain/search.py) and the legal actions (domain/legal.py) must not change a
single decision or a single use of the RNG (issue 12: "bot play unchanged or stronger").
`golden/bot_play.txt` holds, per level mix and seed, the sha256 of the repr of every event
of `play_game(levels, random.Random(seed))` under the standard profile.

Regenerate it only for a change that is meant to alter play (and was measured stronger with
`rummy simulate --games 1000 --seed 0 --levels strong,basic,random`):

    .venv/bin/python -m tests.unit.test_bot_play_golden > tests/unit/golden/bot_play.txt
"""
from __future__ import annotations

import hashlib
import random
from pathlib import Path

import pytest

from domain.simulation import play_game

GOLDEN = Path(__file__).parent / "golden" / "bot_play.txt"
MIXES = (("basic",) * 4, ("strong", "basic", "random", "strong"))
SEEDS = range(6)


def digest(levels: tuple[str, ...], seed: int) -> str:
    """sha256 over the repr of each event of one seeded game (hex)."""
    h = hashlib.sha256()
    for event in play_game(levels, random.Random(seed)).events:
        h.update(repr(event).encode())
    return h.hexdigest()


def lines() -> list[str]:
    """One line per game: `levels seed digest`."""
    return [f"{','.join(levels)} {seed} {digest(levels, seed)}"
            for levels in MIXES for seed in SEEDS]


def _golden() -> list[tuple[str, str, str]]:
    return [tuple(line.split()) for line in GOLDEN.read_text().splitlines() if line]


@pytest.mark.parametrize("levels,seed,expected", _golden())
def test_seeded_games_play_exactly_as_recorded(levels, seed, expected):
    assert digest(tuple(levels.split(",")), int(seed)) == expected


if __name__ == "__main__":
    print("\n".join(lines()))
