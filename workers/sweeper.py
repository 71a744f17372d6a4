"""The sweeper's parts (DESIGN §5 "no game may get stuck"): the liveness of RQ jobs and of
worker processes. The sweep itself is workers.jobs.sweep; a game awaiting a bot or its
scoring is the ready queue's (service.ready_games), a human's deadline the deadline set's.

`ensure_job` makes sure a live RQ job exists for an id (the deadline poller's jobs,
workers.deadlines): one missing (a process died between its claim and the enqueue) or dead
(failed after its retries, killed with its worker, its scheduler gone) is replaced. The
canonical id (`deadline-<game>-<v>`) is tried first, then `<id>-s1`, `<id>-s2` … so that a
dead job stays in RQ's registries for inspection while a fresh one runs.

A started job is never called dead while it may still be running: RQ stops a job at its
timeout (JOB_TIMEOUT_S), so only past its timeout + STARTED_GRACE_S is a started job surely
dead. Before that it counts as dead once `stale_s` has passed and its worker process no longer
refreshes its liveness key (`keep_alive`, a thread of `rummy worker`): the worker was killed.
"""
from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from datetime import datetime, timezone

import redis
from rq import Queue
from rq.job import Job, JobStatus

from service.followups import JOB_TIMEOUT_S, enqueue_unique
from service.keys import PREFIX

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 10
# A started job is surely dead this long after its timeout (RQ's death penalty has fired).
STARTED_GRACE_S = 10.0
# `rummy worker` refreshes its liveness key every ALIVE_EVERY_S; it expires after ALIVE_TTL_S.
ALIVE_EVERY_S = 1.0
ALIVE_TTL_S = 5.0


def alive_key(worker_name: str) -> str:
    """The liveness key of the RQ worker named `worker_name` (exists while its process runs)."""
    return f"{PREFIX}:worker-alive:{worker_name}"


def keep_alive(connection: redis.Redis, worker_name: str, stop: threading.Event,
               every_s: float = ALIVE_EVERY_S, ttl_s: float = ALIVE_TTL_S) -> None:
    """Refresh the worker's liveness key every `every_s` until `stop` is set (then delete it).
    Runs in a daemon thread beside the job, so a long job still shows its worker alive; a
    killed process stops refreshing and the key expires after `ttl_s`. A Redis error is logged
once until a refresh succeeds again."""
    key = alive_key(worker_name)
    failing = False  # log once per Redis outage, not every `every_s`
    while True:
        try:
            connection.set(key, 1, px=int(ttl_s * 1000))
            failing = False
        except redis.RedisError as error:
            if not failing:
                log.warning("could not refresh the worker's liveness key: %s", error)
            failing = True
        if stop.wait(every_s):
            break
    try:
        connection.delete(key)
    except redis.RedisError:
        pass


def started_limit_s(job: Job) -> float:
    """Age after which a started `job` is dead whatever else: its timeout + STARTED_GRACE_S,
    strictly more than RQ lets it run."""
    timeout = job.timeout if job.timeout and job.timeout > 0 else JOB_TIMEOUT_S
    return timeout + STARTED_GRACE_S


@dataclass(frozen=True)
class Sweep:
    """What one sweep did: games looked at, games put back in the ready queue, lobbies
    expired."""

    games: int
    readied: tuple[str, ...]
    expired: tuple[str, ...] = ()


def _age_s(moment: datetime | None, now: datetime) -> float:
    if moment is None:
        return float("inf")
    if moment.tzinfo is None:  # rq stores naive UTC datetimes
        moment = moment.replace(tzinfo=timezone.utc)
    return (now - moment).total_seconds()


def job_alive(queue: Queue, job: Job, now: datetime, stale_s: float) -> bool:
    """Whether `job` may still do its work: queued less than `stale_s` ago, or started and possibly still running (less than `stale_s`
    ago, or within its timeout while its worker is alive: `started_limit_s`, `keep_alive`).
    Finished, failed, stopped and canceled jobs are dead (the game still waits at their
    version, so they did not move it on)."""
    status = job.get_status(refresh=False)
    if status in (JobStatus.QUEUED, JobStatus.DEFERRED):
        return _age_s(job.enqueued_at or job.created_at, now) < stale_s
    if status == JobStatus.STARTED:
        age = _age_s(job.started_at, now)
        if age >= max(started_limit_s(job), stale_s):
            return False
        if age < stale_s:
            return True
        return bool(job.worker_name) and bool(queue.connection.exists(alive_key(job.worker_name)))
    return False


def ensure_job(queue: Queue, base_id: str, func: str, args: tuple, now: datetime,
               stale_s: float) -> str | None:
    """Make sure a live job for `base_id` exists; return the id enqueued, or None if one was
    alive (or `MAX_ATTEMPTS` ids are used up: logged, left for an operator)."""
    for attempt in range(MAX_ATTEMPTS):
        job_id = base_id if attempt == 0 else f"{base_id}-s{attempt}"
        job = Job.fetch_many([job_id], connection=queue.connection)[0]
        if job is not None:
            if job_alive(queue, job, now, stale_s):
                return None
            continue
        return job_id if enqueue_unique(queue, func, job_id, *args) else None
    log.error("game job %s died %d times; not retrying", base_id, MAX_ATTEMPTS)
    return None
