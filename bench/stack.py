"""The running service for the worker benchmarks: a Redis (REDIS_URL, else an embedded one),
gunicorn serving the API, and `rummy worker` processes, all stopped on exit."""
from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Iterator

from service.embedded import EmbeddedRedis

ROOT = Path(__file__).resolve().parent.parent
RUMMY = str(Path(sys.executable).with_name("rummy"))


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_healthy(url: str, proc: subprocess.Popen, timeout_s: float = 30) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            with urllib.request.urlopen(url + "/health", timeout=5):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("the API did not become healthy")


@contextlib.contextmanager
def running_stack(workers: int = 1, env: dict | None = None) -> Iterator[tuple[str, str]]:
    """Yield (API base URL, Redis URL) of a running API and `workers` worker processes."""
    with contextlib.ExitStack() as stack:
        redis_url = os.environ.get("REDIS_URL") or stack.enter_context(EmbeddedRedis()).url
        child_env = {**os.environ, **(env or {}), "REDIS_URL": redis_url,
                     "RUMMY_LOG_LEVEL": "warning"}
        bind = f"127.0.0.1:{_free_port()}"
        procs = [subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "deploy" / "gunicorn.conf.py"),
             "api:create_app()"], env={**child_env, "RUMMY_BIND": bind}, cwd=ROOT,
            stdout=subprocess.DEVNULL, start_new_session=True)]  # no access log on the console
        procs += [subprocess.Popen([RUMMY, "worker", "--log-level", "WARNING"], env=child_env,
                                   cwd=ROOT, start_new_session=True) for _ in range(workers)]
        stack.callback(_stop_all, procs)
        _wait_healthy(f"http://{bind}", procs[0])
        yield f"http://{bind}", redis_url


def _stop_all(procs: list[subprocess.Popen]) -> None:
    for proc in procs:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
    for proc in procs:
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
