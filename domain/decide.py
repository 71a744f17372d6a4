"""decide: validate a command against the folded state and return the events it produces.

Player actions are FORMAT.md's `do` objects plus seat control (`resign`, `reclaim`,
domain.control); system actions (seat None) are `{"type": "score_round"}`,
`{"type": "close_offer"}`, `{"type": "close_claim"}` (R11.18), `{"type": "time_out",
"seat": s}` and `{"type": "abort"}`; a lobby game's `join`, `start` and `expire`
(domain.lobby). Nothing here mutates its input; all
randomness comes from the injected `rng` and is recorded in the events.
"""
from __future__ import annotations

import random
from typing import Callable

from domain.control import abort, reclaim, require_not_aborted, resign, time_out
from domain.decide_buying import answer, close_offer
from domain.decide_claims import claim, claim_pass, close_claim
from domain.decide_cut import cut
from domain.decide_melding import lay_off, open_contract, swap_joker
from domain.decide_scoring import deal_round, score_round
from domain.decide_turn import discard, draw
from domain.errors import MalformedAction
from domain.events import Event, GameCreated, PositionLoaded
from domain.lobby import LOBBY_ACTIONS, require_started
from domain.positions import normalize_position
from domain.profile import RuleProfile
from domain.state import FINISHED, PLAYING, SCORING, GameState

def _pass(state: GameState, seat: object, action: dict, rng: random.Random) -> list[Event]:
    """`pass` answers the open Shanghai claim if there is one (R11.18), else the buy offer."""
    rnd = state.round
    if rnd is not None and rnd.claim is not None:
        return claim_pass(state, seat, action, rng)
    return answer(state, seat, action, rng)


PLAYER_ACTIONS: dict[str, Callable[..., list[Event]]] = {
    "draw": draw,
    "buy": answer,
    "pass": _pass,
    "claim": claim,
    "cut": cut,
    "open": open_contract,
    "lay_off": lay_off,
    "swap_joker": swap_joker,
    "discard": discard,
    "resign": resign,
    "reclaim": reclaim,
}
SYSTEM_ACTIONS: dict[str, Callable[..., list[Event]]] = {
    "score_round": score_round,
    "close_offer": close_offer,
    "close_claim": close_claim,
    "time_out": time_out,
    "abort": abort,
    **LOBBY_ACTIONS,
}
# What a game may take before its first deal (domain.lobby, rule L3): the lobby's own actions
# and an abort.
BEFORE_DEAL = frozenset({*LOBBY_ACTIONS, "abort"})
# Statuses in which neither `require_not_aborted` nor `require_started` can raise.
_IN_PLAY = frozenset({PLAYING, SCORING, FINISHED})


def decide(state: GameState, seat: int | None, action: dict, rng: random.Random) -> list[Event]:
    """Return the events `action` by `seat` produces in `state` (seat None: a system action).

    Raises RuleViolation naming the rule broken (and changes nothing), or MalformedAction for
    an action outside the vocabulary (unknown type, missing field, bad card code).
    """
    kind = action.get("type") if isinstance(action, dict) else None
    table = SYSTEM_ACTIONS if seat is None else PLAYER_ACTIONS
    handler = table.get(kind)
    if handler is None:
        who = "the system" if seat is None else "a player"
        raise MalformedAction("R5", f"{kind!r} is not an action {who} can take")
    if state.status not in _IN_PLAY:   # the two guards below pass in play: skip their calls
        require_not_aborted(state)
        if kind not in BEFORE_DEAL:
            require_started(state)
    return handler(state, seat, action, rng)


def start_game(profile: RuleProfile, seats: int = 4, rng: random.Random | None = None,
               seed: int | str | None = None) -> list[Event]:
    """GameCreated (first dealer drawn from `rng`, R2.2; every option of the profile, R11)
    and the first deal: RoundDealt (R2.3), or DeckShuffled awaiting the cut (R11.19).

    `seed` is only recorded (hidden from seats until the game ends). Raises ValueError when
    `seats` differs from the profile's players (R1.1) or `rng` is missing.
    """
    if seats != profile.players:
        raise ValueError(f"this profile is played by exactly {profile.players} players (R1.1)")
    if rng is None:
        raise ValueError("start_game needs an rng: the deal is random (R2.2, R2.3)")
    dealer = rng.randrange(seats)
    return [GameCreated(profile=profile.to_json(), seats=seats, first_dealer=dealer, seed=seed),
            deal_round(1, dealer, rng, profile)]


def start_from_position(position: dict, rng: random.Random | None = None) -> list[Event]:
    """[PositionLoaded] holding the normalized FORMAT.md position (every card listed).

    A fresh-deal position is shuffled with `rng` (default random.Random(0)), and so are the
    cards a position leaves out when `rng` is given (`normalize_position`). Raises
    ValueError (RuleViolation, MalformedAction, UnsupportedProfile included) when the
    position is inconsistent.
    """
    return [PositionLoaded(position=normalize_position(position, rng))]
