"""`rummy serve` (DESIGN §7): starts an embedded Redis, gunicorn and the worker, serves, and
on Ctrl-C / SIGTERM (or its own death) leaves no child process behind; a child killed under it
is restarted (issue 7): the worker by the supervisor, valkey-server by the embedded wrapper,
on the same port with its data."""
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
import requests

from bench.stack import free_port

RUMMY = str(Path(sys.executable).with_name("rummy"))
ROOT = Path(__file__).resolve().parents[2]
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
    assert any(line.startswith(f"games   {url}/ ") for line in lines)  # the web table
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


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def parent_of(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def descendant(proc: subprocess.Popen, needle: str, direct: bool = False) -> int | None:
    """The live descendant (`direct`: child) of `proc` whose command line holds `needle`."""
    return next((pid for pid in children_of(proc.pid)
                 if needle in cmdline(pid) and alive(pid)
                 and (not direct or parent_of(pid) == proc.pid)), None)


def wait_for_line(lines: list[str], text: str, timeout_s: float) -> str:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        found = [line for line in lines if text in line]
        if found:
            return found[-1]
        time.sleep(0.1)
    pytest.fail(f"no line with {text!r} in:\n{''.join(lines)}")


@pytest.mark.slow
def test_a_killed_worker_is_restarted_and_plays_on(served):
    proc, url, lines = served
    old = descendant(proc, "from workers.cli import main", direct=True)
    assert old is not None
    os.kill(old, signal.SIGKILL)
    assert "restarting in 1 s" in wait_for_line(lines, "worker exited with code -9", 10)
    wait_for_line(lines, "worker restarted", 10)
    new = descendant(proc, "from workers.cli import main", direct=True)
    assert new is not None and new != old
    game = requests.post(f"{url}/v1/games", json={"seats": [{"kind": "bot"}] * 4}, timeout=10)
    assert game.status_code == 201, game.text
    deadline = time.monotonic() + 30
    while requests.get(f"{url}/v1/games/{game.json()['id']}", timeout=10).json()["version"] < 20:
        assert time.monotonic() < deadline, "the restarted worker plays no bot"
        time.sleep(0.2)


@pytest.mark.slow
def test_a_killed_embedded_valkey_is_restarted_with_its_data(served):
    proc, url, lines = served
    game = requests.post(f"{url}/v1/games", json={"seats": [{"kind": "human"}] * 4}, timeout=10)
    assert game.status_code == 201, game.text
    table = requests.get(f"{url}/v1/games/{game.json()['id']}", timeout=10).json()
    server = descendant(proc, "valkey-server")
    assert server is not None
    os.kill(server, signal.SIGKILL)
    wait_for_line(lines, "embedded valkey-server exited; restarting in 1 s", 10)
    deadline = time.monotonic() + 30
    while True:
        try:
            reply = requests.get(f"{url}/v1/games/{game.json()['id']}", timeout=5)
            if reply.status_code == 200:
                break
        except requests.RequestException:
            pass
        assert time.monotonic() < deadline, "the game did not come back"
        time.sleep(0.2)
    assert reply.json() == table
    assert proc.poll() is None


def test_the_restart_delay_doubles_while_a_child_keeps_dying(capsys):
    from workers.cli_serve import Supervisor

    handlers = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    supervisor = Supervisor()
    try:
        supervisor.spawn("flaky", [sys.executable, "-c", "raise SystemExit(3)"], dict(os.environ), 1)
        def stop_after_two_exits() -> None:  # the next delay is 4 s once it died twice
            deadline = time.monotonic() + 30
            while supervisor.children[0].delay_s < 4 and time.monotonic() < deadline:
                time.sleep(0.05)
            supervisor.stopping = True

        threading.Thread(target=stop_after_two_exits, daemon=True).start()
        assert supervisor.watch(tick_s=0.05) == 0
    finally:
        supervisor.stop_all()
        for signum, handler in handlers.items():
            signal.signal(signum, handler)
    exits = [line for line in capsys.readouterr().err.splitlines() if "exited" in line]
    assert exits[:2] == ["rummy serve: flaky exited with code 3; restarting in 1 s",
                         "rummy serve: flaky exited with code 3; restarting in 2 s"]


def test_serve_on_a_taken_port_says_so_and_starts_nothing():
    """The newcomer tester's: on a port another server held, `serve` printed its banner for
    that server and restarted gunicorn for ever."""
    import socket
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
        done = subprocess.run([RUMMY, "serve", "--bind", f"127.0.0.1:{port}"], env=env,
                              capture_output=True, text=True, timeout=30)
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"cannot listen on 127.0.0.1:{port}: Address already in use" in done.stderr
    assert READY_LINE not in done.stdout and "redis" not in done.stdout


@pytest.mark.slow
def test_make_run_serves_on_rummy_bind():
    """`make run` (README) binds the API where RUMMY_BIND says, with no --bind."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    # -o install: the venv of this test run is ready; VENV: the one running the tests
    proc = subprocess.Popen(["make", "-s", "-o", "install", "run", f"VENV={sys.prefix}"],
                            cwd=ROOT, env={**env, "RUMMY_BIND": f"127.0.0.1:{port}"},
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    lines: list[str] = []
    threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True).start()
    try:
        wait_for_line(lines, READY_LINE, 60)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=5) as response:
            assert response.status == 200
    finally:
        serve = descendant(proc, "serve", direct=True)
        kids = children_of(proc.pid)
        os.kill(serve, signal.SIGTERM) if serve else proc.kill()
        proc.wait(60)
        deadline = time.monotonic() + 10
        while any(map(alive, kids)) and time.monotonic() < deadline:
            time.sleep(0.1)
    assert not [pid for pid in kids if alive(pid)]
