"""Fixtures of the worker tests: the jobs' wiring on the test server with the follow-up hook
(games are readied and jobs enqueued, not run), a bare wiring whose appends ready nothing, and
the deadline queue."""
from __future__ import annotations

import pytest

from service.bootstrap import wire
from service.config import Settings
from service.followups import DEADLINE_QUEUE, install, make_queue
from workers import runtime


@pytest.fixture
def wiring(redis_url, redis_client, admin_key):
    """The jobs' wiring on the test server with the follow-up hook (games are readied, not
    played);
    its server admin key is `admin_key` (reproducible seeds)."""
    wired = wire(Settings(redis_url=redis_url, offer_deadline_s=60, admin_key=admin_key))
    install(wired)
    runtime.use(wired)
    yield wired
    runtime.use(None)


@pytest.fixture
def bare(redis_url, wiring):
    """A wiring whose appends ready nothing: a process that died before readying its game."""
    return wire(Settings(redis_url=redis_url))


@pytest.fixture
def deadlines(wiring):
    """The deadline queue (run_deadline jobs)."""
    return make_queue(wiring.client, DEADLINE_QUEUE)
