"""The rule profile of a new table (RULES.md §11): a preset name or an options object, with
the number of seats setting `players` (R11.1)."""
from __future__ import annotations

from domain.profile import PRESETS, RuleProfile, UnsupportedProfile, resolve


def table_profile(profile: str | dict | None, seats: object) -> RuleProfile:
    """The profile of a table of `seats` (a list of seat specs): a preset name (R11.20) or an
    options object that may name a `preset`; `players` is the number of seats unless the
    object gives it. Raises UnsupportedProfile naming the option and rule, `players` (R11.1)
    when it is not the number of seats."""
    value = {"preset": profile} if isinstance(profile, str) and profile in PRESETS else profile
    table = isinstance(seats, list) and 3 <= len(seats) <= 8  # else the seats are refused
    if isinstance(value, dict) and "players" not in value and table:
        value = {**value, "players": len(seats)}
    resolved = resolve(value)
    if table and resolved.players != len(seats):
        raise UnsupportedProfile("players", "R11.1",
                                 f"players is {resolved.players} but the game has {len(seats)} "
                                 "seats: the number of seats sets players")
    return resolved
