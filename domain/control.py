"""Seat control and the clock's system actions: turn timeouts, takeover by a bot, reclaim,
resignation, abort (docs/clock.md). Pure like every decision: the domain never reads time; the
service decides `time_out` when its clock says a turn's deadline passed.

These are table rules of this service, not of RULES.md; their refusals cite ids T1-T5:
T1 an aborted game takes no action; T2 a time out applies only to a seat whose turn is
awaited from its human, in a game with a clock; T3 only a seat taken over after timeouts can
be reclaimed; T4 a seat resigns once; T5 a seat played by a bot takes no action from its
human until it is reclaimed (checked by the service, which knows who acts).
"""
from __future__ import annotations

import random

from domain.awaiting import awaiting
from domain.decide_common import require_seat
from domain.errors import RuleViolation
from domain.events import Event, GameAborted, SeatReclaimed, SeatTakenOver, TurnTimedOut
from domain.lobby import lobby_bot_level
from domain.state import (ABORTED, CUT, DRAW, EXPIRED, FINISHED, PLAY, PLAYING, RESIGNED,
                          TIMEOUTS, GameState)

DEFAULT_TAKEOVER_LEVEL = "basic"


def bot_level(state: GameState, seat: int) -> str | None:
    """The level of the bot playing `seat` because of the clock or a resignation (taken over,
    or finishing the seat's timed-out turn) or because it was left open when a lobby game
    started (domain.lobby), or None when the seat is played as seated."""
    filled = lobby_bot_level(state, seat)
    if filled is not None:
        return filled
    taken = state.taken_over[seat]
    if taken is not None:
        return taken.level
    if state.timed_out == seat:
        return state.clock.takeover_level if state.clock else DEFAULT_TAKEOVER_LEVEL
    return None


def require_not_aborted(state: GameState) -> None:
    """Raise RuleViolation T1 when the game was aborted."""
    if state.status == ABORTED:
        raise RuleViolation("T1", "the game was aborted: it takes no more actions")


def time_out(state: GameState, seat: None, action: dict, rng: random.Random) -> list[Event]:
    """System action `{"type": "time_out", "seat": s}` at the deadline of `s`'s turn:
    TurnTimedOut, then SeatTakenOver (reason "timeouts") when this is the seat's
    `clock.timeouts_before_takeover`-th consecutive timeout. The bot's moves for the rest of
    the turn are chosen and decided by the caller. Raises RuleViolation T1 or T2 (not `s`'s
    turn, the seat already played by a bot, or no clock)."""
    require_not_aborted(state)
    target = require_seat(state, action.get("seat"))
    wait = awaiting(state)
    if state.clock is None:
        raise RuleViolation("T2", "this game has no clock")
    if wait.status != PLAYING or wait.turn != target or wait.phase not in (DRAW, PLAY, CUT):
        raise RuleViolation("T2", f"seat {target}'s turn is not awaited now")
    if bot_level(state, target) is not None:
        raise RuleViolation("T2", f"seat {target} is played by a bot now")
    events: list[Event] = [TurnTimedOut(seat=target)]
    if state.timeouts[target] + 1 >= state.clock.timeouts_before_takeover:
        events.append(SeatTakenOver(seat=target, level=state.clock.takeover_level,
                                    reason=TIMEOUTS))
    return events


def resign(state: GameState, seat: int, action: dict, rng: random.Random) -> list[Event]:
    """`{"type": "resign"}` from a seat's human: a bot (the clock's takeover level) plays the
    seat for the rest of the game; final (SeatTakenOver, reason "resigned"). Raises
    RuleViolation T1, R9.4 (the game is over) or T4 (resigned already)."""
    require_not_aborted(state)
    seat = require_seat(state, seat)
    if state.status == FINISHED:
        raise RuleViolation("R9.4", "the game is over")
    taken = state.taken_over[seat]
    if taken is not None and taken.reason == RESIGNED:
        raise RuleViolation("T4", "you have resigned this seat already")
    level = taken.level if taken is not None else (
        state.clock.takeover_level if state.clock else DEFAULT_TAKEOVER_LEVEL)
    return [SeatTakenOver(seat=seat, level=level, reason=RESIGNED)]


def reclaim(state: GameState, seat: int, action: dict, rng: random.Random) -> list[Event]:
    """`{"type": "reclaim"}` from the human of a seat taken over after timeouts: SeatReclaimed;
    the seat is awaited from its human again. Raises RuleViolation T1, R9.4, or T3 (the seat
    is not taken over, or was resigned: final)."""
    require_not_aborted(state)
    seat = require_seat(state, seat)
    if state.status == FINISHED:
        raise RuleViolation("R9.4", "the game is over")
    taken = state.taken_over[seat]
    if taken is None:
        raise RuleViolation("T3", "your seat is not played by a bot: there is nothing to "
                                  "reclaim")
    if taken.reason == RESIGNED:
        raise RuleViolation("T3", "you resigned this seat: a resignation is final")
    return [SeatReclaimed(seat=seat)]


def abort(state: GameState, seat: None, action: dict, rng: random.Random) -> list[Event]:
    """System action `{"type": "abort"}`: GameAborted; nothing may follow. Raises
    RuleViolation T1 (aborted already), L1 (a lobby that expired: LobbyExpired ends its
    stream as GameAborted would) or R9.4 (the game is over)."""
    require_not_aborted(state)
    if state.status == EXPIRED:
        raise RuleViolation("L1", "the game expired before it started: there is nothing to "
                                  "abort")
    if state.status == FINISHED:
        raise RuleViolation("R9.4", "the game is over: there is nothing to abort")
    return [GameAborted(reason=str(action.get("reason", "admin"))[:40])]
