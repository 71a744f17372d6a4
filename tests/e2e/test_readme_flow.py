"""The README's HTTP flow is a script that works (issue 9): its first `sh` block under
"Playing over HTTP" runs with bash, curl and jq against gunicorn and a worker: create a game,
wait until the seat may draw (answering offers), draw with the view's ETag, read the events,
the stream and replays, reclaim (refused: T3), resign, abort. An example that breaks fails
here."""
import re
import shutil
import subprocess
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"


def readme_flow() -> str:
    section = README.read_text().split("## Playing over HTTP", 1)[1]
    return re.search(r"```sh\n(.*?)```", section, re.S).group(1)


def test_the_readmes_http_flow_runs_against_the_service(api_url, worker, tmp_path):
    missing = [tool for tool in ("bash", "curl", "jq", "openssl") if shutil.which(tool) is None]
    if missing:
        pytest.fail(f"the README's flow needs {missing} (Debian: apt-get install {' '.join(missing)})")
    done = subprocess.run(["bash", "-eu", "-c", readme_flow()], cwd=tmp_path, timeout=300,
                          env={"BASE": api_url, "PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert lines[0].startswith("[") and len(lines[0]) > 10, lines  # the hand after the draw
    # the feed: the deal, then the draw (StockChosen; a buy offer may come before CardDrawn)
    assert '"RoundDealt"' in lines and '"StockChosen"' in lines, lines
    assert any(line.startswith("retry: ") for line in lines), lines  # the SSE stream
    assert "T3" in lines and lines[-1] == "aborted", lines
