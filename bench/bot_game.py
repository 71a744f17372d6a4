"""Seconds for a whole four-bot game through API, worker and Redis (issue 4: goal <= 20 s).

`python -m bench.bot_game [--games 3] [--levels strong basic basic random]` starts gunicorn
and one `rummy worker` on REDIS_URL (an embedded server when unset), creates each game with
`POST /v1/games` and times it until `GameEnded` arrives on the event long poll.
"""
from __future__ import annotations

import argparse
import statistics
import time

from bench.stack import running_stack
from workers.cli_play_bots import follow, http_json


def one_game(base: str, levels: list[str], seed: int) -> tuple[float, int]:
    """(seconds from POST to GameEnded, events) of one game."""
    seats = [{"kind": "bot", "level": level} for level in levels]
    started = time.perf_counter()
    game = http_json("POST", f"{base}/v1/games", {"seats": seats, "seed": seed})
    if follow(base, game["id"], game["admin_token"], time.monotonic() + 300, echo=lambda _: None) is None:
        raise RuntimeError(f"game {game['id']} did not finish")
    elapsed = time.perf_counter() - started
    return elapsed, http_json("GET", f"{base}/v1/games/{game['id']}")["version"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--levels", nargs=4, default=["strong", "basic", "basic", "random"])
    args = parser.parse_args()
    with running_stack(workers=1) as (base, _):
        times = []
        for seed in range(1, args.games + 1):
            elapsed, events = one_game(base, args.levels, seed)
            times.append(elapsed)
            print(f"game seed={seed}: {elapsed:.1f} s, {events} events "
                  f"({elapsed / events * 1000:.1f} ms/event)")
    print(f"four-bot game ({' '.join(args.levels)}), 1 worker: median {statistics.median(times):.1f} s"
          f", max {max(times):.1f} s over {len(times)} games")


if __name__ == "__main__":
    main()
