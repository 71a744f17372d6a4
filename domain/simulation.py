"""Whole games of bots in process: the loop a bot researcher (or a benchmark) runs.

    result = play_game(("basic",) * 4, random.Random(7))
    result.totals, result.winners, len(result.events)
"""
from __future__ import annotations

import gc
import random
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator

from domain.awaiting import first_to_act
from domain.bots import choose_action
from domain.decide import decide, start_game
from domain.events import Event, RoundEnded
from domain.fold import fold
from domain.profile import RuleProfile
from domain.state import FINISHED, SCORING, GameState
from domain.views import SeatView


@dataclass(frozen=True)
class GameResult:
    """A finished game: its events, final state, totals, winners and turns of each round."""

    events: tuple[Event, ...]
    state: GameState
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    turns_per_round: tuple[int, ...]


def play_game(levels: tuple[str, ...], rng: random.Random,
              profile: RuleProfile | None = None) -> GameResult:
    """Play one game of bots at `levels` (one per seat) to its end; `rng` drives everything.

    Each step asks the first seat that must act for its action (bots see only their seat
    view, read lazily: `SeatView`) and scores rounds as the service's job would.
    """
    events = list(start_game(profile or RuleProfile(), len(levels), rng))
    state = fold(events)
    turns = []
    while state.status != FINISHED:
        if state.status == SCORING:
            turns.append(state.round.turns)
            new = decide(state, None, {"type": "score_round"}, rng)
        else:
            seat = first_to_act(state)
            action = choose_action(levels[seat], SeatView(state, seat), rng)
            new = decide(state, seat, action, rng)
        events += new
        state = fold(new, state)  # one working copy per batch, not per event
    return GameResult(tuple(events), state, state.totals, state.winners, tuple(turns))


# Young-generation threshold while games are played in a batch: a game allocates hundreds of
# thousands of short-lived objects (states, events, views), almost none in reference cycles,
# so the default of 700 runs a young collection every few decisions for nothing.
BATCH_GC_THRESHOLD = 50_000


@contextmanager
def batch_gc() -> Iterator[None]:
    """Tune the cyclic GC for a batch of games in process (benchmarks, `rummy simulate`).

    Freezes what is alive now (modules, tables, caches: never collected, no longer scanned)
    and raises the young generation's threshold to `BATCH_GC_THRESHOLD`; both undone on exit
    (the unfreeze also thaws what was frozen before entry: a process that froze its own objects,
    as `rummy worker` does, should not use it).
    Bot play is unchanged (the GC only frees cycles). Measured on `bench.engine`'s games: 1.7%
    fewer instructions per game (bench/README.md). Not for a long-lived service: what is
    frozen is never collected.
    """
    thresholds = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(BATCH_GC_THRESHOLD, *thresholds[1:])
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()


def rounds_ended(events: tuple[Event, ...]) -> list[RoundEnded]:
    """The RoundEnded events of a game, in order."""
    return [e for e in events if isinstance(e, RoundEnded)]
