"""The "random" level: a uniformly random legal action (a baseline and a fuzzer)."""
from __future__ import annotations

import random


def choose(view: dict, rng: random.Random) -> dict:
    """Return one of `view["legal_actions"]` chosen uniformly by `rng`.

    Raises ValueError when the seat has no legal action.
    """
    legal = view["legal_actions"]
    if not legal:
        raise ValueError("the seat has no legal action")
    return rng.choice(legal)
