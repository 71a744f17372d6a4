"""Append notifications: how a waiting feed learns that its game moved (docs/streams.md).

Every append publishes the game's new version on the sharded channel `rummy:{<game>}:notify`
(SPUBLISH from service/append.lua, so every writer notifies: API processes and workers alike).
Each process keeps ONE subscriber connection, run by a `Notifier`: it subscribes to the games
that have local listeners and wakes those listeners, which then read the stream with XRANGE.
So a waiting long poll or SSE stream holds no Redis connection and no blocking read, and the
channel lives in its game's Cluster slot (a multi-stream XREAD could not span slots). On a
Redis Cluster the client is a RedisCluster and its pubsub a ClusterPubSub: one connection per
node holding subscribed channels, each channel on its slot's primary; a channel the server
drops (its slot moved in a failover) is read and subscribed again (docs/cluster.md).

A notification can be lost (the subscriber reconnecting, a channel subscribed a moment after
the append), so a loss only delays: every (re)subscription confirmed by the server wakes that
game's listeners, a reconnection wakes all, and every `recheck_s` seconds the subscriber reads
the version of each subscribed game in one pipeline and wakes the listeners of those that
moved unheard. A waiting listener itself costs nothing until it is woken.
"""
from __future__ import annotations

import logging
import os
import threading
import time
import weakref
from collections import deque
from contextlib import contextmanager
from typing import Iterator

import redis

from service.connections import connect
from service.keys import events_key, notify_channel

log = logging.getLogger(__name__)

RECHECK_S = 5.0  # the subscriber checks the subscribed games' versions this often
POLL_S = 0.05  # the subscriber applies new subscriptions at least this often
LINGER_S = 30.0  # a game without listeners stays subscribed this long (long polls come back)
BACKOFF_S = (0.1, 0.5, 1.0, 2.0, 5.0)  # between reconnections of a lost subscriber
WAKE_BATCH = 10  # listeners set runnable at once under gevent (Notifier._set_paced)
WAKE_PAUSE_S = 0.005  # the longest pause between two batches when the loop stays busy

_ALL: "weakref.WeakSet[Notifier]" = weakref.WeakSet()
_SHARED: dict[str, "Notifier"] = {}
_SHARED_PID: list[int] = [os.getpid()]
_SHARED_LOCK = threading.Lock()


