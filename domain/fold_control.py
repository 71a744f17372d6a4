"""Folding the events of seat control and the clock (the table rules T1-T5, docs/clock.md):
the table's clock, a seat's timeouts, a bot taking a seat over and its human reclaiming it, an
aborted game.
`domain.fold` registers CONTROL_HANDLERS, as it does the lobby's and the variants'."""
from __future__ import annotations

from domain import events as ev
from domain.fold_tuples import replaced as _replaced
from domain.state import ABORTED, Clock, Takeover

Fields = dict


def _clock_set(game: Fields, rnd: Fields | None, e: ev.ClockSet) -> tuple[Fields, Fields | None]:
    game["clock"] = Clock(e.turn_s, e.offer_s, e.timeouts_before_takeover, e.takeover_level)
    return game, rnd


def _turn_timed_out(game: Fields, rnd: Fields, e: ev.TurnTimedOut) -> tuple[Fields, Fields]:
    game["timeouts"] = _replaced(game["timeouts"], e.seat, game["timeouts"][e.seat] + 1)
    game["timed_out"] = e.seat
    return game, rnd


def _seat_taken_over(game: Fields, rnd: Fields | None,
                     e: ev.SeatTakenOver) -> tuple[Fields, Fields | None]:
    game["taken_over"] = _replaced(game["taken_over"], e.seat, Takeover(e.level, e.reason))
    return game, rnd


def _seat_reclaimed(game: Fields, rnd: Fields | None,
                    e: ev.SeatReclaimed) -> tuple[Fields, Fields | None]:
    game["taken_over"] = _replaced(game["taken_over"], e.seat, None)
    game["timeouts"] = _replaced(game["timeouts"], e.seat, 0)
    if game["timed_out"] == e.seat:
        game["timed_out"] = None
    return game, rnd


def _game_aborted(game: Fields, rnd: Fields | None,
                  _: ev.GameAborted) -> tuple[Fields, Fields | None]:
    game["status"], game["timed_out"] = ABORTED, None
    return game, rnd


CONTROL_HANDLERS = {
    ev.ClockSet: _clock_set,
    ev.TurnTimedOut: _turn_timed_out,
    ev.SeatTakenOver: _seat_taken_over,
    ev.SeatReclaimed: _seat_reclaimed,
    ev.GameAborted: _game_aborted,
}
