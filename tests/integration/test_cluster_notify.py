"""Append notifications on a real Redis Cluster (issue 12, docs/cluster.md): a waiting listener
is woken by the SPUBLISH of an append on its game's primary, and still after a manual failover
of that primary (the old one drops the channel; the notifier subscribes again on the new one),
without waiting for the periodic recheck."""
from __future__ import annotations

import threading
import time

from service.connections import connect
from service.keys import events_key
from service.notify import Notifier
from service.redis_store import RedisEventStore

GAME = "notified"
EVENT = {"type": "Noted", "schema": 1, "data": {}}


def woken_after_append(reader: RedisEventStore, writer: RedisEventStore, after: int) -> float:
    """Seconds a `wait` after `after` takes to return once the writer appends."""
    returned: list[float] = []

    def wait() -> None:
        assert reader.wait(GAME, after, 20)
        returned.append(time.monotonic())

    waiter = threading.Thread(target=wait)
    waiter.start()
    time.sleep(0.5)  # the listener is subscribed and waiting
    appended = time.monotonic()
    writer.append(GAME, [EVENT], after)
    waiter.join(25)
    return returned[0] - appended


def test_a_listener_is_woken_through_a_failover_of_its_games_primary(redis_cluster,
                                                                     cluster_client):
    notifier = Notifier(connect(redis_cluster.url), recheck_s=60)  # only notifications wake
    reader = RedisEventStore(connect(redis_cluster.url), notifier)
    writer = RedisEventStore(connect(redis_cluster.url), Notifier(connect(redis_cluster.url)))
    try:
        writer.append(GAME, [EVENT], 0)
        assert woken_after_append(reader, writer, 1) < 1.0
        primary = redis_cluster.primary_port(events_key(GAME))
        redis_cluster.failover(primary)
        assert redis_cluster.primary_port(events_key(GAME)) != primary
        assert woken_after_append(reader, writer, 2) < 1.0
        assert [event.version for event in reader.read(GAME)] == [1, 2, 3]
    finally:
        notifier.close()
