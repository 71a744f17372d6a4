"""`rummy worker` through Redis outages (issue 7; docs/workers.md "Redis outages").

RQ's `Worker.work` (RQ 2.12) survives a ConnectionError only inside its blocking dequeue;
anywhere else (recording a job's result, its maintenance, its state) it logs "found an
unhandled exception, quitting", and on a socket timeout (a frozen server) "Redis connection
timeout, quitting". `work_through_outages` turns that into a pause: it runs one RQ worker after
another in this process, and when one ends without a stop request it waits until Redis
answers PING again (capped exponential backoff), tidies what the ended worker left behind
(its registration, its scheduler lock, the job it was running) and starts a fresh one, which
registers under a new name. Each outage is logged once when noticed and once when over, with
its length.

`GameWorker` is the SimpleWorker it runs: it reports stop requests, remembers the job in
progress and touches the heartbeat file (`rummy worker-health`, the container liveness check)
each time its main loop beats.
"""
from __future__ import annotations

import logging
import os
import signal
import threading
import time
from pathlib import Path
from typing import Callable

import redis
from rq import SimpleWorker
from rq.exceptions import InvalidJobOperation
from rq.job import Job, JobStatus
from rq.queue import Queue

log = logging.getLogger(__name__)

# PING backoff while Redis is unreachable: 0.5 s, 1 s, 2 s, 4 s, then every 5 s.
FIRST_DELAY_S = 0.5
MAX_DELAY_S = 5.0
# A worker that worked this long before it ended resets the backoff.
STABLE_S = 60.0
HEARTBEAT_ENV = "RUMMY_WORKER_HEARTBEAT"
DEFAULT_HEARTBEAT = "/tmp/rummy-worker.heartbeat"


def heartbeat_path() -> Path:
    """The heartbeat file of `rummy worker` (RUMMY_WORKER_HEARTBEAT, default
    /tmp/rummy-worker.heartbeat): its modification time is the last beat of the main loop."""
    return Path(os.environ.get(HEARTBEAT_ENV) or DEFAULT_HEARTBEAT)


def beat(path: Path | None) -> None:
    """Touch the heartbeat file `path` (None: none); a file-system error is logged, not raised,
    so a read-only /tmp cannot stop the worker."""
    if path is None:
        return
    try:
        path.touch()
    except OSError as error:
        log.debug("could not touch the heartbeat file %s: %s", path, error)


def heartbeat_age_s(path: Path) -> float | None:
    """Seconds since the last beat written to `path`; None when the file does not exist."""
    try:
        return max(0.0, time.time() - path.stat().st_mtime)
    except FileNotFoundError:
        return None


class Backoff:
    """Capped exponential delays in seconds: `first_s`, twice that, ... at most `max_s`."""

    def __init__(self, first_s: float = FIRST_DELAY_S, max_s: float = MAX_DELAY_S) -> None:
        self.first_s, self.max_s = first_s, max_s
        self._next = first_s

    def next(self) -> float:
        """The delay to wait now; the next call returns twice as much (up to `max_s`)."""
        delay, self._next = self._next, min(self._next * 2, self.max_s)
        return delay

    def reset(self) -> None:
        """Start again from `first_s`."""
        self._next = self.first_s


class RedisOutage(redis.RedisError):
    """Redis refused a worker's heartbeat: the worker ends and `work_through_outages` waits."""


