"""Instructions per in-process game: the engine's cost on a noisy host, where games/s is not.

`python -m bench.engine_instructions [--games 3]` runs `bench.engine`'s games (four basic
bots, seeds 1..N) under `valgrind --tool=cachegrind --cache-sim=no`, and again with no game,
and prints the difference per game in millions of instructions. The count is the same on
every run (hash seed fixed), so a change of 1% shows, where a shared machine's games/s swing
by a third between runs (bench/README.md, the fifth pass). Needs valgrind (Debian:
`apt-get install valgrind`); 7-10 s for 3 games here.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys

# bench.engine's own games, in a process of their own (0 games: the interpreter's start alone).
GAMES = "import sys; from bench.engine import games_per_second; games_per_second(int(sys.argv[1]), 1)"


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
