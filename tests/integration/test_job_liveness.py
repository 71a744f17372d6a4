"""A started job is alive while it may still be running (DESIGN §5): `ensure_job` (the deadline
poller's) never replaces it before its timeout while its worker lives, and replaces the job of
a killed worker after the stale time."""
from __future__ import annotations

import threading
from datetime import datetime, timedelta, timezone

from rq.job import Job, JobStatus

from service.followups import JOB_TIMEOUT_S, deadline_job_id, enqueue_unique
from service.config import Settings
from workers.resilience import GameWorker, _tidy
from workers.sweeper import alive_key, ensure_job, keep_alive, started_limit_s

STALE_S = Settings().sweep_stale_s  # RUMMY_SWEEP_STALE_S's default

HUMANS = [{"kind": "human"}] * 4
DEADLINE = "workers.deadlines.run_deadline"


def started_job(queue, game: dict, age_s: float, worker_name: str | None) -> Job:
    job_id = deadline_job_id(game["id"], game["version"])
    enqueue_unique(queue, DEADLINE, job_id, game["id"], game["version"])
    job = Job.fetch(job_id, connection=queue.connection)
    queue.remove(job)
    job.started_at = datetime.now(timezone.utc) - timedelta(seconds=age_s)
    job.worker_name = worker_name
    job.set_status(JobStatus.STARTED)
    job.save()
    return job


def test_a_started_job_is_dead_only_past_its_timeout(deadlines):
    job = Job.create(DEADLINE, args=("g", 1), connection=deadlines.connection,
                     timeout=JOB_TIMEOUT_S)
    assert started_limit_s(job) > JOB_TIMEOUT_S > STALE_S


def ensure(deadlines, game: dict) -> str | None:
    """What the deadline poller does for the game's due deadline (workers.deadlines)."""
    return ensure_job(deadlines, deadline_job_id(game["id"], game["version"]), DEADLINE,
                      (game["id"], game["version"]), datetime.now(timezone.utc), STALE_S)


def test_a_running_job_of_a_live_worker_is_not_replaced_before_its_timeout(bare, deadlines,
                                                                         redis_client):
    game = bare.service.create_game(HUMANS, seed=2)
    job = started_job(deadlines, game, STALE_S + 10, "live-worker")
    redis_client.set(alive_key("live-worker"), 1, ex=30)
    assert ensure(deadlines, game) is None  # past the stale time, but within its 60 s timeout
    job.started_at = datetime.now(timezone.utc) - timedelta(seconds=JOB_TIMEOUT_S + 15)
    job.save()
    assert ensure(deadlines, game) == f"{job.id}-s1"  # RQ has stopped it by now


def test_a_started_job_of_a_killed_worker_is_replaced_after_the_stale_time(bare, deadlines):
    game = bare.service.create_game(HUMANS, seed=2)
    job = started_job(deadlines, game, STALE_S - 10, "killed-worker")
    assert ensure(deadlines, game) is None  # within the stale time: alive whatever its worker
    job.started_at = datetime.now(timezone.utc) - timedelta(seconds=STALE_S + 10)
    job.save()
    assert ensure(deadlines, game) == f"{job.id}-s1"  # no liveness key: its worker is gone


def test_a_worker_keeps_its_liveness_key_while_it_runs_and_removes_it_when_it_stops(
        redis_client):
    stop = threading.Event()
    thread = threading.Thread(target=keep_alive, args=(redis_client, "w1", stop, 0.05, 1.0))
    thread.start()
    try:
        for _ in range(50):
            if redis_client.exists(alive_key("w1")):
                break
            threading.Event().wait(0.02)
        assert 0 < redis_client.pttl(alive_key("w1")) <= 1000
    finally:
        stop.set()
        thread.join(5)
    assert not redis_client.exists(alive_key("w1"))


def test_a_worker_tidied_after_an_outage_that_lost_its_job_carries_on(deadlines):
    """The job a worker was running when Redis was killed may be gone when it comes back (its
    hash written in the server's last second, not yet in the AOF): tidying that worker files
    nothing and raises nothing (it once ended `rummy worker` with InvalidJobOperation)."""
    worker = GameWorker([deadlines], connection=deadlines.connection, stop=threading.Event())
    job = Job.create(DEADLINE, args=("g", 1), id="sweep-lost", connection=deadlines.connection)
    worker.current = (job, deadlines)  # never saved: as if lost with the server
    _tidy(worker)
    assert not Job.exists("sweep-lost", connection=deadlines.connection)
    assert deadlines.failed_job_registry.get_job_ids() == []
