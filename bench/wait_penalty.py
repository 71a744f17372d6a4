"""What a wait between two bot turns costs the next one (issue 12: the worker's CPU ratio).

`python -m bench.wait_penalty [--games 20] [--repeats 3] [--levels L L L L]` plays the same
seeded four-bot games in process, each bot turn decided as a worker decides it
(service.bot_turns.BotTurn, the round scored by `decide`), back to back and then with one
Redis round trip (a PING, on REDIS_URL or an embedded server) after each turn, as a worker's
thread waits for its append's reply; `--repeats` times, alternating. It prints the thread
CPU of the bot turns alone, in microseconds per event, for both (the best of the repeats),
and their ratio.

The turns decide the same events either way; only what the core did in between differs: the
server's work and the wait cost the next turn its caches. This is part of why a worker's CPU
per game is ~3x the in-process time of the same game (`bench.bot_fairness`) and not only its
Redis client and bookkeeping (docs/workers.md "Where a worker's CPU goes").
"""
from __future__ import annotations

import argparse
import os
import random
import time

import redis

from domain import decide, fold
from domain.decide import start_game
from domain.profile import RuleProfile
from domain.state import FINISHED, SCORING
from service.bot_turns import BotTurn
from service.decisions import decision_rng
from service.embedded import EmbeddedRedis
from workers.turns import SCORE

LEVELS = ["strong", "basic", "basic", "random"]  # bench.bot_fairness's mix


def turns_cpu_s(levels: list[str], seed: int, client: redis.Redis | None) -> tuple[float, int]:
    """(thread CPU seconds of the game's bot turns, its events) of one game of `levels`
    seeded `seed`, with a PING to `client` after each bot turn (None: none)."""
    seats = dict(enumerate(levels))
    rng_seed = f"wait-penalty:{seed}"
    events = list(start_game(RuleProfile(), len(levels), random.Random(seed)))
    state, version, spent = fold(events), len(events), 0.0
    while state.status != FINISHED:
        if state.status == SCORING:
            new = decide(state, None, SCORE, decision_rng(rng_seed, version))
            state = fold(new, state)
        else:
            started = time.thread_time()
            turn = BotTurn(rng_seed, lambda _: seats)(state, version)
            spent += time.thread_time() - started
            new, state = turn.events, turn.state
            if client is not None:
                client.ping()
        version += len(new)
    return spent, version


def per_event_us(levels: list[str], games: int, client: redis.Redis | None) -> float:
    """Mean thread CPU of the bot turns, in microseconds per event, over `games` games (a PING
    to `client` after each turn unless None)."""
    spent = events = 0
    for seed in range(games):
        cpu_s, count = turns_cpu_s(levels, seed, client)
        spent, events = spent + cpu_s, events + count
    return spent / events * 1e6


def measure(url: str, levels: list[str], games: int, repeats: int) -> None:
    """Print the best per-event CPU back to back and with a round trip to `url`, and the
    ratio."""
    client = redis.Redis.from_url(url)
    back_to_back, waiting = [], []
    for _ in range(repeats):
        back_to_back.append(per_event_us(levels, games, None))
        waiting.append(per_event_us(levels, games, client))
    alone, apart = min(back_to_back), min(waiting)
    print(f"bot turns back to back: {alone:.1f} us CPU per event (best of {repeats})")
    print(f"bot turns with a Redis round trip after each: {apart:.1f} us CPU per event")
    print(f"wait penalty: {apart / alone:.2f}x ({games} games of {' '.join(levels)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--levels", nargs=4, default=LEVELS)
    args = parser.parse_args()
    if os.environ.get("REDIS_URL"):
        measure(os.environ["REDIS_URL"], args.levels, args.games, args.repeats)
        return
    with EmbeddedRedis() as server:
        measure(server.url, args.levels, args.games, args.repeats)


if __name__ == "__main__":
    main()
