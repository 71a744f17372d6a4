"""The rule profile value: one field per option of RULES.md §11, plus derived lookups.

A contract requirement is stored as ``"group"`` / ``"run"`` at its standard minimum (3, 4),
or as a ``(kind, min)`` pair otherwise (R11.5), so the standard profile's contracts stay the
plain kind tuples that views and bots read.
"""
from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass
from functools import cached_property

GROUP, RUN = "group", "run"
STANDARD_MIN = {GROUP: 3, RUN: 4}
STANDARD_CONTRACTS = (
    (GROUP, GROUP), (GROUP, RUN), (RUN, RUN), (GROUP, GROUP, GROUP), (GROUP, GROUP, RUN),
    (GROUP, RUN, RUN), (RUN, RUN, RUN),
)
WHOLE_HAND, DISCARD = "whole_hand_no_discard", "discard"
# sorted kinds -> the round of R2.1 (1-6) opened with them, for the specialised search
_STANDARD_ROUND = {tuple(sorted(c)): r for r, c in enumerate(STANDARD_CONTRACTS[:6], start=1)}
MAX_PLAY_OFFS = 3  # R11.16: at most three extra deals


@dataclass(frozen=True)
class MeldRules:
    """What a meld may be under a profile (R3, R11.5, R11.13-R11.15): the shortest group and
    run any contract asks for, the ace rule, wild deuces and the wild cards a run may hold."""

    group_min: int = 3
    run_min: int = 4
    ace_high_only: bool = False
    wild_twos: bool = False
    jokers_per_run: int | None = None

    @property
    def standard(self) -> bool:
        """True for the melds of R3 exactly (the engine's fast path)."""
        return self == STANDARD_MELDS

    @property
    def longest_run(self) -> int:
        """14 (A..K..A, R3.2) or 13 under `ace: high_only` (2..A, R11.14)."""
        return 13 if self.ace_high_only else 14


STANDARD_MELDS = MeldRules()


