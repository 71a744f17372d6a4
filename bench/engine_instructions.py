"""Instructions per in-process game: the engine's cost on a noisy host, where games/s is not.

`python -m bench.engine_instructions [--games 3]` runs `bench.engine`'s games (four basic
bots, seeds 1..N) under `valgrind --tool=cachegrind --cache-sim=no`, and again with no game,
and prints the difference per game in millions of instructions. The count is the same on
every run (hash seed fixed), so a change of 1% shows, where a shared machine's games/s swing
by a third between runs (bench/README.md, the fifth pass). Needs valgrind (Debian:
`apt-get install valgrind`); about a minute for 3 games.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys

GAMES = ("import random, sys\n"
         "from domain.simulation import batch_gc, play_game\n"
         "with batch_gc():\n"
         "    for seed in range(1, int(sys.argv[1]) + 1):\n"
         "        play_game(('basic',) * 4, random.Random(seed))\n")


def instructions(games: int) -> int:
    """Instructions (cachegrind's `I refs`) of a process playing `games` games."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    run = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
         sys.executable, "-c", GAMES, str(games)],
        env=env, capture_output=True, text=True, check=True)
    found = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count in valgrind's output:\n{run.stderr[-500:]}")
    return int(found.group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("bench.engine_instructions needs valgrind (apt-get install valgrind)")
    per_game = (instructions(args.games) - instructions(0)) / args.games
    print(f"engine instructions: {per_game / 1e6:.1f} M per game (four basic bots, seeds "
          f"1-{args.games}, cachegrind)")


if __name__ == "__main__":
    main()
