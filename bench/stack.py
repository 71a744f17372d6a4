"""The running service, for the service benchmarks and the end-to-end tests alike: free ports,
gunicorn serving the API as deployed, `rummy worker` processes, a health wait, and a stop of
each process group. `running_stack` puts them together on REDIS_URL (an embedded server when
unset) and stops everything on exit."""
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
from typing import IO, Iterator

from service.embedded import EmbeddedRedis, die_with_parent

ROOT = Path(__file__).resolve().parent.parent
RUMMY = str(Path(sys.executable).with_name("rummy"))
Output = IO | int | None  # a file, subprocess.DEVNULL, or None (inherit)


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_api(env: dict, bind: str, stdout: Output = None,
              stderr: Output = None) -> subprocess.Popen:
    """gunicorn serving `api:create_app()` with deploy/gunicorn.conf.py on `bind`, in its own
    session (None: inherit the output); it stops if this process dies (a killed test run)."""
    return subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "deploy" / "gunicorn.conf.py"),
         "api:create_app()"], env={**env, "RUMMY_BIND": bind}, cwd=ROOT, stdout=stdout,
        stderr=stderr, start_new_session=True, preexec_fn=die_with_parent(os.getpid()))


def start_worker(env: dict, stdout: Output = None, stderr: Output = None) -> subprocess.Popen:
    """A `rummy worker` process in its own session (None: inherit the output)."""
    return subprocess.Popen([RUMMY, "worker", "--log-level", "WARNING"], env=env, cwd=ROOT,
                            stdout=stdout, stderr=stderr, start_new_session=True,
                            preexec_fn=die_with_parent(os.getpid()))


def start_webhook_worker(env: dict, stdout: Output = None,
                         stderr: Output = None) -> subprocess.Popen:
    """A `rummy webhook-worker` process in its own session (None: inherit the output)."""
    return subprocess.Popen([RUMMY, "webhook-worker", "--log-level", "WARNING"], env=env,
                            cwd=ROOT, stdout=stdout, stderr=stderr, start_new_session=True,
                            preexec_fn=die_with_parent(os.getpid()))


def wait_healthy(url: str, proc: subprocess.Popen, timeout_s: float = 30) -> None:
    """Wait until GET `url`/health answers 200. Raises RuntimeError if `proc` exits first or
    `timeout_s` passes."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the API exited with {proc.returncode} before it was healthy")
        try:
            with urllib.request.urlopen(url + "/health", timeout=5) as reply:
                if reply.status == 200:
                    return
        except OSError:  # not listening yet, or still importing
            pass
        time.sleep(0.2)
    raise RuntimeError(f"the API did not become healthy in {timeout_s:.0f} s")


def stop(proc: subprocess.Popen, signum: int = signal.SIGTERM, wait_s: float = 20) -> None:
    """Signal the process group of `proc` (it leads its own session) and reap it; SIGKILL the
    group if it has not exited after `wait_s`."""
    stop_all([proc], signum, wait_s)


def stop_all(procs: list[subprocess.Popen], signum: int = signal.SIGTERM,
             wait_s: float = 20) -> None:
    """`stop` every process at once: signal every group, then reap each."""
    for proc in procs:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signum)
    for proc in procs:
        try:
            proc.wait(wait_s)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


@contextlib.contextmanager
def running_stack(workers: int = 1, env: dict | None = None,
                  webhook_workers: int = 0) -> Iterator[tuple[str, str]]:
    """Yield (API base URL, Redis URL) of a running API, `workers` worker processes and
    `webhook_workers` webhook workers. The benchmarks hammer the API, so rate limits are off
    unless `env` sets RUMMY_RATE_LIMITS."""
    with contextlib.ExitStack() as stack:
        redis_url = os.environ.get("REDIS_URL") or stack.enter_context(EmbeddedRedis()).url
        child_env = {**os.environ, "RUMMY_RATE_LIMITS": "off", **(env or {}), "REDIS_URL": redis_url,
                     "RUMMY_LOG_LEVEL": "warning"}
        bind = f"127.0.0.1:{free_port()}"
        procs = [start_api(child_env, bind, stdout=subprocess.DEVNULL)]  # no access log
        procs += [start_worker(child_env) for _ in range(workers)]
        procs += [start_webhook_worker(child_env) for _ in range(webhook_workers)]
        stack.callback(stop_all, procs)
        wait_healthy(f"http://{bind}", procs[0])
        yield f"http://{bind}", redis_url
