"""Redis clients by URL (docs/cluster.md): a single server or a Redis Cluster.

`redis://host:port` (or `rediss://`, `unix://`) is one server: a `redis.Redis`. A URL whose
scheme is `redis+cluster://host:port` (or `rediss+cluster://`) names any node of a Redis
Cluster: a `redis.cluster.RedisCluster`, which learns the other nodes and the slot map from it
and follows MOVED/ASK and failovers. The `+cluster` scheme is the one the `limits` library
(flask-limiter's storage) reads, so the rate limiter takes the same URL. Both clients have the
same command methods; the service's keys keep every script and transaction in one slot
(service.keys), so the code above this module does not care which it got.
"""
from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

import redis
from redis.cluster import RedisCluster
from redis.driver_info import DriverInfo

CLUSTER_SCHEMES = {"redis+cluster": "redis", "rediss+cluster": "rediss"}
# What CLIENT SETINFO tells the server, given once: without it redis-py looks its own version
# up in the installed packages' metadata for every new connection (importlib.metadata reads
# files), a tenth of an API process's CPU in a burst of wakes that grows the pool.
DRIVER_INFO = DriverInfo(lib_version=redis.__version__)


def is_cluster(url: str) -> bool:
    """Whether `url` names a Redis Cluster (scheme `redis+cluster` or `rediss+cluster`)."""
    return urlsplit(url).scheme in CLUSTER_SCHEMES


def node_url(url: str) -> str:
    """`url` with its cluster scheme replaced by the plain one (`redis+cluster://h:p` ->
    `redis://h:p`): the URL of the node it names; any other URL unchanged."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(scheme=CLUSTER_SCHEMES.get(parts.scheme, parts.scheme)))


def connect(url: str, pool_size: int | None = None, pool_timeout_s: float | None = None,
            **options) -> redis.Redis | RedisCluster:
    """A client of `url`: RedisCluster for a cluster URL, else redis.Redis. With `pool_size`,
    each server's pool is a BlockingConnectionPool of that many connections whose excess waits
    up to `pool_timeout_s` for a free one (on a Cluster: one such pool per node). `options`
    go to the connections (socket_timeout ...)."""
    options.setdefault("driver_info", DRIVER_INFO)
    pool = {} if pool_size is None else {
        "max_connections": pool_size, "timeout": pool_timeout_s,
        "connection_pool_class": redis.BlockingConnectionPool}
    if is_cluster(url):
        return RedisCluster.from_url(node_url(url), **pool, **options)
    if pool_size is None:
        return redis.Redis.from_url(url, **options)
    return redis.Redis(connection_pool=redis.BlockingConnectionPool.from_url(
        url, max_connections=pool_size, timeout=pool_timeout_s, **options))