class Notifier:
    """The process's subscriber to append notifications and the listeners it wakes.

    `client`: the Redis the appends publish on (the subscriber takes one connection of its
    pool, in a daemon thread started by the first listener; a greenlet under gevent).
    `recheck_s`: seconds between two checks of the subscribed games' versions, the longest a
    lost notification delays a listener. Thread safe.
    """

    def __init__(self, client: redis.Redis, recheck_s: float = RECHECK_S) -> None:
        self._client = client
        self.recheck_s = recheck_s
        self.draining = False
        self._lock = threading.Lock()
        self._listeners: dict[str, set[threading.Event]] = {}
        self._generations: dict[str, int] = {}  # wakes of each listened game
        self._epoch = 0  # wakes of every game (a reconnection, a drain)
        self._idle_since: dict[str, float] = {}
        self._thread: threading.Thread | None = None
        self._paced: deque[threading.Event] = deque()  # to set, a batch at a time (_pace)
        self._pacer: threading.Thread | None = None
        self._closed = False
        _ALL.add(self)

    @contextmanager
    def listen(self, game_id: str) -> Iterator[threading.Event]:
        """Register a listener of `game_id` for the block: the yielded Event is set whenever
        the game may have moved (a notification, a confirmed subscription, `drain`). Clear it
        BEFORE reading the stream, then wait on it: a notification after the read is kept."""
        woken = threading.Event()
        with self._lock:
            self._listeners.setdefault(game_id, set()).add(woken)
            self._idle_since.pop(game_id, None)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="rummy-notifier",
                                                daemon=True)
                self._thread.start()
        try:
            yield woken
        finally:
            with self._lock:
                listeners = self._listeners.get(game_id, set())
                listeners.discard(woken)
                if not listeners:
                    self._listeners.pop(game_id, None)
                    self._generations.pop(game_id, None)
                    self._idle_since[game_id] = time.monotonic()

    def generation(self, game_id: str) -> tuple[int, int]:
        """How many times the listeners of `game_id` were woken so far (a value that grows at
        each wake). A read begun after this value was taken sees every append whose wake it
        counts (service.shared_reads)."""
        with self._lock:
            return self._epoch, self._generations.get(game_id, 0)

    def drain(self) -> None:
        """Shutdown: wake every listener now; from here on `draining` is True, and the waits
        that check it (RedisEventStore.wait) return at once."""
        self.draining = True
        self._wake(None)

    def close(self) -> None:
        """Stop the subscriber (it ends within POLL_S) and wake every listener; a process's
        shared notifier is never closed, tests close their own."""
        self._closed = True
        self._wake(None)

    def _wake(self, game_id: str | None) -> None:
        """Set the Event of every listener of `game_id` (None: of every game)."""
        with self._lock:
            if game_id is None:
                self._epoch += 1
            elif game_id in self._listeners:
                self._generations[game_id] = self._generations.get(game_id, 0) + 1
            games = list(self._listeners) if game_id is None else [game_id]
            woken = [event for game in games for event in self._listeners.get(game, ())]
        self._set_paced(woken)

    def _set_paced(self, events: list[threading.Event]) -> None:
        """Set `events`; under gevent, more than WAKE_BATCH of them a batch at a time, the
        next batch once the process's event loop has run what the last one woke (or after
        WAKE_PAUSE_S). Two thousand listeners woken in the same millisecond (games timing out
        together) made two thousand greenlets runnable at once: a request arriving then
        (GET /health, a seat's action) waited behind all of them, for seconds. Paced, it
        waits behind one batch; the burst's last listener is woken later instead."""
        if len(events) <= WAKE_BATCH or not _under_gevent():
            for event in events:
                event.set()
            return
        with self._lock:
            self._paced.extend(events)
            if self._pacer is not None:
                return
            self._pacer = threading.Thread(target=self._pace, name="rummy-notifier-pacer",
                                           daemon=True)
        self._pacer.start()

    def _pace(self) -> None:
        """Set the paced events, WAKE_BATCH at a time (service.notify._set_paced)."""
        while True:
            with self._lock:
                batch = [self._paced.popleft()
                         for _ in range(min(WAKE_BATCH, len(self._paced)))]
                if not batch:
                    self._pacer = None
                    return
            for event in batch:
                event.set()
            behind_other_work(WAKE_PAUSE_S)

    def _run(self) -> None:
        """The subscriber loop: (re)connect with backoff and serve until the process ends."""
        failures = 0
        while not self._closed:
            pubsub = self._client.pubsub()
            try:
                self._serve(pubsub)
            except (redis.RedisError, OSError) as error:
                delay = BACKOFF_S[min(failures, len(BACKOFF_S) - 1)]
                failures += 1
                log.log(logging.WARNING if failures == 1 else logging.DEBUG,
                        "notification subscriber lost (%s); reconnecting in %.1f s", error, delay)
                # Whatever was published meanwhile is lost: let every listener re-read.
                self._wake(None)
                time.sleep(delay)
            else:
                failures = 0
            finally:
                _close_quietly(pubsub)

    def _serve(self, pubsub) -> None:
        """Keep the subscriptions equal to the listened games and dispatch the messages."""
        subscribed: dict[bytes, str] = {}  # channel -> game id
        versions: dict[str, int] = {}  # the last version heard or read of each game
        checked = time.monotonic()
        while not self._closed:
            if time.monotonic() - checked >= self.recheck_s:
                checked = time.monotonic()
                self._recheck(subscribed, versions)
            self._sync(pubsub, subscribed)
            if not subscribed:  # a cluster pubsub without subscriptions would not wait
                time.sleep(POLL_S)
                continue
            message = pubsub.get_sharded_message(timeout=POLL_S)
            if message is not None and message["type"] == "sunsubscribe" \
                    and message["channel"] in subscribed:
                # Dropped by the server (its slot moved: a Cluster failover): read the versions
                # now, whose MOVED replies refresh the slot map, then subscribe again there.
                self._wake(subscribed.pop(message["channel"]))
                checked = float("-inf")
                continue
            if message is None or message["type"] not in ("smessage", "ssubscribe"):
                continue
            # A confirmed subscription also wakes: an append just before it went unheard.
            game_id = subscribed.get(message["channel"])
            if game_id is not None:
                if message["type"] == "smessage":
                    versions[game_id] = int(message["data"])
                self._wake(game_id)

    def _recheck(self, subscribed: dict[bytes, str], versions: dict[str, int]) -> None:
        """Read every listened game's version in one pipeline (on a Cluster, redis-py splits it
        by node); wake the listeners of the games that moved since last heard or read (and of
        those read for the first time)."""
        with self._lock:
            games = sorted(set(subscribed.values()) | set(self._listeners))
        pipeline = self._client.pipeline(transaction=False)
        for game in games:
            pipeline.xrevrange(events_key(game), "+", "-", count=1)
        for game, last in zip(games, pipeline.execute()):
            version = int(last[0][0].split(b"-", 1)[1]) if last else 0
            if versions.get(game) != version:
                versions[game] = version
                self._wake(game)
        for game in set(versions) - set(games):
            del versions[game]

    def _sync(self, pubsub, subscribed: dict[bytes, str]) -> None:
        with self._lock:
            now = time.monotonic()
            wanted = set(self._listeners) | {game for game, since in self._idle_since.items()
                                             if now - since < LINGER_S}
            for game in [g for g, since in self._idle_since.items() if now - since >= LINGER_S]:
                del self._idle_since[game]
        new = {notify_channel(game).encode(): game
               for game in wanted - set(subscribed.values())}
        gone = [channel for channel, game in subscribed.items() if game not in wanted]
        if new:
            pubsub.ssubscribe(*new)
            subscribed.update(new)
        if gone:
            pubsub.sunsubscribe(*gone)
            for channel in gone:
                del subscribed[channel]


