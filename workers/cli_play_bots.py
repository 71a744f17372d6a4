"""`rummy play-bots`: create a game of bots on a running service and follow it to the end.

Plain HTTP (standard library only), as any client would: `POST /v1/games`, then the event long
poll `GET /v1/games/{id}/events?after=N&wait=S` with the game's admin token, printing each
`RoundScored` and the `GameEnded` winners.
"""
from __future__ import annotations

import json
import time
import urllib.error
import urllib.parse
import urllib.request

import click

from domain.bots import BOT_LEVELS

POLL_WAIT_S = 25
# Bots append hundreds of events a second, so each long poll returns at once: pausing between
# polls batches them and keeps the follower well inside the API's rate limits (50/s by default).
POLL_PAUSE_S = 0.2
MAX_CREATE_WAIT_S = 120  # a spent creation budget (30/minute by default) frees within a minute


def http_json(method: str, url: str, body: dict | None = None, token: str | None = None,
              timeout_s: float = POLL_WAIT_S + 10) -> dict:
    """Send a JSON request and return the decoded JSON reply; raises urllib.error.HTTPError."""
    headers = {"Accept": "application/json"}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url, data=data, headers=headers, method=method)
    with urllib.request.urlopen(request, timeout=timeout_s) as reply:
        return json.loads(reply.read())


def follow(base: str, game_id: str, token: str, deadline: float, echo=click.echo) -> dict | None:
    """Long-poll the game's events until `GameEnded` or `deadline` (monotonic); echo each round's
    scores. A 429 waits its Retry-After. Returns the GameEnded data, or None if the deadline
    came first."""
    after = 0
    while time.monotonic() < deadline:
        wait = max(1, min(POLL_WAIT_S, int(deadline - time.monotonic())))
        try:
            page = http_json("GET", f"{base}/v1/games/{game_id}/events?after={after}&wait={wait}",
                             token=token)
        except urllib.error.HTTPError as refused:
            if refused.code != 429:
                raise
            time.sleep(float(refused.headers.get("Retry-After") or 1))  # rate limited: wait
            continue
        for event in page["events"]:
            after = event["version"]
            data = event["data"]
            if event["type"] == "RoundScored":
                echo(f"round {data['round']}: scores {data['scores']}  totals {data['totals']}")
            elif event["type"] == "GameEnded":
                return data
        time.sleep(POLL_PAUSE_S)
    return None


def _create(url: str, body: dict) -> dict:
    """POST the new game; a spent creation budget (429) waits its Retry-After, up to
    MAX_CREATE_WAIT_S in all. Raises click.ClickException with the server's problem detail for
    any other refusal (and for a 429 that outlasts the wait), never a traceback."""
    waited = 0.0
    while True:
        try:
            return http_json("POST", url, body)
        except urllib.error.HTTPError as refused:
            retry_s = float(refused.headers.get("Retry-After") or 1)
            if refused.code == 429 and waited + retry_s <= MAX_CREATE_WAIT_S:
                click.echo(f"rate limited: creating the game again in {retry_s:g} s", err=True)
                time.sleep(retry_s)
                waited += retry_s
                continue
            raise click.ClickException(f"the service refused the game: {refused.code} "
                                       f"{_detail(refused)}") from None
        except urllib.error.URLError as error:
            raise click.ClickException(f"no service at {url}: {error.reason}") from None


def _profile(text: str) -> str | dict:
    """`--profile`: a preset name, or the JSON object of options it starts with `{`. Raises
    click.BadParameter for text that is not JSON."""
    if not text.lstrip().startswith("{"):
        return text
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise click.BadParameter(f"not JSON: {error}", param_hint="--profile") from None


def _detail(refused: urllib.error.HTTPError) -> str:
    try:
        return str(json.loads(refused.read()).get("detail", refused.reason))
    except ValueError:
        return str(refused.reason)


@click.command("play-bots")
@click.option("--url", default="http://127.0.0.1:8000", show_default=True,
              help="Base URL of the running service.")
@click.option("--level", "levels", multiple=True, type=click.Choice(BOT_LEVELS),
              help="Level of each seat (repeat up to --seats times; the last one fills the rest).")
@click.option("--seats", "seat_count", type=click.IntRange(3, 8), default=4, show_default=True,
              help="Seats at the table (RULES.md R11.1).")
@click.option("--profile", default="standard", show_default=True,
              help="A preset name (R11.20) or a JSON object of RULES.md §11 options.")
@click.option("--seed", type=int, default=None, help="Seed of the game (mixed with the game id: no two games share a deal; "
                   "reproducible deals need the server admin key, docs/threat-model.md).")
@click.option("--timeout", type=float, default=300, show_default=True,
              help="Seconds to wait for the game to finish.")
def play_bots(url: str, levels: tuple[str, ...], seat_count: int, profile: str,
              seed: int | None, timeout: float) -> None:
    """Create a game of bots on the service at URL and print its scores to the end."""
    if len(levels) > seat_count:
        raise click.BadParameter(f"{len(levels)} levels for {seat_count} seats",
                                 param_hint="--level")
    if urllib.parse.urlsplit(url).scheme not in ("http", "https"):
        raise click.BadParameter(f"not an http(s) URL: {url!r}", param_hint="--url")
    chosen = list(levels or ("strong", "basic"))[:seat_count]
    chosen += [chosen[-1]] * (seat_count - len(chosen))
    base = url.rstrip("/")
    seats = [{"kind": "bot", "level": level, "name": f"{level}-{n}"} for n, level in enumerate(chosen)]
    body = {"seats": seats, "profile": _profile(profile)}
    if seed is not None:
        body["seed"] = seed
    created = _create(f"{base}/v1/games", body)
    game_id = created["id"]
    click.echo(f"game {game_id}: seats {', '.join(s['name'] for s in seats)}")
    started = time.monotonic()
    ended = follow(base, game_id, created["admin_token"], started + timeout)
    if ended is None:
        raise click.ClickException(f"game {game_id} did not finish within {timeout:g} s")
    names = [seats[seat]["name"] for seat in ended["winners"]]
    click.echo(f"finished in {time.monotonic() - started:.1f} s: totals {ended['totals']}, "
               f"winner{'s' if len(names) > 1 else ''} {', '.join(names)}")
    click.echo(f"scores: GET {base}/v1/games/{game_id}")
