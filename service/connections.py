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


class PinnedClient:
    """One connection of `client`'s pool, held for all the commands of one owner (a turn
    loop's thread: workers.turns) instead of taken from the pool and given back per command.
    A turn loop sends ~400 commands a four-bot game; the pool's checkout and return were ~10%
    of its CPU outside the bots (issue 12). The connection is taken on first use, so a Redis
    that is down when the owner starts fails that command, not the constructor. Before each
    command it is checked as the pool checks a connection it hands out: one the server closed
    (a restart, its idle `timeout`, a proxy's cut) reads as ready, and is reconnected then
    rather than failing the command. A Cluster client is used as it is (a connection per
    node). Not thread safe: one owner, one thread."""

    def __init__(self, client: redis.Redis | RedisCluster) -> None:
        self._client = client
        self._pinned: redis.Redis | None = None

    def get(self) -> redis.Redis | RedisCluster:
        """The client to send commands with: the pinned one (made now on first use)."""
        if isinstance(self._client, RedisCluster):
            return self._client
        if self._pinned is None:
            self._pinned = redis.Redis(connection_pool=self._client.connection_pool,
                                       single_connection_client=True)
        else:
            held = self._pinned.connection
            # Nothing is owed to a connection between two commands: data to read means the
            # server closed it (EOF), so reconnect now (the pool's own check, get_connection).
            try:
                stale = held is not None and held.is_connected and held.can_read()
            except (redis.ConnectionError, OSError):
                stale = True
            if stale:
                held.disconnect()
        return self._pinned

    def close(self) -> None:
        """Give the connection back to the pool (the next `get` takes one again)."""
        if self._pinned is not None:
            pinned, self._pinned = self._pinned, None
            pinned.close()
