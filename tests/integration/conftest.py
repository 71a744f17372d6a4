"""Fixtures of the worker tests: the jobs' wiring on the test server with the RQ hook (jobs
are enqueued, not run), a bare wiring whose appends enqueue nothing, and the game queue."""
from __future__ import annotations

import pytest

from service.bootstrap import wire
from service.config import Settings
from service.followups import DEADLINE_QUEUE, install, make_queue
from workers import runtime


@pytest.fixture
def wiring(redis_url, redis_client, admin_key):
    """The jobs' wiring on the test server with the RQ hook (jobs are enqueued, not run);
    its server admin key is `admin_key` (reproducible seeds)."""
    wired = wire(Settings(redis_url=redis_url, offer_deadline_s=60, admin_key=admin_key))
    install(wired)
    runtime.use(wired)
    yield wired
    runtime.use(None)


@pytest.fixture
def bare(redis_url, wiring):
    """A wiring whose appends enqueue nothing: a process that died before its enqueue."""
    return wire(Settings(redis_url=redis_url))


@pytest.fixture
def queue(wiring):
    """The bots queue (bot and scoring jobs)."""
    return make_queue(wiring.client)


@pytest.fixture
def deadlines(wiring):
    """The deadline queue (run_deadline jobs)."""
    return make_queue(wiring.client, DEADLINE_QUEUE)
