"""Bot moves decided in process and appended together (docs/workers.md "Bot turns").

A bot job (workers.jobs.play_bots) and a turn's deadline (service.timeouts) both let bots play
several actions in a row. Each action is decided exactly as if it were appended alone (the
bot's RNG and the rules' RNG of the version it gets), folded, and the bot decides again; the
events of one bot turn (up to its discard, with the buy-offer answers before it; two turns in a
game of bots, workers.turns.BOT_GAME_TURNS) then go to the stream in ONE append at the version
the decisions started from. The stream, and so every replay, is identical event by event to
one append per action; what changes is the cost: one append script, one index check, one
deadline update per turn instead of per action.
"""
from __future__ import annotations

import logging
import random
from typing import Callable, Mapping

from domain import RuleViolation, awaiting, choose_action, decide, fold
from domain.views import SeatView
from service.decisions import Folded, decision_rng

log = logging.getLogger(__name__)
MAX_TURN_STEPS = 60  # a bot turn's actions: draw, melds, lay-offs, discard; far more is a bug
TURN_ENDS = ("discard",)


class LazyRandom(random.Random):
    """`random.Random(seed)` that seeds itself on first use: the same numbers, but an RNG never
    drawn from (most bot choices and most decisions draw nothing) skips the seeding, a SHA-512
    of the seed and the Mersenne Twister's 624 words (~6 us: 2 per bot action, ~7% of a
    worker's CPU before)."""

    def __init__(self, seed: str) -> None:
        self._pending: str | None = seed
        super().__init__(seed)

    def seed(self, a=None, version: int = 2) -> None:
        if getattr(self, "_pending", None) is not None and a == self._pending:
            return  # __init__'s call: wait for the first draw
        self._pending = None
        super().seed(a, version)

    def _ready(self) -> None:
        if self._pending is not None:
            pending, self._pending = self._pending, None
            super().seed(pending)

    def random(self) -> float:
        self._ready()
        return super().random()

    def getrandbits(self, k: int) -> int:
        self._ready()
        return super().getrandbits(k)

    def getstate(self):
        self._ready()
        return super().getstate()

    def setstate(self, state) -> None:
        self._pending = None
        super().setstate(state)


def bot_rng(rng_seed: str, seat: int, version: int) -> random.Random:
    """The RNG of the bot of `seat` deciding at `version`: a pure function of the game's secret
    seed, so a re-run job (or a replayed seeded game) makes the same choice."""
    return LazyRandom(f"{rng_seed}:bot:{seat}:{version}")


def lazy_decision_rng(rng_seed: str, version: int) -> random.Random:
    """service.decisions.decision_rng(rng_seed, version), seeded on first use (LazyRandom)."""
    return LazyRandom(f"{rng_seed}:{version}")


def bot_step(state: object, seat: int, level: str, rng_seed: str, version: int) -> tuple[list, dict]:
    """(events, action) of the `level` bot of `seat` acting on `state` as the append at
    `version` would: chosen with bot_rng(seat, version), decided with decision_rng(version). A
    choice the rules refuse is logged (action type and rule id only: never a card) and replaced
    by a random legal action, so a bot bug cannot stall a game. Raises RuleViolation only if
    that fallback is refused too."""
    view, rng = SeatView(state, seat), bot_rng(rng_seed, seat, version)
    action = choose_action(level, view, rng)
    try:
        return decide(state, seat, action, lazy_decision_rng(rng_seed, version)), action
    except RuleViolation as refused:
        log.error("bot of seat %s at version %s chose a %s, refused (%s); playing a random "
                  "legal action", seat, version, action.get("type"), refused.rule)
        action = rng.choice(view["legal_actions"])
        return decide(state, seat, action, decision_rng(rng_seed, version)), action


class BotTurn:
    """A decision (service.decisions.Decision: `(state, version) -> Folded`) playing the bots the
    game awaits until `turns` bot turns end (each at its discard) or no bot is awaited: the
    buy-offer answers owed by bots, then the draw, melds and discard of a bot's turn.

    `rng_seed`: the game's secret seed; `bot_levels(state)`: {seat: level} of the seats bots
    play in that state (the clock's takeovers change it); `turns`: 1 wherever a human may be
    watching for the next bot's move to act on it, more only for a game of bots (its events
    then reach the stream a few turns at a time: fewer appends for the same events). After a
    call, `played` is the number of actions decided."""

    def __init__(self, rng_seed: str, bot_levels: Callable[[object], Mapping[int, str]],
                 turns: int = 1) -> None:
        self._rng_seed, self._bot_levels, self._turns = rng_seed, bot_levels, turns
        self.played = 0

    def __call__(self, state: object, version: int) -> Folded:
        events: list = []
        self.played = ended = 0
        levels = self._bot_levels(state)  # a bot's own moves never hand a seat over
        while self.played < MAX_TURN_STEPS * self._turns:
            wait = awaiting(state)
            seat = next((s for s in wait.seats if s in levels), None)
            if wait.status != "playing" or seat is None:
                break
            step, action = bot_step(state, seat, levels[seat], self._rng_seed,
                                    version + len(events))
            events += step
            state = fold(step, state)
            self.played += 1
            if action["type"] in TURN_ENDS:
                ended += 1
                if ended == self._turns:
                    break
        return Folded(events, state)
