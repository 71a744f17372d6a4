"""`rummy serve` (what `make run` calls, DESIGN §7): the whole service in the foreground.

When REDIS_URL is unset it first starts an embedded valkey-server (`python -m
service.embedded`, temporary directory, 127.0.0.1). Then gunicorn serving `api:create_app()`
(deploy/gunicorn.conf.py, threaded workers) and the RQ worker (`rummy worker`) when the
workers package provides it. Every child runs in its own process group (session), so Ctrl-C
reaches only this supervisor, which stops the children in reverse order: SIGTERM to the whole
group, SIGKILL after the grace period. On Linux each child also gets SIGTERM if the supervisor
itself dies (PR_SET_PDEATHSIG), so none is left orphaned.

A child that exits by itself is restarted (issue 7) after a backoff: 1 s, doubling up to 30 s,
back to 1 s once it had run a stable minute; each exit is logged ("worker exited with code 1;
restarting in 2 s"). The embedded Redis wrapper is the exception: it restarts its own
valkey-server on the same port and data directory (service.embedded); if the wrapper itself
exits, a new one would bring a new port and an empty data directory, so `rummy serve` stops.
"""
from __future__ import annotations

import os
import secrets
import select
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import click
from gunicorn.util import is_ipv6

from service.embedded import die_with_parent

GUNICORN_CONF = Path(__file__).resolve().parent.parent / "deploy" / "gunicorn.conf.py"
STARTUP_TIMEOUT_S = 30.0


FIRST_RESTART_S = 1.0
MAX_RESTART_S = 30.0
STABLE_S = 60.0


@dataclass
class Child:
    """A supervised child process, leader of its own process group. `argv`, `env` and `popen`
    start it again when `restart` is set; `started` (monotonic seconds) is its last start,
    `delay_s` the backoff of its next restart, `due` (monotonic) when a pending one is due;
    `why_not` says why a child that is not restarted is not."""

    name: str
    proc: subprocess.Popen
    grace_s: float
    argv: list[str]
    env: dict
    popen: dict
    restart: bool
    started: float
    why_not: str = ""
    delay_s: float = FIRST_RESTART_S
    due: float | None = None


class Supervisor:
    """Starts children in their own sessions and stops them all, last started first."""

    def __init__(self) -> None:
        self.children: list[Child] = []
        self.stopping = False
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(signum, self._on_signal)

    def _on_signal(self, signum: int, frame: object) -> None:
        self.stopping = True

    def spawn(self, name: str, argv: list[str], env: dict, grace_s: float, restart: bool = True,
              why_not: str = "", **popen) -> Child:
        """Start `argv` as `name`; `grace_s`: seconds between SIGTERM and SIGKILL at stop;
        `restart`: start it again when it exits by itself (else `watch` stops everything and
        logs `why_not`)."""
        child = Child(name, _popen(argv, env, popen), grace_s, argv, env, popen, restart,
                      time.monotonic(), why_not)
        self.children.append(child)
        return child

    def watch(self, tick_s: float = 0.2) -> int:
        """Supervise until a signal arrives (exit 0) or a child that is not restarted exits
        (exit 1). A restarted child's exit code and delay are logged; the delay doubles from
        FIRST_RESTART_S to MAX_RESTART_S and resets once the child ran STABLE_S."""
        while not self.stopping:
            now = time.monotonic()
            for child in self.children:
                if child.due is not None:
                    if now >= child.due:
                        child.proc, child.started, child.due = (
                            _popen(child.argv, child.env, child.popen), now, None)
                        click.echo(f"rummy serve: {child.name} restarted (pid {child.proc.pid})",
                                   err=True)
                    continue
                code = child.proc.poll()
                if code is None:
                    continue
                if not child.restart:
                    reason = f" ({child.why_not})" if child.why_not else ""
                    click.echo(f"rummy serve: {child.name} exited with code {code}; "
                               f"stopping{reason}", err=True)
                    return 1
                _stop(child)  # what is left of its process group (gunicorn's workers)
                if now - child.started >= STABLE_S:
                    child.delay_s = FIRST_RESTART_S
                click.echo(f"rummy serve: {child.name} exited with code {code}; restarting in "
                           f"{child.delay_s:g} s", err=True)
                child.due = now + child.delay_s
                child.delay_s = min(child.delay_s * 2, MAX_RESTART_S)
            time.sleep(tick_s)
        return 0

    def stop_all(self) -> None:
        """Stop every child, last started first; never returns before all are gone."""
        for child in reversed(self.children):
            _stop(child)
        self.children.clear()


def _popen(argv: list[str], env: dict, popen: dict) -> subprocess.Popen:
    return subprocess.Popen(argv, env=env, start_new_session=True,
                            preexec_fn=die_with_parent(os.getpid()), **popen)


def _signal_group(pgid: int, signum: int) -> bool:
    try:
        os.killpg(pgid, signum)
        return True
    except (ProcessLookupError, PermissionError):
        return False


