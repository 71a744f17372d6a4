"""Fair, fast bots under load (issue 12): K four-bot games at once on 2 worker processes.

`python -m bench.bot_fairness [--games 1 10 50] [--workers 2] [--levels L L L L]` starts
gunicorn and `--workers` `rummy worker` processes on REDIS_URL (an embedded server when unset;
give a fresh one: the memory figure is a difference of the server's `used_memory`), then for
each K creates K four-bot games at once over HTTP and follows them to GameEnded. It prints,
each with its goal and met / not met:

- bot reply latency p50/p99: for every bot append, the time since the game's append before it
  (the one that made it a bot's turn). Times are the server time each append recorded (the
  stream entries' `at`, or `a` in the compact form) where the store writes one, else the
  moment an observer thread blocked in XREAD on the K streams received the entry (no
  polling). Entries with the same time count as one append, which can only raise the figures.
  With server times the observer reads every PAUSE_S (50 ms), not at each append, so that it
  takes little of the CPU it measures. Appends of a round's scoring are not bot replies and
  are left out.
- human reply latency p50/p99 beside the largest K (a last run of those K games with a probe
  game: seat 0 a random human over HTTP against three bots; from the response to its action to
  the bot's next event): what a player feels while bots play elsewhere.
- whole-game seconds (median, max) per K: the goal is growth no worse than linear in K.
- worker CPU-seconds per game (utime + stime of the worker processes from /proc/<pid>/stat
  over the run, divided by K) against the in-process CPU time of K games of the same levels
  (domain.simulation.play_game), compared per event since games differ in length: goal <= 3x.
- Redis memory per finished game, once every job is done (game jobs keep no result): MEMORY
  USAGE of the keys each game leaves plus its index set members: goal <= 150 KB; and the
  server's used_memory growth per game beside it.

Timing figures depend on the machine's load: say so when quoting them.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import threading
import time
import urllib.error
from concurrent.futures import ThreadPoolExecutor

import redis
from rq import Worker

from bench.stack import running_stack
from bench.stats import percentile
from domain.simulation import play_game
from service.keys import events_key
from service.redis_store import ABSOLUTE_MS, entry_at, entry_type
from workers.cli_play_bots import http_json

GOAL_P50_MS, GOAL_P99_MS, GOAL_CPU_RATIO, GOAL_MEMORY_KB = 30, 150, 3.0, 150
HUMAN = [{"kind": "human"}] + [{"kind": "bot", "level": "basic"}] * 3
SCORING = "RoundScored"
PAUSE_S = 0.05  # between the observer's reads while the entries carry their append times
TICKS_S = os.sysconf("SC_CLK_TCK")


def met(ok: bool) -> str:
    return "met" if ok else "NOT met"


def cpu_s(pids: list[int]) -> float:
    """utime + stime of the processes `pids`, in seconds (/proc/<pid>/stat fields 14 and 15)."""
    total = 0
    for pid in pids:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / TICKS_S


def worker_pids(client: redis.Redis, count: int, timeout_s: float = 60) -> list[int]:
    """The pids of the `count` RQ workers registered on `client`, waiting for them to start."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        pids = sorted({worker.pid for worker in Worker.all(connection=client) if worker.pid})
        if len(pids) >= count:
            return pids
        time.sleep(0.2)
    raise RuntimeError(f"{count} workers did not register in {timeout_s:.0f} s")


