"""The deadline poller and the deadline job (docs/clock.md).

A daemon thread of every `rummy worker` claims the due entries of the deadline sorted set
(service.clock, `rummy:{deadlines}:due`, scored in ms) every POLL_S (50 ms) and enqueues a
`deadline-<game>-<version>` job on the high-priority queue `rummy-deadlines` (listened to
first). The claim is one Lua script that leases each due entry for LEASE_MS: of many workers
exactly one enqueues a due deadline, and a deadline whose job was lost (its worker killed) is
claimed again when the lease ends, its job replaced once it counts as dead
(workers.sweeper.ensure_job). RQ's scheduler (whole seconds, polled each second) is not used.
"""
from __future__ import annotations

import logging
import threading
from datetime import datetime, timezone

import redis

from service.clock import DeadlineSchedule
from service.followups import deadline_job_id, make_deadline_queue
from service.store import StoreError
from service.timeouts import run_deadline as act_on_deadline
from workers import runtime
from workers.sweeper import ensure_job

log = logging.getLogger(__name__)

POLL_S = 0.05
BACKOFF_S = 1.0  # after a failed poll (Redis down): one warning a second, not twenty
LEASE_MS = 2000
CLAIM_LIMIT = 100


def run_deadline(game_id: str, version: int) -> str:
    """The deadline job: act on the game's deadline computed at `version` (service.timeouts.
    run_deadline: "stale", "none", "early", "offer" or "turn"). Appends at most once: at the
    expected `version`, with an idempotency key of that version."""
    return act_on_deadline(runtime.wiring().service, game_id, version)


def poll_once(schedule: DeadlineSchedule, queue, stale_s: float) -> list[str]:
    """Claim the due deadlines and enqueue a job for each without a live one; the job ids
    enqueued."""
    _, due = schedule.claim(LEASE_MS, CLAIM_LIMIT)
    now = datetime.now(timezone.utc)
    enqueued = []
    for game_id, version in due:
        job_id = ensure_job(queue, deadline_job_id(game_id, version),
                            "workers.deadlines.run_deadline", (game_id, version), now, stale_s)
        if job_id:
            enqueued.append(job_id)
    return enqueued


def poll_deadlines(store: redis.Redis, connection: redis.Redis, stale_s: float,
                   stop: threading.Event, every_s: float = POLL_S) -> None:
    """Run `poll_once` every `every_s` seconds until `stop` is set (a worker's daemon thread):
    the deadline set on `store` (REDIS_URL, maybe a Cluster), the deadline queue on
    `connection` (the RQ Redis). A Redis error is logged and the poll goes on after
    BACKOFF_S."""
    schedule, queue = DeadlineSchedule(store), make_deadline_queue(connection)
    pause = every_s
    while not stop.wait(pause):
        try:
            poll_once(schedule, queue, stale_s)
            pause = every_s
        except (redis.RedisError, StoreError):
            log.warning("deadline poll failed; polling again in %s s", BACKOFF_S, exc_info=True)
            pause = BACKOFF_S
