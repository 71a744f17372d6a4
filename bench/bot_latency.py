"""Bot reply latency (issue 4: goal p50 <= 30 ms, p99 <= 150 ms): from the response to a
human's action to the bot's next event being appended.

`python -m bench.bot_latency [--samples 300]` starts gunicorn and one `rummy worker` on
REDIS_URL (an embedded server when unset) and plays seat 0 of games against three bots over
HTTP, a random legal action each time. After each action whose response says a bot must act
next (its turn, or its answer to the offer the human opened), the clock runs from the
response until an XREAD BLOCK on the game's stream returns the next event.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time
import urllib.error

import redis

from bench.stack import running_stack
from bench.stats import percentile
from service.keys import events_key
from workers.cli_play_bots import http_json

BOTS = [{"kind": "bot", "level": "basic"}] * 3


def reply_ms(client: redis.Redis, game_id: str, version: int) -> float:
    """Block until event `version + 1` exists; the monotonic time it was seen, in ms."""
    client.xread({events_key(game_id): f"0-{version}"}, count=1, block=10_000)
    return time.perf_counter() * 1000


def play(base: str, client: redis.Redis, samples: int, seed: int) -> list[float]:
    """Play human seats against bots until `samples` latencies were measured."""
    rng, latencies = random.Random(seed), []
    while len(latencies) < samples:
        game = http_json("POST", f"{base}/v1/games", {"seats": [{"kind": "human"}] + BOTS,
                                                       "seed": rng.randrange(2**31)})
        game_id, token = game["id"], game["seats"][0]["token"]
        view = http_json("GET", f"{base}/v1/games/{game_id}/view", token=token)
        while view["status"] != "finished" and len(latencies) < samples:
            if 0 not in view["awaiting"]["seats"]:
                http_json("GET", f"{base}/v1/games/{game_id}/events?after={view['version']}"
                                 f"&wait=10", token=token)
                view = http_json("GET", f"{base}/v1/games/{game_id}/view", token=token)
                continue
            try:
                reply = http_json("POST", f"{base}/v1/games/{game_id}/actions",
                                  rng.choice(view["legal_actions"]), token=token)
            except urllib.error.HTTPError as refused:
                # A bot's answer resolved the offer first (R6.9): 422 when the human's answer
                # was decided after it, 409 when the offer changed while it was decided.
                if refused.code not in (409, 422):
                    raise
                view = http_json("GET", f"{base}/v1/games/{game_id}/view", token=token)
                continue
            answered = time.perf_counter() * 1000
            view = reply["view"]
            if set(view["awaiting"]["seats"]) - {0}:
                latencies.append(reply_ms(client, game_id, reply["version"]) - answered)
                view = http_json("GET", f"{base}/v1/games/{game_id}/view", token=token)
    return latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=300)
    args = parser.parse_args()
    with running_stack(workers=1, env={"RUMMY_OFFER_DEADLINE_S": "30"}) as (base, redis_url):
        latencies = sorted(play(base, redis.Redis.from_url(redis_url), args.samples, seed=1))
    p50 = statistics.median(latencies)
    p99 = percentile(latencies, 0.99)
    print(f"bot reply latency over {len(latencies)} replies, 1 worker: p50 {p50:.1f} ms, "
          f"p99 {p99:.1f} ms, max {latencies[-1]:.1f} ms")


if __name__ == "__main__":
    main()
