"""Append notifications on a real server (service/notify.py, docs/streams.md): the append
script publishes, one subscriber per process wakes the waits, no wait holds a blocking read,
and a lost notification only delays."""
from __future__ import annotations

import threading
import time

import pytest
import redis

from service.keys import events_key, notify_channel
from service.notify import Notifier
from service.redis_store import RedisEventStore

GAME = "g1"


def ev(n: int) -> dict:
    return {"type": "Noted", "schema": 1, "data": {"n": n}}


@pytest.fixture
def notifier(redis_url, redis_client):
    notifier = Notifier(redis.Redis.from_url(redis_url), recheck_s=0.5)
    yield notifier
    notifier.close()


@pytest.fixture
def store(redis_url, notifier):
    return RedisEventStore(redis.Redis.from_url(redis_url), notifier)


def waiting(store, after: int, count: int, timeout_s: float = 10) -> tuple[list, list]:
    """Start `count` threads each waiting for events after `after`; (threads, results) where
    each result is (seconds waited, versions got), in the order the waits ended."""
    results: list = []

    def wait() -> None:
        started = time.monotonic()
        got = store.wait(GAME, after, timeout_s)
        results.append((time.monotonic() - started, [e.version for e in got]))

    threads = [threading.Thread(target=wait) for _ in range(count)]
    for thread in threads:
        thread.start()
    return threads, results


def test_an_append_publishes_its_version_on_the_games_sharded_channel(store, redis_client):
    pubsub = redis_client.pubsub(ignore_subscribe_messages=True)
    pubsub.ssubscribe(notify_channel(GAME))
    pubsub.get_sharded_message(timeout=1)
    store.append(GAME, [ev(1), ev(2)], 0)
    message = pubsub.get_sharded_message(timeout=2)
    assert message["type"] == "smessage" and message["data"] == b"2"
    store.append(GAME, [], 2)  # nothing appended, nothing published
    assert pubsub.get_sharded_message(timeout=0.3) is None
    pubsub.close()


def test_an_append_by_another_process_wakes_every_waiter_without_a_blocking_read(
        store, redis_url, redis_client):
    store.append(GAME, [ev(1)], 0)
    threads, results = waiting(store, 1, 20)
    time.sleep(0.5)  # all waiting, the subscription confirmed
    clients = redis_client.client_list()
    assert not [c for c in clients if c["cmd"] in ("xread", "blpop", "brpop")]
    assert not [c for c in clients if "b" in c["flags"]]  # no client blocked in a command
    # One subscription for the twenty waits. Counted on the game's channel, not as clients:
    # the subscribers of other tests' stores (other games) may still be connected.
    assert redis_client.execute_command("PUBSUB", "SHARDNUMSUB", notify_channel(GAME))[1] == 1
    other = RedisEventStore.from_url(redis_url)  # another writer: a worker, another API process
    appended = time.monotonic()
    other.append(GAME, [ev(2)], 1)
    for thread in threads:
        thread.join()
    assert [versions for _, versions in results] == [[2]] * 20
    assert time.monotonic() - appended < 0.5


def test_a_lost_notification_only_delays_the_wait(store, redis_client):
    store.append(GAME, [ev(1)], 0)
    threads, results = waiting(store, 1, 1)
    time.sleep(0.2)
    # Written around the append script, so nothing is published: the recheck finds it.
    redis_client.xadd(events_key(GAME), {"type": "Noted", "schema": 1, "data": "{}"}, id="0-2")
    threads[0].join()
    waited, versions = results[0]
    assert versions == [2] and waited < 0.5 + 0.5


def test_the_subscriber_reconnects_and_waits_go_on(store, redis_client):
    store.append(GAME, [ev(1)], 0)
    threads, results = waiting(store, 1, 3)
    time.sleep(0.3)
    assert redis_client.client_kill_filter(_type="pubsub") >= 1
    time.sleep(0.3)
    store.append(GAME, [ev(2)], 1)
    for thread in threads:
        thread.join()
    assert [versions for _, versions in results] == [[2]] * 3
    assert max(waited for waited, _ in results) < 2


def test_drain_ends_every_wait_at_once(store, notifier):
    store.append(GAME, [ev(1)], 0)
    threads, results = waiting(store, 1, 5, timeout_s=30)
    time.sleep(0.3)
    notifier.drain()
    for thread in threads:
        thread.join(2)
    assert [versions for _, versions in results] == [[]] * 5
    assert max(waited for waited, _ in results) < 1.5


def xrange_calls(client) -> int:
    return int(client.info("commandstats").get("cmdstat_xrange", {}).get("calls", 0))


def test_listeners_woken_together_share_one_read(store, redis_client):
    """A game watched by many streams in one process: the wake after an append sends one XRANGE
    for all of them (service/shared_reads.py), not one each, and every listener gets the event."""
    store.append(GAME, [ev(1)], 0)
    threads, results = waiting(store, after=1, count=60)
    time.sleep(1.0)  # every wait has read once and is waiting
    assert results == []
    before = xrange_calls(redis_client)
    store.append(GAME, [ev(2)], 1)
    for thread in threads:
        thread.join(10)
    assert [versions for _, versions in results] == [[2]] * 60
    assert xrange_calls(redis_client) - before <= 20  # one each would be 60


PACED = """
from gevent import monkey; monkey.patch_all()
import threading, gevent
from service.notify import Notifier, WAKE_BATCH
notifier = Notifier(client=None)
events = [threading.Event() for _ in range(4 * WAKE_BATCH + 7)]
seen = []
def other_request():  # e.g. GET /health: it runs before the burst's last listeners are set
    seen.append(sum(e.is_set() for e in events))
gevent.spawn(other_request)
notifier._set_paced(events)
first = sum(e.is_set() for e in events)
gevent.sleep(1)
print(first, seen[0], sum(e.is_set() for e in events), len(events), WAKE_BATCH)
"""


def test_under_gevent_a_burst_of_wakes_is_set_a_batch_at_a_time():
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", PACED], capture_output=True, text=True,
                          timeout=60, check=True)
    first, seen_by_other, last, total, batch = map(int, done.stdout.split())
    assert first == batch  # WAKE_BATCH at once
    assert seen_by_other < total  # another greenlet ran in between
    assert last == total  # and every listener was woken in the end


BEHIND = """
from gevent import monkey; monkey.patch_all()
import gevent
from service.notify import behind_other_work
order = []
def ready_work(n):  # e.g. requests being served: they keep the loop busy for a while
    for _ in range(3):
        order.append(n)
        gevent.sleep(0)
def burst_work():
    behind_other_work(5)
    order.append("burst")
gevent.joinall([gevent.spawn(burst_work)] + [gevent.spawn(ready_work, n) for n in range(3)])
print(order.index("burst"), len(order))
"""


def test_under_gevent_burst_work_runs_behind_the_work_that_is_ready():
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", BEHIND], capture_output=True, text=True,
                          timeout=60, check=True)
    position, total = map(int, done.stdout.split())
    assert position == total - 1  # spawned first, run last
