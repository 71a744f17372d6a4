"""`rummy play-bots` against a running service with rate limits on (README "Quick start"): a
spent creation budget makes it wait and go on, never print a traceback."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bench.stack import running_stack

RUMMY = str(Path(sys.executable).with_name("rummy"))


def test_play_bots_waits_out_a_spent_creation_budget_and_finishes():
    env = {"RUMMY_RATE_LIMITS": "create=1/5 seconds", "RUMMY_RATE_LIMIT_DELAY_S": "0.1"}
    with running_stack(workers=1, env=env) as (base, _):
        runs = [subprocess.Popen([RUMMY, "play-bots", "--url", base, "--level", "basic",
                                  "--timeout", "120"], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True) for _ in range(2)]
        outputs = [run.communicate(timeout=180) for run in runs]
    for run, (out, err) in zip(runs, outputs):
        assert run.returncode == 0, err
        assert "finished in" in out and "Traceback" not in err
    waited = [err for _, err in outputs if "rate limited: creating the game again in" in err]
    assert len(waited) == 1  # the two started together: one of them waited its Retry-After
