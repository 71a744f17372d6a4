"""Bots: `choose_action(level, view, rng)` picks an action from a seat view, nothing else.

Levels: "random" (uniform over legal actions), "basic" (domain/bots/basic.py) and "strong"
(domain/bots/strong.py). A bot is a pure function of the seat view: it never
sees the state, so it cannot peek at hidden cards.
"""
from __future__ import annotations

import random

from domain.bots import basic, random_bot, strong, variants
from domain.bots.profiles import planning_fits, profile_of, standard_play

_CHOOSERS = {
    "random": random_bot.choose,
    "basic": basic.choose,
    "strong": strong.choose,
}
# The bot levels, in order of strength; the service and the API validate levels against it.
BOT_LEVELS = tuple(_CHOOSERS)


def choose_action(level: str, view: dict, rng: random.Random) -> dict:
    """Return the action the `level` bot takes for `view` (a seat view with legal actions).

    Raises ValueError for an unknown level or a seat with no legal action.
    """
    chooser = _CHOOSERS.get(level)
    if chooser is None:
        raise ValueError(f"unknown bot level {level!r}; levels are {', '.join(BOT_LEVELS)}")
    if profile_of(view).plays_standard:
        return chooser(view, rng)
    special = variants.phase_action(level, view, rng)  # the cut and claims (R11.18, R11.19)
    if special is not None:
        return special
    if level == "random":
        return chooser(view, rng)
    if not (standard_play(view) or (level == "strong" and planning_fits(view))):
        chooser = variants.choose
    return variants.with_call(chooser(view, rng), view)
