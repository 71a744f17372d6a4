"""Deadline precision (issue 8: goal p99 lateness <= 1 s): how late after its deadline a turn
timeout is recorded.

`python -m bench.deadline_precision [--timeouts 50] [--games 5] [--workers 1]` starts gunicorn
and `rummy worker` processes on REDIS_URL (an embedded server when unset), creates games of
four silent humans with `turn_s: 1` (and `offer_s: 1`; takeover only after 100 consecutive
timeouts of a seat, so every turn times out) and follows their admin event feeds until `--timeouts` TurnTimedOut
events were recorded. The lateness of each is its `recorded_at` minus its deadline: the
`recorded_at` of the event that started the turn (service.clock.TURN_STARTS) plus 1 s.
"""
from __future__ import annotations

import argparse
import statistics
import time

from bench.stack import running_stack
from bench.stats import percentile
from service.clock import TURN_STARTS, parse_rfc3339
from workers.cli_play_bots import http_json

HUMANS = [{"kind": "human"}] * 4
CLOCK = {"turn_s": 1, "offer_s": 1, "timeouts_before_takeover": 100}


def lateness_ms(events: list[dict]) -> list[int]:
    """The lateness in ms of every TurnTimedOut in `events` (a whole feed, oldest first)."""
    late, start = [], None
    for event in events:
        at = parse_rfc3339(event["recorded_at"])
        if event["type"] == "TurnTimedOut" and start is not None:
            late.append(at - (start + CLOCK["turn_s"] * 1000))
        if event["type"] in TURN_STARTS:
            start = at
    return late


def measure(base: str, timeouts: int, games: int) -> list[int]:
    """Create `games` silent games and follow them until `timeouts` timeouts were recorded."""
    created = [http_json("POST", f"{base}/v1/games", {"seats": HUMANS, "clock": CLOCK})
               for _ in range(games)]
    feeds: dict[str, list[dict]] = {game["id"]: [] for game in created}
    tokens = {game["id"]: game["admin_token"] for game in created}
    deadline = time.monotonic() + timeouts * 2 + 60
    while sum(len(lateness_ms(feed)) for feed in feeds.values()) < timeouts:
        if time.monotonic() > deadline:
            raise RuntimeError("the timeouts did not come")
        for game_id, feed in feeds.items():
            page = http_json("GET", f"{base}/v1/games/{game_id}/events?after={len(feed)}&wait=0",
                             token=tokens[game_id])
            feed += page["events"]
        time.sleep(0.5)
    for game in created:  # stop the clocks
        http_json("POST", f"{base}/v1/games/{game['id']}/abort", token=game["admin_token"])
    return sorted(late for feed in feeds.values() for late in lateness_ms(feed))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeouts", type=int, default=50)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    with running_stack(workers=args.workers) as (base, _):
        late = measure(base, args.timeouts, args.games)
    p50 = statistics.median(late)
    p99 = percentile(late, 0.99)
    print(f"turn timeout lateness over {len(late)} timeouts (turn_s 1, {args.games} games, "
          f"{args.workers} worker): p50 {p50:.0f} ms, p99 {p99:.0f} ms, max {late[-1]:.0f} ms, "
          f"min {late[0]:.0f} ms (goal p99 <= 1000 ms)")


if __name__ == "__main__":
    main()