def _stop(child: Child) -> None:
    """SIGTERM the child's group, wait `grace_s`, SIGKILL what is left of the group."""
    pgid = child.proc.pid
    _signal_group(pgid, signal.SIGTERM)
    try:
        child.proc.wait(child.grace_s)
    except subprocess.TimeoutExpired:
        _signal_group(pgid, signal.SIGKILL)
        child.proc.wait()
    deadline = time.monotonic() + 2
    while _signal_group(pgid, 0) and time.monotonic() < deadline:
        time.sleep(0.05)  # grandchildren (gunicorn workers, valkey-server) finishing
    _signal_group(pgid, signal.SIGKILL)


def _read_line(supervisor: Supervisor, child: Child, timeout_s: float) -> str | None:
    """The child's first stdout line, or None on timeout, exit or a stop signal."""
    deadline = time.monotonic() + timeout_s
    while not supervisor.stopping and time.monotonic() < deadline and child.proc.poll() is None:
        ready, _, _ = select.select([child.proc.stdout], [], [], 0.2)
        if ready:
            return child.proc.stdout.readline().decode().strip() or None
    return None


def _wait_healthy(supervisor: Supervisor, url: str, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while not supervisor.stopping and time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url + "/health", timeout=1) as response:
                return response.status == 200
        except OSError:
            time.sleep(0.2)
    return False


def _has_worker_command() -> bool:
    from workers.cli import main

    return "worker" in main.commands


@click.command("serve")
@click.option("--bind", default="127.0.0.1:8000", show_default=True, envvar="RUMMY_BIND",
              help="host:port of the API (environment: RUMMY_BIND).")
@click.option("--worker/--no-worker", default=True, show_default=True,
              help="Also run the RQ worker (bots, scoring, deadlines).")
def serve(bind: str, worker: bool) -> None:
    """Run the API (gunicorn) and the worker; an embedded Redis when REDIS_URL is unset."""
    taken = _port_taken(bind)
    if taken:
        raise click.ClickException(f"cannot listen on {bind}: {taken}. Another server holds "
                                   "it? Choose another with --bind or RUMMY_BIND.")
    supervisor = Supervisor()
    env = {**os.environ, "RUMMY_BIND": bind, "PYTHONUNBUFFERED": "1"}
    # One secret for every child (gunicorn's workers, the RQ worker), so that a seeded game
    # deals alike in all of them for as long as this `serve` runs (docs/architecture.md §2).
    env.setdefault("RUMMY_SECRET", secrets.token_hex(32))
    try:
        code = _run(supervisor, env, bind, worker)
    finally:
        supervisor.stop_all()
        click.echo("rummy serve: stopped")
    sys.exit(code)


def _port_taken(bind: str) -> str | None:
    """Why the API cannot listen on `bind` (``host:port``), or None when it can (or `bind` is
    another form gunicorn reads, a ``unix:`` socket say). Checked before anything starts:
    gunicorn retries a taken port, and the supervisor restarts it, so a taken port made
    `serve` print its banner for whatever server held the port and loop for ever."""
    host, _, port = bind.rpartition(":")
    if not port.isdigit() or host.startswith("unix"):
        return None
    host = host.strip("[]") or "0.0.0.0"
    # the family gunicorn binds (gunicorn.sock): IPv6 for an IPv6 literal only, a host name
    # as IPv4 (where "localhost" resolves to ::1 first, its first address would be the wrong one)
    family = socket.AF_INET6 if is_ipv6(host) else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gunicorn binds
            probe.bind((host, int(port)))
    except OSError as error:
        return error.strerror or str(error)
    return None


def _run(supervisor: Supervisor, env: dict, bind: str, worker: bool) -> int:
    if not env.get("REDIS_URL"):
        redis = supervisor.spawn("redis", [sys.executable, "-m", "service.embedded", "--restart"],
                                 env, 10, restart=False, stdout=subprocess.PIPE,
                                 why_not="a new embedded Redis would have another port and no "
                                         "data; it restarts its own valkey-server itself")
        env["REDIS_URL"] = _read_line(supervisor, redis, STARTUP_TIMEOUT_S) or ""
        if not env["REDIS_URL"]:
            return 0 if supervisor.stopping else 1
        click.echo(f"redis   {env['REDIS_URL']} (embedded, temporary: gone when this stops)")
    supervisor.spawn("api", [sys.executable, "-m", "gunicorn", "-c", str(GUNICORN_CONF),
                             "api:create_app()"], env, 30)
    if worker and _has_worker_command():
        supervisor.spawn("worker", [sys.executable, "-c", "from workers.cli import main; main()",
                                    "worker"], env, 30)
        if env.get("RUMMY_WEBHOOK_SECRET"):  # webhooks: their own worker (docs/players.md)
            supervisor.spawn("webhooks", [sys.executable, "-c",
                                          "from workers.cli import main; main()",
                                          "webhook-worker"], env, 30)
    url = f"http://{bind}"
    if _wait_healthy(supervisor, url, STARTUP_TIMEOUT_S):
        click.echo(f"games   {url}/ (web table: watch and replay)\n"
                   f"api     {url}/v1/games\ndocs    {url}/docs\nopenapi {url}/openapi.json\n"
                   "Ctrl-C stops everything.")
    return supervisor.watch()
