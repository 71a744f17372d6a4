"""What happens at a deadline (docs/clock.md): a silent seat's offer answer becomes a pass, a
silent seat's turn times out and the takeover level's bot plays the rest of it, in one append.

Exactly once: the decision is appended at the version the deadline was computed for, with
the system idempotency key `deadline-<version>`; a second run (a duplicate job, a job after
the human acted) finds the game moved on and appends nothing.
"""
from __future__ import annotations

import logging

from domain import RuleViolation, awaiting, bot_level, decide, fold
from service.bot_turns import MAX_TURN_STEPS, bot_step
from service.errors import GameNotFound
from service.decisions import Folded, decision_rng
from service.store import ConcurrencyError

log = logging.getLogger(__name__)

STALE, NONE, EARLY, OFFER, TURN, GONE = "stale", "none", "early", "offer", "turn", "gone"


def deadline_key(version: int) -> str:
    """The idempotency key of the deadline decision at `version` (scoped `system:`)."""
    return f"deadline-{version}"


def run_deadline(service, game_id: str, version: int) -> str:
    """Act on the game's deadline computed at `version`, if it is still the game's and has
    passed by the Redis server's clock. Returns what happened: "stale" (the game moved on:
    its newer deadline is scheduled again), "none" (nothing awaited from a human), "early"
    (not due yet: rescheduled), "offer" (the silent seats passed, R6.9), "claim" (the same
    for a Shanghai claim, R11.18), "turn" (the seat
    timed out; its bot played the rest of the turn) or "gone" (no such game any more, e.g.
    removed by retention: its entry goes). Raises StoreUnavailable (the job is retried)."""
    try:
        current, state = service.load(game_id)
    except GameNotFound:
        service.schedule.forget(game_id)
        return GONE
    if current != version:
        service.schedule_deadline(game_id, current, state)
        return STALE
    due = service.deadline(game_id, version, state)
    if due is None:
        service.schedule_deadline(game_id, version, state)
        return NONE
    if due.due_ms > service.schedule.now_ms():
        service.schedule.set(game_id, version, due.due_ms)
        return EARLY
    rng_seed, turn = service.record(game_id).rng_seed, awaiting(state).turn
    if due.kind in ("offer", "claim"):
        action = {"type": "close_offer" if due.kind == "offer" else "close_claim"}
        decision = _close(rng_seed, action)
    else:
        action = {"type": "time_out", "seat": turn}
        decision = _turn_timeout(rng_seed, turn)
    try:
        service.decide_at(game_id, action, version, deadline_key(version), decision)
    except (ConcurrencyError, RuleViolation):
        current, state = service.load(game_id)
        service.schedule_deadline(game_id, current, state)
        return STALE
    return due.kind


def _close(rng_seed: str, action: dict):
    """The decision of an offer's or a Shanghai claim's deadline: every silent seat passes
    (R6.9, R11.18)."""
    def decision(state, version: int) -> list:
        return decide(state, None, action, decision_rng(rng_seed, version))
    return decision


def _turn_timeout(rng_seed: str, seat: int):
    """The decision of a turn's deadline: TurnTimedOut (and SeatTakenOver when due, domain.
    control), then the takeover level's bot plays the seat while the turn awaits it alone: its
    draw, melds, lay-offs and discard (it stops at a buy offer others must answer; the bot
    jobs finish the turn after it). Each step is decided like any action, with the RNG of the
    version it would have as a separate append, so a replay decides the same cards."""

    def decision(state, version: int) -> list:
        events = decide(state, None, {"type": "time_out", "seat": seat},
                        decision_rng(rng_seed, version))
        state = fold(events, state)
        level = bot_level(state, seat)
        for _ in range(MAX_TURN_STEPS):
            wait = awaiting(state)
            if wait.status != "playing" or wait.seats != (seat,) or wait.turn != seat:
                break
            step, _ = bot_step(state, seat, level, rng_seed, version + len(events))
            events += step
            state = fold(step, state)
        return Folded(events, state)
    return decision
