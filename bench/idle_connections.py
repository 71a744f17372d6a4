"""Idle connections (issue 12: 1,000 SSE streams + 1,000 long polls held open on one host while
GET /health p99 <= 50 ms and a seat's action p99 <= 100 ms).

`python -m bench.idle_connections [--streams 1000] [--polls 1000] [--seconds 20]` starts
gunicorn (as deployed: 2 gevent workers) and one `rummy worker` on REDIS_URL (an embedded
server when unset), then:
1. measures GET /health and a seat's actions for `--seconds` with nothing held (baseline);
2. opens `--streams` anonymous SSE streams and `--polls` anonymous long polls
   (`/events?wait=30`, sent again as each one answers) spread over idle games, from a child
   process running asyncio on raw sockets (no thread per connection);
3. measures the same again while they are held, checks they are all still open, and prints
   both figures and whether the goals are met.
The seat is seat 0 of a game against three basic bots (played by the worker), acting with
its token: it draws and discards at random when its turn comes and passes on offers; each
POST /actions is timed. GET /health is timed every 20 ms from another thread.
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import re
import resource
import threading
import time
from urllib.parse import urlsplit

from bench.stack import running_stack
from bench.stats import percentile
from workers.cli_play_bots import http_json

HUMANS = [{"kind": "human"}] * 4
BOTS = [{"kind": "bot", "level": "basic"}] * 3
GOALS_MS = {"health": 50.0, "action": 100.0}
IDLE_GAMES = 20
POLL_WAIT_S = 30
OPEN_PER_S = 200  # the holder opens connections at this pace (a deploy's reconnects spread)


def raise_file_limit() -> int:
    """Raise this process's open-file limit to the hard limit; the new soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


# --- the holder: a child process keeping the connections open -----------------------------

