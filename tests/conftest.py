"""Shared fixtures (docs/architecture.md §4): a real Redis for every test that needs one.

`redis_url` is REDIS_URL when set, else an embedded valkey-server on a free port for the
session; under pytest-xdist (`-n 2` in pyproject.toml) each worker process has its own.
`redis_client` flushes the database before each test. `redis_cluster` is a real Redis Cluster
(three primaries, three replicas: service.embedded_cluster) started for the session by the
first test that asks for it; `cluster_client` flushes it before each test. `service` is a
GameService on that server with no follow-up jobs; `service_factory` builds one with other
settings.
"""
from __future__ import annotations

import os
from urllib.parse import urlsplit, urlunsplit

import pytest
import redis

from service.connections import connect
from service.embedded import EmbeddedRedis
from service.embedded_cluster import EmbeddedCluster


@pytest.fixture(scope="session")
def redis_url():
    """URL of a real Redis-compatible server for the whole session (of this xdist worker:
    each has its own embedded server, or its own database of REDIS_URL)."""
    if os.environ.get("REDIS_URL"):
        yield worker_database(os.environ["REDIS_URL"], os.environ.get("PYTEST_XDIST_WORKER"))
        return
    with EmbeddedRedis() as server:
        yield server.url


def worker_database(url: str, worker: str | None) -> str:
    """`url` for the xdist worker named `worker` ("gw1"; None without xdist): the URL's own
    database plus the worker's number, so that parallel workers sharing one server flush only
    their own database. A cluster URL (one database only) is returned as it is."""
    parts = urlsplit(url)
    if worker is None or parts.scheme not in ("redis", "rediss"):
        return url
    database = int(parts.path.strip("/") or 0) + int(worker.removeprefix("gw"))
    return urlunsplit(parts._replace(path=f"/{database}"))


@pytest.fixture
def redis_client(redis_url):
    """A redis-py client on `redis_url`; the database is flushed before the test."""
    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    yield client
    client.close()


@pytest.fixture(scope="session")
def redis_cluster():
    """An EmbeddedCluster (3 primaries, 3 replicas) for the session; `.url` is its
    `redis+cluster://` URL. Tests that fail a primary over leave it failed over."""
    with EmbeddedCluster() as cluster:
        yield cluster


@pytest.fixture
def cluster_client(redis_cluster):
    """A RedisCluster client of `redis_cluster`; every primary is flushed before the test."""
    client = connect(redis_cluster.url)
    client.flushdb()
    yield client
    client.close()


ADMIN_KEY = "test-admin-key-0123456789"  # Settings refuses keys under 16 characters
SECRET = "test-server-secret"  # RUMMY_SECRET: seeded games deal the same on every run


@pytest.fixture
def admin_key():
    """The server admin key (RUMMY_ADMIN_KEY) of the services built by `make_service`."""
    return ADMIN_KEY


@pytest.fixture
def make_service(redis_url, redis_client):
    """Build a GameService on the test server: `make_service(enqueue_followups=None,
    admin_key=ADMIN_KEY)`. Each call has its own snapshot cache, like another process."""
    from service.bootstrap import wire
    from service.config import Settings

    def build(enqueue_followups=None, admin_key=ADMIN_KEY, max_wait_s=5.0):
        settings = Settings(redis_url=redis_url, admin_key=admin_key, max_wait_s=max_wait_s,
                            secret=SECRET)
        return wire(settings, enqueue_followups).service

    return build


@pytest.fixture
def service(make_service):
    """A GameService on the test server (admin key ADMIN_KEY, no follow-up jobs)."""
    return make_service()