@dataclass(frozen=True)
class RuleProfile:
    """The options of RULES.md §11; the defaults are the `standard` profile (R11.20).

    `None` means unlimited for `purchases_per_player_per_round`, `jokers_per_run` and
    `stock_rebuilds`. Build one with `domain.profile.resolve` (validated as a whole); the
    constructor itself checks nothing.
    """

    players: int = 4
    packs: int = 2
    jokers: int = 3
    deal_sizes: tuple[int, ...] = (10, 10, 10, 12, 12, 12, 12)
    contracts: tuple[tuple, ...] = STANDARD_CONTRACTS
    final_round: str = WHOLE_HAND
    lay_off_on_opening_turn: bool = False
    buying: bool = True
    buying_from_round: int = 1
    purchases_per_player_per_round: int | None = None
    penalty_cards_per_purchase: int = 1
    joker_penalty: int = 15
    pip_scoring: str = "face_value"
    jokers_per_run: int | None = None
    ace: str = "low_or_high"
    wild_twos: bool = False
    ties: str = "shared"
    stock_rebuilds: int | None = None
    shanghai_call: bool = False
    cut_bonus: int = 0
    max_turns_per_round: int = 500

    @classmethod
    def from_json(cls, value: str | dict | None) -> RuleProfile:
        """`resolve(value)`: a preset name, an options object (JSON text or dict) or None.

        Raises UnsupportedProfile (a ValueError) naming the option and rule (R11).
        """
        from domain.profile.resolve import resolve
        return resolve(value)

    def to_json(self) -> dict:
        """Every option as a JSON-ready dict; contracts as FORMAT.md requirements (R11.5)."""
        return copy.deepcopy(self.as_json)

    @cached_property
    def as_json(self) -> dict:
        """`to_json()` computed once: shared, so callers must not change it (views read it
        at every decision)."""
        out = {f.name: _jsonable(getattr(self, f.name)) for f in dataclasses.fields(self)}
        out["contracts"] = [[_requirement_json(r) for r in c] for c in self.contracts]
        return out

    # -- derived lookups (cached: a profile is immutable) --------------------------------

    @cached_property
    def rounds(self) -> int:
        """How many contracts the game plays (R11.5); play-off deals come after (R11.16)."""
        return len(self.contracts)

    def contract_index(self, number: int) -> int:
        """0-based contract of round `number` (a play-off deal repeats the last, R11.16)."""
        return min(number, self.rounds) - 1

    def kinds(self, number: int) -> tuple[str, ...]:
        """The meld kinds round `number`'s contract asks for (R2.1, R11.5)."""
        return self._kinds[self.contract_index(number)]

    def mins(self, number: int) -> tuple[int, ...]:
        """The minimum length of each requirement of round `number` (R4.2, R11.5)."""
        return self._mins[self.contract_index(number)]

    def deal_size(self, number: int) -> int:
        """Cards dealt to each seat in round `number` (R2.1, R11.4)."""
        return self.deal_sizes[self.contract_index(number)]

    def final_whole_hand(self, number: int) -> bool:
        """True when round `number` is the final round of R8 (R11.5, R11.6)."""
        return self.final_round == WHOLE_HAND and number >= self.rounds

    def buying_in(self, number: int) -> bool:
        """True when purchases are allowed in round `number` (R11.8)."""
        return self.buying and number >= self.buying_from_round

    def rebuild_allowed(self, done: int) -> bool:
        """True when another stock rebuild is allowed after `done` this round (R11.17)."""
        return self.stock_rebuilds is None or done < self.stock_rebuilds

    @cached_property
    def deck_size(self) -> int:
        """52 x packs + jokers (R11.3)."""
        return 52 * self.packs + self.jokers

    @cached_property
    def meld_rules(self) -> MeldRules:
        """The meld rules of this profile (R3, R11.5, R11.13-R11.15)."""
        mins = [(k, m) for c in self._kinds_mins for k, m in c]
        rules = MeldRules(
            group_min=min([m for k, m in mins if k == GROUP], default=3),
            run_min=min([m for k, m in mins if k == RUN], default=4),
            ace_high_only=self.ace == "high_only", wild_twos=self.wild_twos,
            jokers_per_run=self.jokers_per_run)
        # The same object for every standard profile: `rules is STANDARD_MELDS` is the
        # engine's cheap test for its fast path.
        return STANDARD_MELDS if rules == STANDARD_MELDS else rules

    @cached_property
    def standard_melding(self) -> bool:
        """True when the contracts and final round are those of R2.1 and R8 with the melds
        of R3: the engine's specialised opening check applies."""
        return (self.contracts == STANDARD_CONTRACTS and self.final_round == WHOLE_HAND
                and self.meld_rules is STANDARD_MELDS)

    @cached_property
    def plays_standard(self) -> bool:
        """True when every round plays a contract of R2.1 with the melds, packs and jokers of
        R1-R3, without a cut (R11.19) or claims (R11.18): what the standard bots model."""
        return (self.packs == 2 and None not in self._standard_rounds
                and not self.cut_bonus and not self.shanghai_call)

    def standard_round(self, number: int) -> int | None:
        """The round of R2.1 whose contract round `number` plays, when the specialised
        search applies to it (melds of R3, at most three jokers, minimum lengths of R4.2,
        and the final-round rule where it applies), else None."""
        return self._standard_rounds[self.contract_index(number)]

    @cached_property
    def _standard_rounds(self) -> tuple[int | None, ...]:
        return tuple(self._standard_round(number) for number in range(1, self.rounds + 1))

    def _standard_round(self, number: int) -> int | None:
        if self.meld_rules is not STANDARD_MELDS or self.jokers > 3:
            return None
        contract = self.contracts[self.contract_index(number)]
        if not all(isinstance(req, str) for req in contract):
            return None
        if self.final_whole_hand(number):
            return 7 if sorted(contract) == [RUN] * 3 else None
        return _STANDARD_ROUND.get(tuple(sorted(contract)))

    @cached_property
    def _kinds_mins(self) -> tuple[tuple[tuple[str, int], ...], ...]:
        return tuple(tuple(requirement(r) for r in c) for c in self.contracts)

    @cached_property
    def _kinds(self) -> tuple[tuple[str, ...], ...]:
        return tuple(tuple(k for k, _ in c) for c in self._kinds_mins)

    @cached_property
    def _mins(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(m for _, m in c) for c in self._kinds_mins)


def requirement(req: str | tuple) -> tuple[str, int]:
    """`(kind, min)` of a stored requirement (``"run"`` is ``("run", 4)``)."""
    if isinstance(req, str):
        return req, STANDARD_MIN[req]
    return req[0], req[1]


def _requirement_json(req: str | tuple) -> str | dict:
    return req if isinstance(req, str) else {"kind": req[0], "min": req[1]}


def _jsonable(value: object) -> object:
    if isinstance(value, tuple):
        return [_jsonable(item) for item in value]
    return value