class GameWorker(SimpleWorker):
    """The RQ SimpleWorker of `rummy worker`. `stop` is set on a stop request (SIGINT/SIGTERM);
    `current` is the (job, queue) being executed, left set when its execution raised;
    every RQ heartbeat of the main loop also touches `heartbeat_file`, and so does
    `beat_while_busy` while a job runs within its timeout (RQ stops it there).

    A heartbeat refused with a ConnectionError raises RedisOutage instead: RQ's idle dequeue
    would otherwise retry a lost connection itself, logging every attempt, while every other
    outage ends the worker; this way each outage, met idle or busy, takes the one path of
    `work_through_outages` (logged once, with its length)."""

    def __init__(self, *args, stop: threading.Event, heartbeat_file: Path | None = None,
                 **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.stop = stop
        self.heartbeat_file = heartbeat_file
        self.current: tuple[Job, Queue] | None = None
        self._job_started = 0.0

    # Failures a job raises on purpose, to be retried later (a webhook receiver down): one
    # line each, not RQ's traceback (three unreachable receivers wrote 42 in two minutes).
    expected_failures: tuple[type[BaseException], ...] = ()

    def handle_exception(self, job: Job, *exc_info) -> None:
        """RQ's handling of a job's exception; one of `expected_failures` is logged as one
        warning line (job id and message) instead of an error with its traceback."""
        if not isinstance(exc_info[1], self.expected_failures):
            super().handle_exception(job, *exc_info)
            return
        self.log.warning("job %s failed: %s", job.id, exc_info[1])
        for handler in self._exc_handlers:   # as RQ's: a falsy answer but None stops them
            fallthrough = handler(job, *exc_info)
            if fallthrough is not None and not fallthrough:
                break

    def handle_warm_shutdown_request(self) -> None:
        self.stop.set()
        super().handle_warm_shutdown_request()

    def execute_job(self, job: Job, queue: Queue) -> None:
        self.current, self._job_started = (job, queue), time.monotonic()
        super().execute_job(job, queue)
        self.current = None

    def beat_while_busy(self, stop: threading.Event, every_s: float = 5.0) -> None:
        """Until `stop` is set, every `every_s` seconds touch the heartbeat file while a job
        runs and is younger than its timeout: a long job (a retention run may take minutes)
        is not a stuck worker, a job past its timeout is (RQ should have stopped it)."""
        while not stop.wait(every_s):
            current = self.current
            if current is None:
                continue
            timeout = current[0].timeout or 0
            if timeout <= 0 or time.monotonic() - self._job_started < timeout:
                beat(self.heartbeat_file)

    def heartbeat(self, *args, **kwargs) -> None:
        beat(self.heartbeat_file)
        try:
            super().heartbeat(*args, **kwargs)
        except redis.ConnectionError as error:
            raise RedisOutage(str(error)) from error


def work_through_outages(new_worker: Callable[[], GameWorker], work: Callable[[GameWorker], bool],
                         connection: redis.Redis, stop: threading.Event,
                         heartbeat_file: Path | None = None,
                         backoff: Backoff | None = None) -> bool:
    """Run `work(new_worker())` again and again until `stop` is set; return whether any job ran.

    `connection` (give it a socket timeout, so a frozen server cannot block the wait) is
    PINGed after a worker ended without a stop request (or could not be created: Redis down at
    startup), with `backoff` between attempts (reset after a worker that ran STABLE_S), and
    `heartbeat_file` touched at each attempt; while waiting, SIGINT and SIGTERM set `stop`. A
    worker that ended while Redis still answers (an error outside Redis, or a blip already
    over) also waits one backoff delay, so a persistent fault cannot spin. Must run in the main
    thread (RQ installs signal handlers). Raises whatever `new_worker` or `work` raise except
    RedisError (RQ's teardown fails so while Redis is down)."""
    backoff = backoff or Backoff()
    worked = False
    while True:
        started = time.monotonic()
        worker: GameWorker | None = None
        ended_on: redis.RedisError | None = None
        try:
            worker = new_worker()  # RQ names its connection: a Redis call
            worked = work(worker) or worked
        except redis.RedisError as error:
            ended_on = error
        if worker is not None and worker.pubsub_thread is not None:
            worker.pubsub_thread.stop()  # else it retries its channel every 2 s, logging
        if stop.is_set():
            return worked
        for signum in (signal.SIGINT, signal.SIGTERM):  # RQ's handlers belong to the ended worker
            signal.signal(signum, lambda *_: stop.set())
        if time.monotonic() - started >= STABLE_S:
            backoff.reset()
        if not _wait_for_redis(connection, stop, backoff, heartbeat_file, ended_on):
            return worked
        if worker is not None:
            _tidy(worker)
        beat(heartbeat_file)


def _wait_for_redis(connection: redis.Redis, stop: threading.Event, backoff: Backoff,
                    heartbeat_file: Path | None, ended_on: redis.RedisError | None) -> bool:
    """PING until Redis answers (True) or `stop` is set (False), logging the outage once when
    noticed (the worker ended on `ended_on`, or a PING failed) and once when over, with its
    length (from the worker's end)."""
    began = time.monotonic()
    noticed = False

    def notice(error: redis.RedisError) -> None:
        nonlocal noticed
        if not noticed:
            log.warning("Redis unreachable (%s); reconnecting with backoff (%.1f s doubling to "
                        "%.0f s)", _describe(error), backoff.first_s, backoff.max_s)
            noticed = True

    if ended_on is not None:
        notice(ended_on)
    while not stop.is_set():
        beat(heartbeat_file)
        try:
            connection.ping()  # blocks up to the socket timeout on a frozen server
        except redis.RedisError as error:
            notice(error)
            stop.wait(backoff.next())
            continue
        if noticed:
            log.warning("Redis reachable again after %.1f s; starting a fresh RQ worker",
                        time.monotonic() - began)
        else:
            delay = backoff.next()
            log.warning("RQ worker ended unexpectedly while Redis answers; starting a fresh one "
                        "in %.1f s", delay)
            if stop.wait(delay):
                return False
        return True
    return False


def _tidy(worker: GameWorker) -> None:
    """What an ended `worker` could not do while Redis was down: register its death, release
    its scheduler's lock (so the next worker's scheduler takes over now, not when the lock
    expires), close its command channel, and file the job it was running as failed (RQ then
    retries it per its Retry, or the sweeper replaces it). A re-run job is harmless: each job
    checks the game's version first and appends with an expected version (workers/jobs.py)."""
    try:
        worker.register_death()
        if worker.scheduler is not None:
            worker.scheduler.release_locks()
        if worker.pubsub_thread is not None and worker.pubsub_thread.is_alive():
            worker.unsubscribe()  # wakes its thread (stopped already) and closes the channel
        elif worker.pubsub is not None:
            worker.pubsub.close()
        if worker.current is not None:
            job, queue = worker.current
            if _status(job) == JobStatus.STARTED:
                log.warning("job %s was interrupted by the outage; filing it as failed",
                            job.id)
                worker.handle_job_failure(job, queue, exc_string="interrupted: Redis outage")
    except redis.RedisError as error:  # Redis went away again: the sweeper recovers the job
        log.warning("could not tidy up after RQ worker %s: %s", worker.name, _describe(error))


def _status(job: Job) -> JobStatus | None:
    """The job's status as Redis holds it now; None when its hash is gone (written in the last
    second before a server was killed and lost with it, or expired): nothing to file then."""
    try:
        return job.get_status(refresh=True)
    except InvalidJobOperation:
        return None


def _describe(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"
