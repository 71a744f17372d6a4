"""The maintenance jobs (docs/retention.md): retention runs on their own RQ queue,
`rummy-maintenance`, which `rummy worker` listens to after the game queues, so archiving never
delays a bot's turn or a round's scoring (RQ takes jobs from its queues in order).

A daemon thread of each worker enqueues `workers.maintenance.archive_due` every
`RUMMY_RETENTION_INTERVAL_S` (default 3600) with the id `retention-<slot>` (unique per time
slot), so many workers still run retention once per interval. Without RUMMY_ARCHIVE_DIR the
ticker does not start (retention is off; the worker logs it once).
"""
from __future__ import annotations

import logging
import threading
import time

import redis
from rq import Queue
from rq.exceptions import DuplicateJobError

from service.followups import MAINTENANCE_QUEUE, make_queue
from service.retention import Retention, RetentionPolicy
from workers import runtime

log = logging.getLogger(__name__)

BATCH = 100
# A run archives at most this many games; the next interval takes the rest, so one run never
# holds a worker for long (each game is an export, a file write and one script).
RUN_LIMIT = 2000
JOB_TIMEOUT_S = 1800


def make_maintenance_queue(connection: redis.Redis) -> Queue:
    """The queue of the maintenance jobs on `connection` (service.followups.MAINTENANCE_QUEUE)."""
    return make_queue(connection, MAINTENANCE_QUEUE)


def archive_due() -> dict:
    """Archive the games due under the policy of this process's settings
    (service.retention): at most RUN_LIMIT, BATCH at a time, each batch logged. Returns
    `{"finished", "abandoned", "kept", "gone"}` counts. Raises ValueError without an archive."""
    wired = runtime.wiring()
    policy = RetentionPolicy.from_settings(wired.settings)
    retention = Retention(wired.service, wired.client, policy, wired.queue_client)
    report = retention.run(limit=RUN_LIMIT, batch=BATCH)
    return {"finished": len(report.finished), "abandoned": len(report.abandoned),
            "kept": len(report.kept), "gone": len(report.gone)}


def _ticker(queue: Queue, interval_s: float, stop: threading.Event) -> None:
    while not stop.wait(interval_s):
        slot = int(time.time() // interval_s)
        try:
            queue.enqueue("workers.maintenance.archive_due", job_id=f"retention-{slot}",
                          unique=True, job_timeout=JOB_TIMEOUT_S,
                          result_ttl=int(interval_s * 2), failure_ttl=7 * 24 * 3600)
        except DuplicateJobError:
            pass  # another worker's ticker got this slot
        except redis.RedisError:
            log.warning("could not enqueue the retention run; retrying next interval",
                        exc_info=True)


def start_ticker(queue: Queue, archive_dir: str | None, interval_s: float,
                 stop: threading.Event) -> bool:
    """Start the retention ticker thread on `queue` (until `stop` is set) when `archive_dir`
    is configured; returns whether it started."""
    if not archive_dir:
        log.info("retention is off (RUMMY_ARCHIVE_DIR is not set): no game is archived")
        return False
    threading.Thread(target=_ticker, args=(queue, interval_s, stop), name="rummy-retention",
                     daemon=True).start()
    return True
