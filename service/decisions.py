"""What the service decides with (docs/architecture.md §2 "Seeds"): the RNG of a decision,
and the shape of a decision of several steps that stands in for domain.decide (a deadline's
timeout, a bot turn, a lobby's start)."""
from __future__ import annotations

import dataclasses
import random
from typing import Callable

# decide's stand-in for a decision of several steps: (state, at) -> events, or Folded. `at` is
# the state's `events_folded`: the version it is decided at, but for the table events
# (service.table_events), so that a spectator let in never changes a seeded game's deals.
Decision = Callable[[object, int], "list | Folded"]


@dataclasses.dataclass(frozen=True)
class Folded:
    """What a decision that folded its own events as it went returns (service.bot_turns):
    `events` and the `state` after them, so the append does not fold them a second time."""

    events: list
    state: object


def decision_rng(rng_seed: str, expected_version: int) -> random.Random:
    """The RNG of the decision taken at `expected_version` (docs/architecture.md §2 "Seeds"):
    the count of domain events folded (GameState.events_folded), which is the stream's
    version when it holds no table event."""
    return random.Random(f"{rng_seed}:{expected_version}")