class Observer(threading.Thread):
    """Reads every entry of the games' streams as it is appended (XREAD BLOCK, no polling) and
    keeps, per game, (`at`: the server time of its append when the store records one, the ms
    it was received, event type) of each entry."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True, name="observer")
        self.client = redis.Redis.from_url(url)
        self.after: dict[str, str] = {}
        self.entries: dict[str, list[tuple[float | None, float, str]]] = {}
        self.bases: dict[str, float] = {}  # game -> the `at` of its first event
        self.first_read: dict[str, int] = {}  # entries of a stream's first read: times unknown
        self.ended: dict[str, float] = {}
        self.lock = threading.Lock()
        self.done = threading.Event()
        self.server_times = True  # every entry read so far had its append time

    def watch(self, game_id: str) -> None:
        """Follow the stream of `game_id` from its first entry."""
        with self.lock:
            self.after[events_key(game_id)] = "0-0"
            self.entries[game_id] = []

    def run(self) -> None:
        while not self.done.is_set():
            with self.lock:
                streams = dict(self.after)
            if not streams:
                time.sleep(0.01)
                continue
            reply = self.client.xread(streams, block=100) or []
            now = time.time() * 1000
            # The figures use the server's append times: a read every PAUSE_S then costs the
            # two cores little (one XREAD of the K streams per append had the observer take
            # ~10 CPU-s of a K=50 run, a fifth of the workers'). Without them (an older
            # store), receipt times are the figures: read again at once.
            if reply and self.server_times:
                self.done.wait(PAUSE_S)
            for key, entries in reply:
                key = key.decode()
                game_id = key.split("{", 1)[1].split("}", 1)[0]
                self.first_read.setdefault(game_id, len(entries))
                for _, fields in entries:
                    at = entry_at(fields)
                    self.server_times = self.server_times and at is not None
                    if at is not None:  # ms since the game's first event, but on that one
                        base = self.bases.setdefault(game_id, at)
                        at = float(at if at >= ABSOLUTE_MS else base + at)
                    kind = entry_type(fields)
                    self.entries[game_id].append((at, now, kind))
                    if kind == "GameEnded":  # its append time, else when it was read
                        self.ended[game_id] = (now if at is None else at) / 1000
                with self.lock:
                    if game_id in self.ended:
                        self.after.pop(key, None)
                    else:
                        self.after[key] = entries[-1][0].decode()

    def latencies_ms(self) -> tuple[list[float], bool]:
        """(the bot reply latencies of every game, whether they are server append times)."""
        samples = []
        server_times = all(at is not None for entries in self.entries.values()
                           for at, _, _ in entries)
        for game_id, entries in self.entries.items():
            skip = 0 if server_times else self.first_read.get(game_id, 0)
            previous = None
            for index, (at, received, kind) in enumerate(entries):
                moment = at if server_times else received
                if previous is not None and moment != previous and index >= skip \
                        and kind != SCORING:
                    samples.append(moment - previous)
                previous = moment
        return samples, server_times


def probe(base: str, client: redis.Redis, stop: threading.Event, seed: int,
          played: list[str]) -> list[float]:
    """Play seat 0 of human-vs-three-bots games with random legal actions until `stop`; the ms
    from each action's response to the bot's next event when a bot must act next. The ids of
    the games it created are added to `played`."""
    rng, latencies = random.Random(seed), []
    while not stop.is_set():
        game = http_json("POST", f"{base}/v1/games", {"seats": HUMAN,
                                                       "seed": rng.randrange(2**31)})
        game_id, token = game["id"], game["seats"][0]["token"]
        played.append(game_id)
        view = http_json("GET", f"{base}/v1/games/{game_id}/view", token=token)
        while view["status"] != "finished" and not stop.is_set():
            if 0 not in view["awaiting"]["seats"]:
                http_json("GET", f"{base}/v1/games/{game_id}/events?after={view['version']}"
                                 f"&wait=5", token=token)
                view = http_json("GET", f"{base}/v1/games/{game_id}/view", token=token)
                continue
            try:
                reply = http_json("POST", f"{base}/v1/games/{game_id}/actions",
                                  rng.choice(view["legal_actions"]), token=token)
            except urllib.error.HTTPError as refused:
                if refused.code not in (409, 422):  # a bot's answer resolved the offer first
                    raise
                view = http_json("GET", f"{base}/v1/games/{game_id}/view", token=token)
                continue
            answered = time.perf_counter() * 1000
            view = reply["view"]
            if set(view["awaiting"]["seats"]) - {0}:
                client.xread({events_key(game_id): f"0-{reply['version']}"}, count=1, block=10_000)
                latencies.append(time.perf_counter() * 1000 - answered)
                view = http_json("GET", f"{base}/v1/games/{game_id}/view", token=token)
    return latencies


def in_process(levels: list[str], games: int) -> tuple[float, int]:
    """(CPU seconds, events) of `games` in-process games of `levels` (play_game)."""
    started, events = time.process_time(), 0
    for seed in range(games):
        events += len(play_game(tuple(levels), random.Random(seed)).events)
    return time.process_time() - started, events


def game_keys_kb(client: redis.Redis, game_ids: list[str]) -> tuple[float, dict[str, float]]:
    """(mean KB of the keys each game leaves, mean KB per kind of key: events, snap …)."""
    total, kinds = 0, {}
    for game_id in game_ids:
        for key in client.scan_iter(match=f"rummy:{{{game_id}}}:*", count=1000):
            size = client.memory_usage(key, samples=0) or 0
            kind = key.decode().split("}:", 1)[1].split(":", 1)[0]
            kinds[kind] = kinds.get(kind, 0) + size
            total += size
    count = max(1, len(game_ids))
    return total / count / 1024, {k: v / count / 1024 for k, v in sorted(kinds.items())}


def index_share_kb(client: redis.Redis, game_ids: list[str]) -> float:
    """Mean KB a game's members take in the global index sets (each member's id and score in
    each set holding it, with the skiplist node: ~ 2 x (id + 8) + 64 bytes per set)."""
    sets = [key for key in client.scan_iter(match="rummy:{games:*", count=1000)
            if not key.endswith(b":versions")]
    held = sum(1 for key in sets for game_id in game_ids if client.zscore(key, game_id) is not None)
    return held * (2 * (16 + 8) + 64) / max(1, len(game_ids)) / 1024


def used_memory(client: redis.Redis) -> int:
    return int(client.info("memory")["used_memory"])


def run(base: str, url: str, games: int, levels: list[str], pids: list[int],
        with_probe: bool = False) -> dict:
    """Play `games` four-bot games at once (beside a probe game of a human when `with_probe`);
    every figure of one K."""
    client = redis.Redis.from_url(url)
    observer = Observer(url)
    observer.start()
    before_memory, before_cpu = used_memory(client), cpu_s(pids)
    stop, probed = threading.Event(), []
    with ThreadPoolExecutor(max_workers=1) as pool:
        human = pool.submit(probe, base, client, stop, games, probed) if with_probe else None
        seats = [{"kind": "bot", "level": level} for level in levels]
        created: dict[str, float] = {}
        for seed in range(games):
            started = time.time()
            game = http_json("POST", f"{base}/v1/games", {"seats": seats, "seed": seed})
            observer.watch(game["id"])
            created[game["id"]] = started
        deadline = time.monotonic() + 120 + 10 * games
        while len(observer.ended) < games and time.monotonic() < deadline:
            time.sleep(0.1)
        worker_cpu = cpu_s(pids) - before_cpu
        stop.set()
        human_ms = human.result() if human else []
    observer.done.set()
    observer.join()
    if len(observer.ended) < games:
        raise RuntimeError(f"only {len(observer.ended)} of {games} games finished")
    samples, server_times = observer.latencies_ms()
    events = sum(len(entries) for entries in observer.entries.values())
    time.sleep(1)  # let the last jobs' bookkeeping settle before measuring memory
    keys_kb, kinds = game_keys_kb(client, list(created))
    probe_kb = game_keys_kb(client, probed)[0] * len(probed)
    return {"games": games, "samples": samples, "server_times": server_times,
            "human": human_ms,
            "seconds": [observer.ended[g] - created[g] for g in created],
            "worker_cpu": worker_cpu, "events": events,
            "memory_kb": ((used_memory(client) - before_memory) / 1024 - probe_kb) / games,
            "index_kb": index_share_kb(client, list(created)),
            "keys_kb": keys_kb, "kinds": kinds}


def report_human(figure: dict) -> None:
    human = figure["human"]
    h50, h99 = percentile(human, 0.5), percentile(human, 0.99)
    print(f"a human game beside K={figure['games']} four-bot games, bot reply over {len(human)} "
          f"replies: p50 {h50:.1f} ms (goal <= {GOAL_P50_MS}: {met(h50 <= GOAL_P50_MS)}), p99 "
          f"{h99:.1f} ms (goal <= {GOAL_P99_MS}: {met(h99 <= GOAL_P99_MS)})")


def report(figure: dict, levels: list[str], workers: int) -> None:
    k, samples = figure["games"], figure["samples"]
    p50, p99 = percentile(samples, 0.5), percentile(samples, 0.99)
    source = "server append times" if figure["server_times"] else "observer receipt times"
    print(f"K={k} four-bot games ({' '.join(levels)}) on {workers} workers:")
    print(f"  bot reply latency over {len(samples)} appends ({source}): p50 {p50:.1f} ms "
          f"(goal <= {GOAL_P50_MS}: {met(p50 <= GOAL_P50_MS)}), p99 {p99:.1f} ms "
          f"(goal <= {GOAL_P99_MS}: {met(p99 <= GOAL_P99_MS)}), max {max(samples):.0f} ms")
    seconds = figure["seconds"]
    print(f"  whole game: median {statistics.median(seconds):.1f} s, max {max(seconds):.1f} s")
    inproc_s, inproc_events = in_process(levels, k)
    per_game = figure["worker_cpu"] / k
    ratio = (figure["worker_cpu"] / figure["events"]) / (inproc_s / inproc_events)
    print(f"  worker CPU {per_game:.3f} s per game ({figure['events'] / k:.0f} events) vs "
          f"in process {inproc_s / k:.3f} s ({inproc_events / k:.0f} events): {ratio:.1f}x per "
          f"event (goal <= {GOAL_CPU_RATIO:.0f}x: {met(ratio <= GOAL_CPU_RATIO)})")
    kinds = ", ".join(f"{kind} {kb:.0f}" for kind, kb in figure["kinds"].items())
    memory = figure["keys_kb"] + figure["index_kb"]
    print(f"  Redis memory per finished game: {memory:.0f} KB: its keys ({kinds}) and its index "
          f"set members {figure['index_kb']:.1f} (goal <= {GOAL_MEMORY_KB}: "
          f"{met(memory <= GOAL_MEMORY_KB)}); used_memory grew {figure['memory_kb']:.0f} KB per "
          f"game (allocator and server overhead included; noisy for small K)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[1, 10, 50])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--levels", nargs=4, default=["strong", "basic", "basic", "random"])
    parser.add_argument("--no-probe", dest="probe", action="store_false",
                        help="skip the last run: a human game beside the largest K")
    args = parser.parse_args()
    env = {"RUMMY_OFFER_DEADLINE_S": "30"}
    with running_stack(workers=args.workers, env=env) as (base, url):
        pids = worker_pids(redis.Redis.from_url(url), args.workers)
        figures = []
        for games in args.games:
            figure = run(base, url, games, args.levels, pids)
            report(figure, args.levels, args.workers)
            figures.append(figure)
        if args.probe:
            report_human(run(base, url, max(args.games), args.levels, pids, with_probe=True))
    if len(figures) > 1:
        first, last = figures[0], figures[-1]
        growth = statistics.median(last["seconds"]) / statistics.median(first["seconds"])
        scale = last["games"] / first["games"]
        print(f"whole-game time grows {growth:.1f}x from K={first['games']} to "
              f"K={last['games']} ({scale:.0f}x the games; goal: no worse than linear: "
              f"{met(growth <= scale)})")


if __name__ == "__main__":
    main()
