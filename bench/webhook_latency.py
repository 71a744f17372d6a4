"""Webhook delivery latency (issue 8: goal p95 <= 1 s): from the append of the events a webhook
reports (their `recorded_at`, the payload's `timestamp`) to the receiver taking the signed
delivery.

`python -m bench.webhook_latency [--games 100] [--rate 10]` starts gunicorn, one `rummy worker`
and one `rummy webhook-worker` on REDIS_URL (an embedded server when unset), with
RUMMY_WEBHOOK_URL at a receiver in this process (bench/webhook_receiver.py, signatures
verified with `standardwebhooks`), and creates `--games` games of four human players at
`--rate` games a second through the integration key: each sends `game.started` and
`seat.awaited`. Prints p50/p95/p99 of receipt time minus `timestamp`, in ms.
"""
from __future__ import annotations

import argparse
import base64
import os
import time

import requests

from bench.stack import running_stack
from bench.stats import percentile
from bench.webhook_receiver import Receiver
from service.clock import parse_rfc3339

SECRET = "whsec_" + base64.b64encode(os.urandom(32)).decode()
KEY = "bench-integration-key-0123456789"


def measure(games: int, rate: float) -> list[int]:
    """Latencies in ms of every delivery of `games` games created at `rate` a second."""
    receiver = Receiver(SECRET)
    env = {"RUMMY_WEBHOOK_URL": receiver.url, "RUMMY_WEBHOOK_SECRET": SECRET,
           "RUMMY_INTEGRATION_KEY": KEY}
    try:
        with running_stack(workers=1, env=env, webhook_workers=1) as (base, _):
            for n in range(games):
                started = time.monotonic()
                seats = [{"kind": "human", "player_id": f"bench-{n}-{s}"} for s in range(4)]
                reply = requests.post(f"{base}/v1/games", timeout=10,
                                      json={"seats": seats, "clock": {"turn_s": None}},
                                      headers={"X-Integration-Key": KEY})
                reply.raise_for_status()
                time.sleep(max(0.0, 1 / rate - (time.monotonic() - started)))
            if not receiver.wait_for(lambda got: len(got) >= 2 * games, 120):
                print(f"only {len(receiver.accepted)} of {2 * games} deliveries arrived")
    finally:
        receiver.close()
    return [at - parse_rfc3339(payload["timestamp"])
            for payload, at in receiver.accepted.values()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rate", type=float, default=10.0, help="games created a second")
    args = parser.parse_args()
    latencies = measure(args.games, args.rate)
    print(f"webhook delivery latency (append -> receiver), {len(latencies)} deliveries of "
          f"{args.games} games at {args.rate:g}/s: p50 {percentile(latencies, 0.5):.0f} ms, "
          f"p95 {percentile(latencies, 0.95):.0f} ms, p99 {percentile(latencies, 0.99):.0f} ms "
          f"(goal p95 <= 1000 ms)")


if __name__ == "__main__":
    main()
