"""`rummy serve` (DESIGN §7): starts an embedded Redis, gunicorn and the worker, serves, and
on Ctrl-C / SIGTERM (or its own death) leaves no child process behind."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from bench.stack import free_port

RUMMY = str(Path(sys.executable).with_name("rummy"))
READY_LINE = "Ctrl-C stops everything."


def children_of(pid: int) -> set[int]:
    """Every live descendant of `pid` (from /proc)."""
    parents = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            parents[int(stat.parent.name)] = int(fields[1])
        except (OSError, IndexError, ValueError):
            continue
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.fixture
def served():
    """A running `rummy serve` without REDIS_URL: (process, base url, output lines)."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    proc = subprocess.Popen([RUMMY, "serve", "--bind", f"127.0.0.1:{port}"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    lines: list[str] = []
    threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True).start()
    deadline = time.monotonic() + 60
    while not any(READY_LINE in line for line in lines):
        assert proc.poll() is None and time.monotonic() < deadline, "".join(lines)
        time.sleep(0.2)
    yield proc, f"http://127.0.0.1:{port}", lines
    if proc.poll() is None:
        proc.kill()


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_stop_signal_stops_every_child(served, signum):
    proc, url, lines = served
    with urllib.request.urlopen(url + "/health", timeout=5) as response:
        assert response.status == 200
    assert any(line.startswith("redis ") for line in lines)
    kids = children_of(proc.pid)
    assert len(kids) >= 4  # embedded wrapper + valkey-server, gunicorn master + workers
    proc.send_signal(signum)
    assert proc.wait(60) == 0
    deadline = time.monotonic() + 10
    while any(map(alive, kids)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in kids if alive(pid)]


@pytest.mark.slow
def test_children_do_not_outlive_a_killed_supervisor(served):
    proc, _, _ = served
    kids = children_of(proc.pid)
    proc.kill()
    proc.wait(10)
    deadline = time.monotonic() + 45
    while any(map(alive, kids)) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not [pid for pid in kids if alive(pid)]
