"""The README's HTTP flows are scripts that work (issues 8 and 9): its first `sh` block under
"Playing over HTTP" runs with bash, curl and jq against gunicorn and a worker: create a game,
wait until the seat may draw (answering offers), draw with the view's ETag, read the events,
the stream and replays, reclaim (refused: T3), resign, abort; the lobby's block under "A table
of people" creates a game with open seats, joins two people by code, starts it, plays it to
the finish, takes the rematch and its new token, adds a spectator. An example that breaks
fails here."""
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"


def readme_flow(heading: str = "## Playing over HTTP") -> str:
    section = README.read_text().split(heading, 1)[1]
    return re.search(r"```sh\n(.*?)```", section, re.S).group(1)


def run_flow(script: str, api_url: str, cwd) -> list[str]:
    """The lines `script` printed, run by bash -eu with curl and jq against `api_url`."""
    missing = [tool for tool in ("bash", "curl", "jq", "openssl") if shutil.which(tool) is None]
    if missing:
        pytest.fail(f"the README's flow needs {missing} (Debian: apt-get install {' '.join(missing)})")
    done = subprocess.run(["bash", "-eu", "-c", script], cwd=cwd, timeout=300,
                          env={"BASE": api_url, "PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return done.stdout.splitlines()


def test_the_readmes_http_flow_runs_against_the_service(api_url, worker, tmp_path):
    lines = run_flow(readme_flow(), api_url, tmp_path)
    drawn = json.loads(lines[0])  # the hand after choosing the stock, and the offer it opened
    assert len(drawn["hand"]) >= 10 and (drawn["offer"] is None or drawn["offer"]["card"]), lines
    # the feed: the deal, then the draw (StockChosen; a buy offer may come before CardDrawn)
    assert '"RoundDealt"' in lines and '"StockChosen"' in lines, lines
    assert any(line.startswith("retry: ") for line in lines), lines  # the SSE stream
    assert "T3" in lines and lines[-1] == "aborted", lines


def test_the_readmes_lobby_flow_runs_from_the_join_code_to_the_finish(api_url, worker, tmp_path):
    lines = run_flow(readme_flow("### A table of people"), api_url, tmp_path)
    lobby, status, end, seat, spectated = lines
    assert json.loads(lobby)["joined"] == [None, "Ann", "Bob", None]
    assert status == "playing" and seat == "1" and len(spectated) == 16, lines
    end = json.loads(end)
    assert end["status"] == "finished" and end["winners"] and len(end["scores"]) == 4
