"""Redis memory per finished game (issue 12 goal: <= 150 KB), and what retention leaves.

    python -m bench.memory_per_game [--games 10] [--levels basic basic basic basic]

Plays N four-bot games to the end the way the service does (GameService with the RQ
follow-up hook, a real `rummy worker` loop in this process, in burst mode) on an embedded
Redis (or REDIS_URL: it must be an empty database, this flushes it), then prints, per finished
game:

- the keys it leaves, by kind, each measured with MEMORY USAGE (its events stream, record,
  summary, snapshots; the RQ job hashes named after it; its members of the global index sets,
  measured as the growth of those sets);
- the INFO used_memory growth per game (allocator overhead included);
- the same after the RQ job results expire (RESULT_TTL_S later: deleted here, not waited for);
- the same after the retention run archives every game (service.retention): zero game keys.
"""
from __future__ import annotations

import argparse
import logging
import os
import random
import tempfile
import time
from collections import defaultdict

import redis

from domain import awaiting
from service.bootstrap import wire
from service.config import Settings
from service.embedded import EmbeddedRedis
from service.followups import install
from service.index import shard_keys
from service.keys import INDEX_SHARDS
from service.retention import DAY_MS, Retention, RetentionPolicy
from workers import runtime
from workers.worker import run_worker

# Every key of every index shard (service.index): the sets across games.
GLOBAL_SETS = [key for shard in range(INDEX_SHARDS) for key in shard_keys(shard)]


def kind_of(key: str, game_id: str) -> str:
    """Which part of a game `key` is: events, meta, summary, snapshot, idempotency, rq-job,
    rq-result."""
    if key.startswith("rq:job:"):
        return "rq-job"
    if key.startswith("rq:results:"):
        return "rq-result"
    part = key.split("}:", 1)[1] if "}:" in key else key
    if part.startswith(("snap:", "snaps:")):
        return "snapshot"
    if part.startswith("idem:"):
        return "idempotency"
    return part


def per_game(client: redis.Redis, game_ids: list[str]) -> dict[str, float]:
    """Mean bytes per game by kind of key (MEMORY USAGE of every key naming the game)."""
    totals: dict[str, int] = defaultdict(int)
    for game_id in game_ids:
        for key in client.scan_iter(f"*{game_id}*", count=1000):
            name = key.decode()
            totals[kind_of(name, game_id)] += client.memory_usage(key, samples=0) or 0
    return {kind: total / len(game_ids) for kind, total in sorted(totals.items())}


def global_sets(client: redis.Redis) -> int:
    """Bytes of the index shards' sets (MEMORY USAGE)."""
    return sum(client.memory_usage(key, samples=0) or 0 for key in GLOBAL_SETS
               if client.exists(key))


def used(client: redis.Redis) -> int:
    return int(client.info("memory")["used_memory"])


def report(label: str, kinds: dict[str, float], sets_b: float, info_b: float) -> None:
    keys_b = sum(kinds.values())
    parts = ", ".join(f"{kind} {size / 1024:.1f}" for kind, size in kinds.items())
    print(f"{label}: {(keys_b + sets_b) / 1024:.1f} KB per game by MEMORY USAGE "
          f"({parts}, index set members {sets_b / 1024:.2f}); "
          f"INFO used_memory growth {info_b / 1024:.1f} KB per game")


def play(url: str, games: int, levels: list[str], archive_dir: str) -> None:
    client = redis.Redis.from_url(url)
    client.flushdb()
    os.environ["REDIS_URL"] = url
    wired = wire(Settings(redis_url=url, archive_dir=archive_dir))
    install(wired)
    runtime.use(wired)
    service = wired.service
    base_used, base_sets = used(client), global_sets(client)
    seats = [{"kind": "bot", "level": level, "name": f"b{n}"} for n, level in enumerate(levels)]
    ids = []
    for number in range(games):
        ids.append(service.create_game(seats, seed=random.Random(number).randrange(2**31))["id"])
        run_worker(url, burst=True, with_scheduler=False, log_level="WARNING")
    unfinished = [g for g in ids if awaiting(service.load(g)[1]).status != "finished"]
    if unfinished:
        raise SystemExit(f"{len(unfinished)} games did not finish: {unfinished}")
    events = sum(service.load(g)[0] for g in ids) / games
    print(f"{games} four-bot games ({', '.join(levels)}), {events:.0f} events per game")
    sets_b = (global_sets(client) - base_sets) / games
    report("finished, RQ job results kept", per_game(client, ids), sets_b,
           (used(client) - base_used) / games)

    for pattern in ("rq:job:*", "rq:results:*", "rq:*finished*"):  # as if RESULT_TTL_S passed
        for key in client.scan_iter(pattern, count=1000):
            client.delete(key)
    report("finished, RQ job results expired", per_game(client, ids), sets_b,
           (used(client) - base_used) / games)

    retention = Retention(service, client, RetentionPolicy(1, 1))
    archived = retention.run(now_ms=int(time.time() * 1000) + DAY_MS).archived
    left = per_game(client, ids)
    print(f"after retention ({archived} archived): {sum(left.values()) / 1024:.1f} KB of game "
          f"keys per game, index sets {(global_sets(client) - base_sets) / games:.2f} B per game; "
          f"INFO used_memory growth {(used(client) - base_used) / 1024:.0f} KB in all (not per "
          f"game: what the server keeps after the games, allocator, RQ registries and scripts)")
    runtime.use(None)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.memory_per_game",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--levels", nargs=4, default=["basic"] * 4)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    with tempfile.TemporaryDirectory() as archive_dir:
        if os.environ.get("REDIS_URL"):
            play(os.environ["REDIS_URL"], args.games, args.levels, archive_dir)
        else:
            with EmbeddedRedis() as server:
                play(server.url, args.games, args.levels, archive_dir)


if __name__ == "__main__":
    main()
