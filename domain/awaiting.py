"""Who must act now: the active seat, the seats owing an answer to an offer, or nobody."""
from __future__ import annotations

from typing import NamedTuple

from domain.decide_claims import waiting_for_claim
from domain.offers import first_waiting, waiting_for
from domain.state import ABORTED, BUYING, CLAIM, FINISHED, PLAYING, SCORING, GameState


class Awaiting(NamedTuple):
    """`status` "waiting"|"playing"|"scoring"|"finished"|"aborted"|"expired"; `turn` the active
    seat (None unless playing); `phase` "draw"|"play"|"buying"|"claim"|"cut" (None unless
    playing); `seats` that must act now (the active seat, the cutter (R11.19), or the seats
    owing an answer to the open offer (R6.9) or claim (R11.18); empty otherwise)."""

    status: str
    turn: int | None
    phase: str | None
    seats: tuple[int, ...]

    def to_json(self) -> dict:
        """JSON-ready dict: status, turn, phase, seats (a list)."""
        return {"status": self.status, "turn": self.turn, "phase": self.phase,
                "seats": list(self.seats)}


# The last two states asked about, with their answers. States are immutable and a service
# asks about the same ones several times in a row (a worker's append: the state before and
# after it, for its follow-ups, index, snapshot and projections, ~10 times; issue 12), so an
# identity check answers most. Holding the states keeps their ids from being reused; the pair
# is swapped whole, so threads sharing it can only miss, never read a wrong answer.
_recent: tuple[tuple[object, object], ...] = ((object(), None), (object(), None))


def awaiting(state: GameState) -> Awaiting:
    """Return what the game waits for in `state`."""
    global _recent
    recent = _recent
    for held, answer in recent:
        if held is state:
            return answer
    answer = _awaiting(state)
    _recent = ((state, answer), recent[0])
    return answer


def _awaiting(state: GameState) -> Awaiting:
    if state.status in (SCORING, FINISHED, ABORTED):
        return Awaiting(state.status, None, None, ())
    rnd = state.round
    if rnd is None:  # GameCreated folded alone: no round dealt yet
        return Awaiting(state.status, None, None, ())
    if rnd.phase == BUYING and rnd.offer is not None:
        return Awaiting(PLAYING, rnd.turn, BUYING, waiting_for(rnd.offer, rnd.turn, state.seats))
    if rnd.phase == CLAIM:
        return Awaiting(PLAYING, rnd.turn, CLAIM,
                        waiting_for_claim(rnd.claim, rnd, state.seats))
    return Awaiting(PLAYING, rnd.turn, rnd.phase, (rnd.turn,))


def first_to_act(state: GameState) -> int:
    """`awaiting(state).seats[0]`, without building the Awaiting or the tuple of seats: the
    in-process loop (`domain.simulation`) asks it at every decision. IndexError when no seat
    must act, as `seats[0]` raises."""
    rnd = state.round
    if state.status != PLAYING or rnd is None or rnd.phase == CLAIM:
        return awaiting(state).seats[0]
    offer = rnd.offer
    if rnd.phase != BUYING or offer is None:
        return rnd.turn
    seat = first_waiting(offer, rnd.turn, state.seats)
    if seat is None:
        raise IndexError("no seat owes an answer to the offer")
    return seat
