"""The rule profile of a new table (RULES.md §11): a preset name or an options object, with
the number of seats setting `players` (R11.1)."""
from __future__ import annotations

from domain.profile import PRESETS, RuleProfile, resolve


def table_profile(profile: str | dict | None, seats: object) -> RuleProfile:
    """The profile of a table of `seats` (a list of seat specs): a preset name (R11.20) or an
    options object that may name a `preset`; `players` is the number of seats unless the
    object gives it (a mismatch is then refused with the seats, R1.1). Raises
    UnsupportedProfile naming the option and rule."""
    value = {"preset": profile} if isinstance(profile, str) and profile in PRESETS else profile
    if isinstance(value, dict) and "players" not in value and isinstance(seats, list) \
            and 3 <= len(seats) <= 8:
        value = {**value, "players": len(seats)}
    return resolve(value)
