"""Run one FORMAT.md conformance case against the engine (pure: the caller reads the files)."""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from domain.decide import decide, start_from_position
from domain.errors import RuleViolation
from domain.events import GameEnded, RoundScored
from domain.fold import fold
from domain.state import SCORING, GameState


@dataclass(frozen=True)
class CaseResult:
    """The outcome of one case: `failures` lists every unmet expectation (empty: passed)."""

    id: str
    passed: bool
    failures: list[str] = field(default_factory=list)


def run_case(case: dict) -> CaseResult:
    """Load the case's position, play its steps, check `expect` and `final` (FORMAT.md).

    Deals and decisions use a fixed random.Random(0). A `round_over` expectation scores the
    ended round (system action score_round) and compares its scores and totals; the other
    `final` keys describe the table as the round ended. A `profile_error` case passes when
    loading its position is refused citing one of the listed rules (R11). Never raises for a
    failing case.
    """
    case_id = case.get("id", "?")
    rng = random.Random(0)
    try:
        state = fold(start_from_position(case["position"], rng))
    except ValueError as exc:
        return _refused(case_id, case.get("profile_error"), exc)
    if case.get("profile_error"):
        return CaseResult(case_id, False, ["the position was loaded, expected a refusal citing "
                                           f"{case['profile_error']}"])
    failures: list[str] = []
    for number, step in enumerate(case.get("steps", []), start=1):
        state, problem = _play_step(state, step, rng)
        if problem:
            failures.append(f"step {number}: {problem}")
    failures += _check_final(state, case.get("final") or {}, rng)
    return CaseResult(case_id, not failures, failures)


def _refused(case_id: str, wanted: list | None, exc: ValueError) -> CaseResult:
    rule = getattr(exc, "rule", None)
    if wanted and rule in wanted:
        return CaseResult(case_id, True)
    return CaseResult(case_id, False, [f"position refused: {exc}"])


def _play_step(state: GameState, step: dict, rng: random.Random) -> tuple[GameState, str | None]:
    expect = step.get("expect", {"ok": True})
    wanted_rules = expect.get("error")
    try:
        events = decide(state, step.get("seat"), step["do"], rng)
    except RuleViolation as refusal:
        if wanted_rules is None:
            return state, f"refused with {refusal.rule}: {refusal.message}"
        if refusal.rule not in wanted_rules:
            return state, f"refused citing {refusal.rule}, expected one of {wanted_rules}"
        return state, None
    except Exception as crash:  # a case must report an engine bug, not stop the run
        return state, f"engine error {type(crash).__name__}: {crash}"
    if wanted_rules is not None:
        return fold(events, state), f"accepted, expected a refusal citing {wanted_rules}"
    return fold(events, state), None


def _check_final(state: GameState, final: dict, rng: random.Random) -> list[str]:
    failures = [f"{key}: {problem}" for key, want in final.items()
                if key in _TABLE_CHECKS and (problem := _TABLE_CHECKS[key](state, want))]
    if "round_over" in final or "game_over" in final:
        failures += _check_scoring(state, final.get("round_over"), final.get("game_over"),
                                   "game_over" in final, rng)
    return failures


def _check_scoring(state: GameState, round_over: dict | None, game_over: dict | None,
                   game_checked: bool, rng: random.Random) -> list[str]:
    if state.status != SCORING:
        return [] if round_over is None and game_over is None else ["the round has not ended"]
    if round_over is None and game_over is None:
        return ["the round ended, expected it to go on"]
    events = decide(state, None, {"type": "score_round"}, rng)
    scored = next(e for e in events if isinstance(e, RoundScored))
    ended = next((e for e in events if isinstance(e, GameEnded)), None)
    failures = []
    if round_over is not None:
        failures += _differences("round_over", {
            "winner": state.round.winner, "round_scores": list(scored.scores),
            "totals": list(scored.totals)}, round_over)
    if game_checked:
        got = None if ended is None else {"winners": list(ended.winners),
                                          "totals": list(ended.totals)}
        want = None if game_over is None else {k: game_over[k] for k in ("winners", "totals")
                                               if k in game_over}
        if got != want:
            failures.append(f"game_over: got {got}, expected {game_over}")
    return failures


def _differences(name: str, got: dict, want: dict) -> list[str]:
    return [f"{name}.{key}: got {got.get(key)!r}, expected {value!r}"
            for key, value in want.items() if got.get(key) != value]


def _compare(got: object, want: object) -> str | None:
    return None if got == want else f"got {got!r}, expected {want!r}"


def _hands(state: GameState, want: list) -> str | None:
    for seat, (hand, wanted) in enumerate(zip(state.round.hands, want)):
        if wanted is not None and Counter(hand) != Counter(wanted):
            return f"seat {seat} holds {sorted(hand)}, expected {sorted(wanted)}"
    return None


def _melds(state: GameState, want: list) -> str | None:
    melds = state.round.melds
    for item in want:
        index = item["index"]
        if index >= len(melds):
            return f"no meld {index}"
        meld = melds[index]
        same = (list(meld.cards) == item["cards"] if meld.kind == "run"
                else Counter(meld.cards) == Counter(item["cards"]))
        if not same:
            return f"meld {index} is {list(meld.cards)}, expected {item['cards']}"
    return None


def _offer(state: GameState, want: dict | None) -> str | None:
    offer = state.round.offer
    got = None if offer is None else {"card": offer.card}
    return _compare(got, None if want is None else {"card": want["card"]})


def _claim(state: GameState, want: dict | None) -> str | None:
    claim = state.round.claim
    got = None if claim is None else {"card": claim.card, "discarder": claim.discarder}
    return _compare(got, want)


_TABLE_CHECKS = {
    "claim": _claim,
    "purchases": lambda s, w: _compare(list(s.round.purchases), w),
    "rebuilds": lambda s, w: _compare(s.round.rebuilds, w),
    "turn": lambda s, w: _compare(s.round.turn, w),
    "phase": lambda s, w: _compare(s.round.phase, w),
    "hand_sizes": lambda s, w: _compare([len(h) for h in s.round.hands], w),
    "hands": _hands,
    "stock_size": lambda s, w: _compare(len(s.round.stock), w),
    "discard_size": lambda s, w: _compare(len(s.round.discard), w),
    "discard_top": lambda s, w: _compare(s.round.discard[-1] if s.round.discard else None, w),
    "meld_count": lambda s, w: _compare(len(s.round.melds), w),
    "melds": _melds,
    "offer": _offer,
}
