"""`rummy conformance` and `rummy simulate`: the rules engine from the command line."""
from __future__ import annotations

import json
import random
import time
from pathlib import Path

import click

from domain.bots import BOT_LEVELS
from domain.conformance import run_case
from domain.profile import UnsupportedProfile, resolve
from domain.strength import markdown, samples_of, seating, summarize


def _case_files(paths: tuple[str, ...]) -> list[Path]:
    """The case files named by `paths`: files as given, folders searched recursively."""
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        files += sorted(path.rglob("*.json")) if path.is_dir() else [path]
    return files


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
def conformance(paths: tuple[str, ...]) -> None:
    """Run conformance case files (or folders of them); exit 1 if any fails."""
    files = _case_files(paths)
    if not files:
        raise click.UsageError("no case files (*.json) under " + ", ".join(paths))
    passed = failed = 0
    for path in files:
        try:
            result = run_case(json.loads(path.read_text()))
        except (ValueError, KeyError, TypeError, AttributeError) as error:  # not a case
            failed += 1
            click.echo(f"FAIL {path}: not a readable case ({error})")
            continue
        if result.passed:
            passed += 1
            click.echo(f"PASS {result.id}")
        else:
            failed += 1
            click.echo(f"FAIL {result.id}: {'; '.join(result.failures)}")
    click.echo(f"{passed} passed, {failed} failed")
    raise SystemExit(1 if failed else 0)


@click.command()
@click.option("--games", type=click.IntRange(min=1), default=10, show_default=True,
              help="games to play")
@click.option("--seed", default=0, show_default=True, help="seed of the first game")
@click.option("--levels", default="basic", show_default=True,
              help="bot levels, comma separated, rotated over the seats game by game")
@click.option("--profile", "profile_text", default="standard", show_default=True,
              help="a preset name (RULES.md R11.20) or a JSON object of §11 options")
@click.option("--players", type=click.IntRange(3, 8), default=None,
              help="seats at the table (default: the profile's players, 4)")
def simulate(games: int, seed: int, levels: str, profile_text: str,
             players: int | None) -> None:
    """Play N in-process games of bots under a rule profile; print the mean penalty per seat
    and per level (95% interval), the rounds that ended without a winner (at the turn cap or
    for want of a card), the mean turns per round and the games per second."""
    from domain.simulation import batch_gc, play_game, rounds_ended

    profile = _profile(profile_text, players)
    level_list = tuple(levels.split(","))
    unknown = set(level_list) - set(BOT_LEVELS)
    if unknown:
        raise click.BadParameter(f"unknown level(s) {', '.join(sorted(unknown))}; "
                                 f"choose from {', '.join(BOT_LEVELS)}", param_hint="--levels")
    seat_count = profile.players
    samples, totals, rounds, turns = [], [0] * seat_count, 0, 0
    no_winner = {"turn_cap": 0, "no_card": 0}
    started = time.perf_counter()
    with batch_gc(), click.progressbar(range(games), label="games") as bar:
        for number in bar:
            seats = seating(level_list, number, seat_count)
            result = play_game(seats, random.Random(seed + number), profile)
            samples += samples_of(seats, result.totals, result.winners)
            totals = [a + b for a, b in zip(totals, result.totals)]
            rounds += len(result.turns_per_round)
            turns += sum(result.turns_per_round)
            for ended in rounds_ended(result.events):
                if ended.winner is None:
                    no_winner[ended.reason] = no_winner.get(ended.reason, 0) + 1
    elapsed = time.perf_counter() - started
    for seat, total in enumerate(totals):
        click.echo(f"seat {seat}: mean penalty {total / games:.1f}")
    click.echo(markdown(summarize(samples, level_list)))
    click.echo(f"rounds without a winner: {sum(no_winner.values())} of {rounds} "
               f"(turn cap R10.4: {no_winner['turn_cap']}, no card R10.2/R11.17: "
               f"{no_winner['no_card']})")
    click.echo(f"mean turns per round: {turns / max(rounds, 1):.1f}")
    click.echo(f"games per second: {games / elapsed:.2f}")


def _profile(text: str, players: int | None):
    """The profile named by `text` (a preset or JSON options), at `players` seats if given."""
    if text.lstrip().startswith("{"):
        try:
            value = json.loads(text)
        except json.JSONDecodeError as error:
            raise click.BadParameter(f"not JSON: {error}", param_hint="--profile") from None
    else:
        value = {"preset": text}
    if players is not None and isinstance(value, dict):
        value = {**value, "players": players}
    try:
        return resolve(value)
    except UnsupportedProfile as refused:
        raise click.BadParameter(str(refused), param_hint="--profile") from None