async def _stream(host: str, port: int, path: str, opened: asyncio.Queue, lost) -> None:
    """Hold one SSE stream; reconnect if the server ends it."""
    while True:
        reader, writer = await asyncio.open_connection(host, port)
        writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        head = await reader.readuntil(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 200"):
            raise RuntimeError(f"stream refused: {head[:60]!r}")
        await opened.put(1)
        while await reader.read(65536):
            pass
        writer.close()
        lost.value += 1


async def _poll(host: str, port: int, path: str, opened: asyncio.Queue, lost) -> None:
    """Hold one long poll on a keep-alive connection: send it again as soon as it answers,
    after the page's `next_after` as a client does (asking again after the same version would
    answer at once, forever, once the game moved: a loop, not an idle connection)."""
    reader, writer = await asyncio.open_connection(host, port)
    first = True
    while True:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        if first:
            await opened.put(1)
            first = False
        head = await reader.readuntil(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 200"):
            raise RuntimeError(f"long poll refused: {head[:60]!r}")
        length = next(int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                      if line.lower().startswith(b"content-length:"))
        page = json.loads(await reader.readexactly(length))
        path = re.sub(r"after=\d+", f"after={page['next_after']}", path)
        if b"connection: close" in head.lower():
            writer.close()
            reader, writer = await asyncio.open_connection(host, port)
            lost.value += 1


async def _hold(base: str, paths: list[tuple[str, str]], ready, failed, lost) -> None:
    url = urlsplit(base)
    opened: asyncio.Queue = asyncio.Queue()
    tasks = []
    for kind, path in paths:
        hold = _stream if kind == "stream" else _poll
        tasks.append(asyncio.create_task(hold(url.hostname, url.port, path, opened, lost)))
        await asyncio.sleep(1 / OPEN_PER_S)
    while opened.qsize() < len(paths):
        done = [t for t in tasks if t.done()]
        if done:
            done[0].result()  # raises what ended it
        await asyncio.sleep(0.05)
    ready.value = len(paths)
    finished, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
    for task in finished:
        failed.value += 1
        task.result()


def hold(base: str, paths: list[tuple[str, str]], ready, failed, lost) -> None:
    """Child process: open every (kind, path) and keep it open until killed. `ready` is set to
    the count once all are open; `failed` counts connections that ended in an error, `lost`
    those the server closed (they are opened again)."""
    raise_file_limit()
    asyncio.run(_hold(base, paths, ready, failed, lost))


# --- the measured client ---------------------------------------------------------------------

def time_health(base: str, stop: threading.Event, samples: list[float],
                slow: list[tuple[float, float]] | None = None) -> None:
    """GET /health every 20 ms until `stop`, its ms in `samples` (a failure counts as inf);
    the (start in seconds from the first call, ms) of each call over the goal in `slow`."""
    import requests

    first = time.perf_counter()
    with requests.Session() as http:
        while not stop.is_set():
            started = time.perf_counter()
            try:
                http.get(f"{base}/health", timeout=10).raise_for_status()
                samples.append((time.perf_counter() - started) * 1000)
            except requests.RequestException:
                samples.append(float("inf"))
            if slow is not None and samples[-1] > GOALS_MS["health"]:
                slow.append((started - first, samples[-1]))
            stop.wait(0.02)


def play_seat(base: str, stop: threading.Event, samples: list[float], seed: int) -> None:
    """Play seat 0 against three bots until `stop`, timing each POST /actions in ms (a
    failed or timed-out request counts as inf, and the seat goes on in a new game)."""
    import requests

    rng = random.Random(seed)
    with requests.Session() as http:
        while not stop.is_set():
            try:
                _play_one(http, base, stop, samples, rng)
            except (requests.RequestException, ValueError, KeyError):
                samples.append(float("inf"))


def _play_one(http, base: str, stop: threading.Event, samples: list[float],
              rng: random.Random) -> None:
    """One game of seat 0, until it ends or `stop`."""
    game = http.post(f"{base}/v1/games", json={"seats": [HUMANS[0]] + BOTS,
                                               "seed": rng.randrange(2**31)}, timeout=10).json()
    auth = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
    url = f"{base}/v1/games/{game['id']}"
    view = http.get(f"{url}/view", headers=auth, timeout=10).json()
    while view["status"] == "playing" and not stop.is_set():
        if 0 not in view["awaiting"]["seats"]:
            http.get(f"{url}/events?after={view['version']}&wait=5", headers=auth, timeout=15)
            view = http.get(f"{url}/view", headers=auth, timeout=10).json()
            continue
        action = _choose(view, rng)
        started = time.perf_counter()
        reply = http.post(f"{url}/actions", json=action, headers=auth, timeout=10)
        elapsed = (time.perf_counter() - started) * 1000
        if reply.status_code in (409, 422):  # an offer resolved by a bot first (R6.9)
            view = http.get(f"{url}/view", headers=auth, timeout=10).json()
            continue
        reply.raise_for_status()
        samples.append(elapsed)
        view = reply.json()["view"]


def _choose(view: dict, rng: random.Random) -> dict:
    """Pass on offers, draw from the stock, then any legal action (usually a discard)."""
    legal = view["legal_actions"]
    for wanted in ({"type": "pass"}, {"type": "draw", "from": "stock"}):
        matches = [a for a in legal if all(a.get(k) == v for k, v in wanted.items())]
        if matches:
            return matches[0]
    return rng.choice(legal)


def measure(base: str, seconds: float) -> tuple[list[float], list[float]]:
    """(GET /health ms, seat action ms) over `seconds`; prints when the slow /health calls
    were (a burst of wakes shows as one cluster)."""
    stop, health, actions, slow = threading.Event(), [], [], []
    threads = [threading.Thread(target=time_health, args=(base, stop, health, slow)),
               threading.Thread(target=play_seat, args=(base, stop, actions, 1))]
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    stop.set()
    for thread in threads:
        thread.join()
    if slow:
        print(f"/health over {GOALS_MS['health']:.0f} ms: {len(slow)} calls, at (s, ms): "
              + ", ".join(f"{at:.1f} {ms:.0f}" for at, ms in slow[:40]), flush=True)
    return health, actions


def _descendants(root: int) -> dict[int, str]:
    """{pid: command line} of every process below `root` (Linux /proc)."""
    parents, commands = {}, {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    parents[int(entry)] = int(stat.read().rsplit(")", 1)[1].split()[1])
                with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                    commands[int(entry)] = cmdline.read().replace(b"\0", b" ").decode()
            except (OSError, ValueError, IndexError):
                continue
    below, frontier = {}, {root}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier}
        below.update({pid: commands.get(pid, "") for pid in frontier})
    return below


def api_cpu_s() -> float:
    """CPU seconds (user + system) used so far by the API's gunicorn worker processes (the
    children of the gunicorn master this benchmark started)."""
    tick, total = os.sysconf("SC_CLK_TCK"), 0.0
    below = _descendants(os.getpid())
    masters = {pid for pid, command in below.items() if "gunicorn" in command}
    for pid in masters:
        with contextlib.suppress(OSError):
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            if int(fields[1]) in masters:  # a worker: its parent is the master
                total += (int(fields[11]) + int(fields[12])) / tick
    return total


def report(label: str, health: list[float], actions: list[float]) -> bool:
    met = (percentile(health, 0.99) <= GOALS_MS["health"]
           and percentile(actions, 0.99) <= GOALS_MS["action"])
    print(f"{label}: GET /health p50 {percentile(health, 0.5):.1f} ms, p99 "
          f"{percentile(health, 0.99):.1f} ms ({len(health)} calls); seat action p50 "
          f"{percentile(actions, 0.5):.1f} ms, p99 {percentile(actions, 0.99):.1f} ms "
          f"({len(actions)} actions)", flush=True)
    return met


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--polls", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--clocked", action="store_true",
                        help="idle games with a 60 s turn clock: all time out together, once a "
                             "minute, waking every held connection at once")
    args = parser.parse_args()
    held = args.streams + args.polls
    limit = raise_file_limit()
    env = {"RUMMY_MAX_STREAMS_PER_IP": str(held + 100), "RUMMY_MAX_WAIT_S": str(POLL_WAIT_S),
           "RUMMY_OFFER_DEADLINE_S": "30"}
    with running_stack(workers=1, env=env) as (base, _):
        # Idle: four silent humans and no turn clock (with one, every game would time out
        # the same second and wake all its listeners at once: --clocked measures that).
        clock = {"turn_s": 60} if args.clocked else {"turn_s": None}
        games = [http_json("POST", f"{base}/v1/games", {"seats": HUMANS, "clock": clock})
                 for _ in range(IDLE_GAMES)]
        # After the game's version: nothing comes, so each poll really waits its `wait`.
        idle = [(game["id"], game["version"]) for game in games]
        paths = [("stream", "/v1/games/{}/stream?after={}".format(*idle[n % IDLE_GAMES]))
                 for n in range(args.streams)]
        paths += [("poll", "/v1/games/{}/events?after={}&wait={}".format(
            *idle[n % IDLE_GAMES], POLL_WAIT_S)) for n in range(args.polls)]
        cpu = api_cpu_s()
        health, actions = measure(base, args.seconds)
        report("nothing held", health, actions)
        print(f"API workers' CPU: {api_cpu_s() - cpu:.1f} s in {args.seconds:.0f} s", flush=True)
        ready, failed, lost = (multiprocessing.Value("i", 0) for _ in range(3))
        holder = multiprocessing.Process(target=hold, args=(base, paths, ready, failed, lost),
                                         daemon=True)
        started = time.monotonic()
        holder.start()
        try:
            while ready.value < held:
                if not holder.is_alive() or time.monotonic() - started > 120:
                    raise RuntimeError(f"the holder opened {ready.value} of {held} connections")
                time.sleep(0.1)
            print(f"{args.streams} SSE streams + {args.polls} long polls open in "
                  f"{time.monotonic() - started:.1f} s (client file limit {limit})", flush=True)
            cpu = api_cpu_s()
            health, actions = measure(base, args.seconds)
            cpu = api_cpu_s() - cpu
            still = holder.is_alive() and failed.value == 0
        finally:
            holder.kill()
            holder.join()
        met = report(f"{held} held", health, actions)
        print(f"API workers' CPU: {cpu:.1f} s in {args.seconds:.0f} s", flush=True)
        print(f"connections failed: {failed.value}, closed by the server and reopened: "
              f"{lost.value}; all held throughout: {'yes' if still else 'NO'}")
        print(f"goals (held: /health p99 <= {GOALS_MS['health']:.0f} ms, action p99 <= "
              f"{GOALS_MS['action']:.0f} ms): {'met' if met and still else 'NOT met'}")


if __name__ == "__main__":
    main()
