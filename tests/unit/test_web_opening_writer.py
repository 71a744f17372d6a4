"""The /play page writes a hand-built meld the way the API reads one (api/web/static/opening.js
`writeMeld`, run by node): each written meld is checked by the domain's own `make_meld`, under
standard melds and under wild deuces (R11.15), where a deuce that cannot be natural is declared
("2C=7S" in a run, "2C=7" in a group)."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from domain.melds import make_meld
from domain.profile.options import MeldRules

STATIC = Path(__file__).resolve().parents[2] / "api" / "web" / "static"
WILD_TWOS = MeldRules(run_min=4, wild_twos=True)
# hand cards picked for one meld, low end toggle, wild deuces -> the meld written
CASES = [
    (["6S", "JK", "5S", "8S"], False, False, ["5S", "6S", "JK=7S", "8S"]),
    (["7H", "7D", "JK"], False, False, ["7D", "7H", "JK"]),
    (["7H", "7D", "2C"], False, True, ["7D", "7H", "2C=7"]),
    (["2H", "2D", "2C"], False, True, ["2C", "2D", "2H"]),
    (["5S", "6S", "2C", "8S"], False, True, ["5S", "6S", "2C=7S", "8S"]),
    (["AS", "2S", "3S", "4S"], False, True, ["AS", "2S", "3S", "4S"]),
    (["3S", "2S", "2D", "5S"], False, True, ["2S", "3S", "2D=4S", "5S"]),
    (["QS", "KS", "2D", "JS"], False, True, ["JS", "QS", "KS", "2D=AS"]),
    (["6S", "7S", "8S", "2H"], True, True, ["2H=5S", "6S", "7S", "8S"]),
    (["QS", "KS", "AS", "2S"], False, True, ["2S=JS", "QS", "KS", "AS"]),  # the ace sits high
    (["2S", "2S", "3S", "4S"], False, True, ["2S", "3S", "4S", "2S=5S"]),  # one deuce natural
]


def written(cases: list[tuple]) -> list[list[str]]:
    """writeMeld's answer for each case, from one node process."""
    if shutil.which("node") is None:
        pytest.fail("node is needed to run the web page's modules (Debian: apt-get install nodejs)")
    script = ("import {writeMeld} from './opening.js';"
              f"const cases = {json.dumps([list(case[:3]) for case in cases])};"
              "console.log(JSON.stringify(cases.map((c) => writeMeld(...c))));")
    done = subprocess.run(["node", "--input-type=module", "-e", script], cwd=STATIC,
                          capture_output=True, text=True, timeout=30, check=True)
    return json.loads(done.stdout)


def test_the_page_writes_each_meld_as_the_api_reads_it():
    for (cards, _, wild_twos, want), got in zip(CASES, written(CASES)):
        assert got == want, cards
        make_meld(0, got, WILD_TWOS if wild_twos else None)  # raises when the rules refuse it
