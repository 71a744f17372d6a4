"""RUMMY_TURN_LOOPS: the turn loops (threads) of one `rummy worker` (service.config)."""
from __future__ import annotations

import pytest

from service.config import Settings


def test_a_worker_runs_three_turn_loops_unless_told_otherwise():
    assert Settings.from_env({}).turn_loops == 3
    assert Settings.from_env({"RUMMY_TURN_LOOPS": "2"}).turn_loops == 2


@pytest.mark.parametrize("raw", ["0", "-1", "two", "1.5"])
def test_a_count_of_turn_loops_that_is_not_a_positive_integer_is_refused(raw):
    with pytest.raises(ValueError, match="RUMMY_TURN_LOOPS"):
        Settings.from_env({"RUMMY_TURN_LOOPS": raw})
