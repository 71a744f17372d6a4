"""End-to-end harness: gunicorn serving `api:create_app()` and `rummy worker` processes on the
session's real server (`redis_url`), driven over real HTTP (e2e_harness.Client).

Settings for speed: buy offers wait 1 s for silent humans (RUMMY_OFFER_DEADLINE_S), the
sweeper runs every second and counts a job dead after 3 s (RUMMY_SWEEP_*).
"""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis
import requests

from e2e_harness import ADMIN_KEY, OFFER_DEADLINE_S, Client, stop

ROOT = Path(__file__).resolve().parents[2]
RUMMY = str(Path(sys.executable).with_name("rummy"))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def e2e_env(redis_url):
    """The environment of the API and worker processes."""
    redis.Redis.from_url(redis_url).flushdb()
    return {**os.environ, "REDIS_URL": redis_url, "RUMMY_ADMIN_KEY": ADMIN_KEY,
            "RUMMY_OFFER_DEADLINE_S": str(OFFER_DEADLINE_S), "RUMMY_SWEEP_INTERVAL_S": "1",
            "RUMMY_SWEEP_STALE_S": "3", "WEB_CONCURRENCY": "2", "PYTHONUNBUFFERED": "1"}


@pytest.fixture(scope="module")
def api_url(e2e_env, tmp_path_factory):
    """Base URL of a gunicorn serving the API (deploy/gunicorn.conf.py)."""
    bind = f"127.0.0.1:{free_port()}"
    log = (tmp_path_factory.mktemp("api") / "gunicorn.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "deploy" / "gunicorn.conf.py"),
         "api:create_app()"], env={**e2e_env, "RUMMY_BIND": bind}, cwd=ROOT,
        stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://{bind}"
    deadline = time.monotonic() + 30
    while True:
        assert proc.poll() is None, f"gunicorn exited, see {log.name}"
        try:
            if requests.get(url + "/health", timeout=5).status_code == 200:
                break
        except requests.RequestException:  # not listening yet, or still importing
            pass
        assert time.monotonic() < deadline, "gunicorn did not become healthy"
        time.sleep(0.2)
    yield url
    stop(proc)
    log.close()


@pytest.fixture(scope="module")
def start_worker(e2e_env, tmp_path_factory):
    """Start a `rummy worker` process (its own session); all are stopped after the module."""
    procs: list[subprocess.Popen] = []
    logs = tmp_path_factory.mktemp("worker")

    def start() -> subprocess.Popen:
        log = (logs / f"worker-{len(procs)}.log").open("w")
        proc = subprocess.Popen([RUMMY, "worker", "--log-level", "WARNING"], env=e2e_env,
                                cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True)
        procs.append(proc)
        return proc

    yield start
    for proc in procs:
        stop(proc)


@pytest.fixture(scope="module")
def worker(start_worker):
    """The module's running worker process."""
    return start_worker()


@pytest.fixture(scope="module")
def client(api_url):
    return Client(api_url)
