"""End-to-end harness: gunicorn serving `api:create_app()` and `rummy worker` processes on the
session's real server (`redis_url`), driven over real HTTP (e2e_harness.Client). The processes
are started and stopped by bench/stack.py, which the service benchmarks use too.

Settings for speed: buy offers wait 1 s for silent humans (RUMMY_OFFER_DEADLINE_S), the
sweeper runs every second and counts a job dead after 3 s (RUMMY_SWEEP_*).
"""
from __future__ import annotations

import os
import subprocess

import pytest
import redis

from bench.stack import free_port, start_api, stop_all, wait_healthy
from bench.stack import start_worker as start_worker_process
from e2e_harness import ADMIN_KEY, OFFER_DEADLINE_S, SECRET, Client, stop


@pytest.fixture(scope="module")
def e2e_env(redis_url):
    """The environment of the API and worker processes."""
    redis.Redis.from_url(redis_url).flushdb()
    return {**os.environ, "REDIS_URL": redis_url, "RUMMY_ADMIN_KEY": ADMIN_KEY,
            "RUMMY_SECRET": SECRET, "RUMMY_RATE_LIMITS": "off",  # the tests play at full speed
            "RUMMY_OFFER_DEADLINE_S": str(OFFER_DEADLINE_S), "RUMMY_SWEEP_INTERVAL_S": "1",
            "RUMMY_SWEEP_STALE_S": "3", "WEB_CONCURRENCY": "2", "PYTHONUNBUFFERED": "1"}


@pytest.fixture(scope="module")
def api_log(tmp_path_factory):
    """The file of the module's gunicorn output (its access and error logs)."""
    return tmp_path_factory.mktemp("api") / "gunicorn.log"


@pytest.fixture(scope="module")
def api_url(e2e_env, api_log):
    """Base URL of a gunicorn serving the API (deploy/gunicorn.conf.py)."""
    bind = f"127.0.0.1:{free_port()}"
    log = api_log.open("w")
    proc = start_api(e2e_env, bind, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://{bind}"
    try:
        wait_healthy(url, proc)
    except RuntimeError as error:
        stop(proc)
        pytest.fail(f"{error}, see {log.name}")
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
        proc = start_worker_process(e2e_env, stdout=log, stderr=subprocess.STDOUT)
        procs.append(proc)
        return proc

    yield start
    stop_all(procs)


@pytest.fixture(scope="module")
def worker(start_worker):
    """The module's running worker process."""
    return start_worker()


@pytest.fixture(scope="module")
def client(api_url):
    """The module's HTTP client of the API; its connections are closed before the API stops."""
    with Client(api_url) as found:
        yield found
