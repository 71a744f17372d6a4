"""The rule profile: one option per variant of RULES.md §11; only `standard` is played yet."""
from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass

STANDARD_CONTRACTS = (
    ("group", "group"),
    ("group", "run"),
    ("run", "run"),
    ("group", "group", "group"),
    ("group", "group", "run"),
    ("group", "run", "run"),
    ("run", "run", "run"),
)


class UnsupportedProfile(ValueError):
    """A rule profile option has a value this engine does not play yet (RULES.md §11).

    `.option` names the option.
    """

    def __init__(self, option: str, message: str) -> None:
        super().__init__(message)
        self.option = option


@dataclass(frozen=True)
class RuleProfile:
    """The options of RULES.md §11; the defaults are the `standard` profile.

    `None` means "unlimited" for `purchases_per_player_per_round`, `jokers_per_run` and
    `stock_rebuilds`. `max_turns_per_round` (R10.4) is a service safeguard and accepts any
    positive integer; every other option supports only its standard value for now.
    """

    players: int = 4
    packs: int = 2
    jokers: int = 3
    deal_sizes: tuple[int, ...] = (10, 10, 10, 12, 12, 12, 12)
    lay_off_on_opening_turn: bool = False
    purchases_per_player_per_round: int | None = None
    penalty_cards_per_purchase: int = 1
    buying: bool = True
    joker_penalty: int = 15
    pip_scoring: str = "face_value"
    jokers_per_run: int | None = None
    ace: str = "low_or_high"
    final_round: str = "whole_hand_no_discard"
    contracts: tuple[tuple[str, ...], ...] = STANDARD_CONTRACTS
    ties: str = "shared"
    stock_rebuilds: int | None = None
    max_turns_per_round: int = 500

    @classmethod
    def from_json(cls, value: str | dict | None) -> RuleProfile:
        """Build a profile from `"standard"`, a JSON object text, a dict of options, or None.

        Missing options take their standard value. Raises UnsupportedProfile (a ValueError)
        naming the option for an unknown option or a non-standard value, and ValueError for a
        value that is not a profile at all.
        """
        if value is None or value == "standard":
            return cls()
        if isinstance(value, str):
            value = _parse_json_object(value)
        if not isinstance(value, dict):
            raise ValueError("a rule profile is 'standard' or an object of options")
        return cls(**{name: _checked_option(name, raw) for name, raw in value.items()})

    def to_json(self) -> dict:
        """Return every option as a JSON-ready dict (tuples become lists)."""
        return {f.name: _jsonable(getattr(self, f.name)) for f in dataclasses.fields(self)}


_STANDARD = RuleProfile()
_OPTION_NAMES = {f.name for f in dataclasses.fields(RuleProfile)}


def _parse_json_object(text: str) -> object:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"rule profile is not JSON: {exc}") from None


def _checked_option(name: str, raw: object) -> object:
    if name not in _OPTION_NAMES:
        raise UnsupportedProfile(name, f"unknown rule option {name!r}")
    value = _frozen(raw)
    if name == "max_turns_per_round":
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError("max_turns_per_round must be a positive integer (R10.4)")
        return value
    if value != getattr(_STANDARD, name):
        raise UnsupportedProfile(
            name, f"rule option {name}={raw!r} is not supported yet (only the standard value)"
        )
    return value


def _frozen(value: object) -> object:
    if isinstance(value, list):
        return tuple(_frozen(item) for item in value)
    return value


def _jsonable(value: object) -> object:
    if isinstance(value, tuple):
        return [_jsonable(item) for item in value]
    return value
