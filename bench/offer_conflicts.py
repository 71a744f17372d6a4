"""409 rate of a human seat answering buy offers (issue 9: goal 0 when the answer names its card).

`python -m bench.offer_conflicts [--answers 150] [--seed 1]` starts gunicorn and one
`rummy worker` on REDIS_URL (an embedded server when unset) and plays seat 0 of games against
three basic bots over HTTP, twice:

- `card`: each answer to an offer is `{"type": "pass" | "buy", "card": <offer.card>}` with no
  If-Match (docs: the card names what it answers; another card on offer is refused, R6.1);
- `if-match`: the same answers without `card`, with `If-Match: <the view's version>`, as the
  README advised before: bots answering the same offer move the version, hence 409s.

On its turn the seat plays the first legal action (it draws from the stock, so offers open).
Prints, per mode, the answers sent, how many got 409 and 422, and the 409 rate.
"""
from __future__ import annotations

import argparse
import json
import random
import urllib.error
import urllib.request
from collections import Counter

from bench.stack import running_stack
from workers.cli_play_bots import http_json

BOTS = [{"kind": "bot", "level": "basic"}] * 3


def answer(view: dict, mode: str, rng: random.Random) -> tuple[dict, dict]:
    """The answer to the open offer (buy one time in five) and its extra headers."""
    action = {"type": "buy" if rng.random() < 0.2 else "pass"}
    if mode == "card":
        return {**action, "card": view["offer"]["card"]}, {}
    return action, {"If-Match": f'"{view["version"]}"'}


def post(base: str, game_id: str, token: str, action: dict, headers: dict) -> int:
    """POST the action with `headers`; its status."""
    request = urllib.request.Request(
        f"{base}/v1/games/{game_id}/actions", data=json.dumps(action).encode(), method="POST",
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}",
                 **headers})
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return reply.status
    except urllib.error.HTTPError as refused:
        return refused.code


def play(base: str, mode: str, answers: int, seed: int) -> Counter:
    """Play games until `answers` offers were answered; the statuses of those answers."""
    rng, statuses = random.Random(seed), Counter()
    while sum(statuses.values()) < answers:
        game = http_json("POST", f"{base}/v1/games", {"seats": [{"kind": "human"}] + BOTS,
                                                       "seed": rng.randrange(2**31)})
        game_id, token = game["id"], game["seats"][0]["token"]
        view = http_json("GET", f"{base}/v1/games/{game_id}/view", token=token)
        while view["status"] not in ("finished", "aborted") and sum(statuses.values()) < answers:
            if not view["legal_actions"]:
                http_json("GET", f"{base}/v1/games/{game_id}/events?after={view['version']}"
                                 "&wait=10", token=token)
            elif view["awaiting"]["phase"] == "buying":
                statuses[post(base, game_id, token, *answer(view, mode, rng))] += 1
            else:
                post(base, game_id, token, view["legal_actions"][0], {})
            view = http_json("GET", f"{base}/v1/games/{game_id}/view", token=token)
    return statuses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers", type=int, default=150, help="offers answered per mode")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with running_stack(workers=1) as (base, _):
        for mode in ("card", "if-match"):
            statuses = play(base, mode, args.answers, args.seed)
            total = sum(statuses.values())
            print(f"{mode:>8}: {total} answers, 409: {statuses[409]}, 422: {statuses[422]}, "
                  f"409 rate {100 * statuses[409] / total:.1f}%")


if __name__ == "__main__":
    main()