def _close_quietly(pubsub) -> None:
    try:
        pubsub.close()
    except (redis.RedisError, OSError):
        pass


# One greenlet at a time waits for the loop to be idle: gevent's own semaphore, made at the
# first use under gevent (a threading.Lock made before a late monkey-patching would block the
# whole process while its holder waits for the loop).
_LANE = None


def behind_other_work(max_wait_s: float = WAKE_PAUSE_S) -> None:
    """Under gevent: return once this process's event loop has nothing else to run (requests
    ready to be served, replies to read), or after `max_wait_s`; callers pass one at a time.
    Work that a burst brings by the thousand (woken listeners, the long polls they send
    again) calls it first, so that a request arriving meanwhile (GET /health, a seat's
    action) waits behind at most one of them, not behind all. Without gevent: at once."""
    if not _under_gevent():
        return
    import gevent
    from gevent.lock import Semaphore

    global _LANE
    if _LANE is None:  # no switch between the test and the assignment
        _LANE = Semaphore(1)
    with _LANE:
        with gevent.Timeout(max_wait_s, False):
            gevent.idle()


def _under_gevent() -> bool:
    """Whether this process runs on gevent (gunicorn's gevent worker patched threading)."""
    try:
        from gevent import monkey
    except ImportError:
        return False
    return monkey.is_module_patched("threading")


def shared_notifier(url: str) -> Notifier:
    """The one Notifier of this process for the Redis at `url` (a forked child gets its own)."""
    with _SHARED_LOCK:
        if _SHARED_PID[0] != os.getpid():  # inherited from a parent: its thread is not ours
            _SHARED.clear()
            _SHARED_PID[0] = os.getpid()
        if url not in _SHARED:
            _SHARED[url] = Notifier(connect(url))
        return _SHARED[url]


def drain_all() -> None:
    """Shutdown of this process: `drain` every Notifier it made, so that every waiting long
    poll returns and every SSE stream ends now (the gunicorn worker calls it on SIGTERM)."""
    for notifier in list(_ALL):
        notifier.drain()
