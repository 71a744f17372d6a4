"""The knee of the service under a Locust load (issue 12): games in flight where a person's
action p99 passes 100 ms, per worker count.

`python -m bench.load_knee [--workers 1 2] [--steps 10 20 40 80 160] [--seconds 40]` starts the
stack of bench/stack.py (gunicorn as deployed, embedded valkey unless REDIS_URL, rate limits
off) once per worker count and, for each step N, runs bench/locustfile.py headless for
`--seconds` with N players (a human seat against three bots each: N games in flight, think
time 1-3 s), N/10 SSE listeners and N/10 all-bot tables, at nice 10 (the load generator's CPU
is not the service's). It prints per step the POST /actions p50/p99 and throughput, the
failures, and per worker count the knee: the last step whose action p99 <= 100 ms and the first
above (stopping there). Locust's percentiles are rounded as Locust rounds them.
"""
from __future__ import annotations

import argparse
import csv
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.stack import running_stack

GOAL_P99_MS = 100.0
LOCUSTFILE = Path(__file__).with_name("locustfile.py")
ACTION = "POST /actions"


def run_step(base: str, players: int, seconds: float, workdir: str) -> dict:
    """One Locust run of `players` players (+ a tenth as listeners and as bot tables): the
    stats row of POST /actions and the total failures, from Locust's CSV."""
    extra = max(1, players // 10)
    env = {**os.environ, "RUMMY_LOAD_PLAYERS": str(players),
           "RUMMY_LOAD_LISTENERS": str(extra), "RUMMY_LOAD_BOT_TABLES": str(extra)}
    users = players + 2 * extra
    prefix = os.path.join(workdir, f"step{players}")
    locust = Path(sys.executable).with_name("locust")
    subprocess.run(["nice", "-n", "10", str(locust), "-f", str(LOCUSTFILE), "--headless",
                    "-u", str(users), "-r", str(users), "-t", f"{int(seconds)}s", "--host", base,
                    "--csv", prefix, "--only-summary", "--loglevel", "WARNING"],
                   env=env, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(f"{prefix}_stats.csv", newline="") as stats:
        rows = {row["Name"]: row for row in csv.DictReader(stats)}
    action, total = rows.get(ACTION), rows["Aggregated"]
    return {"p50": float(action["50%"]) if action else float("nan"),
            "p99": float(action["99%"]) if action else float("nan"),
            "rate": float(action["Requests/s"]) if action else 0.0,
            "count": int(action["Request Count"]) if action else 0,
            "failures": int(total["Failure Count"])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--steps", type=int, nargs="+", default=[10, 20, 40, 80, 160])
    parser.add_argument("--seconds", type=float, default=40.0)
    args = parser.parse_args()
    for workers in args.workers:
        below = above = None
        with running_stack(workers=workers) as (base, _), tempfile.TemporaryDirectory() as tmp:
            for players in args.steps:
                step = run_step(base, players, args.seconds, tmp)
                print(f"workers={workers} games in flight={players} (+{max(1, players // 10)} "
                      f"bot tables, {max(1, players // 10)} SSE listeners): POST /actions p50 "
                      f"{step['p50']:.0f} ms, p99 {step['p99']:.0f} ms, {step['rate']:.1f}/s "
                      f"({step['count']} actions); failures {step['failures']}", flush=True)
                if step["p99"] <= GOAL_P99_MS:
                    below = players
                else:
                    above = players
                    break
        knee = (f"between {below} and {above} games in flight" if above is not None
                else f"above {below} games in flight (not reached)")
        print(f"workers={workers}: knee (action p99 passes {GOAL_P99_MS:.0f} ms) {knee}",
              flush=True)


if __name__ == "__main__":
    main()
