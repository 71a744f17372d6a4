"""The retention run as a job (workers/maintenance.py) served by a real `rummy worker` loop
(in burst mode) on the `rummy-maintenance` queue, after the game queue."""
from __future__ import annotations

import threading
import time

import pytest
from rq.job import Job

from service.bootstrap import wire
from service.config import Settings
from service.followups import make_queue
from tests.conftest import SECRET
from tests.integration.records import finished_record
from workers import maintenance, runtime
from workers.worker import run_worker


@pytest.fixture
def wired(redis_url, redis_client, admin_key, tmp_path, monkeypatch):
    monkeypatch.setenv("REDIS_URL", redis_url)  # run_worker sets it; restored after the test
    built = wire(Settings(redis_url=redis_url, admin_key=admin_key, secret=SECRET,
                          archive_dir=str(tmp_path / "archive"),
                          retention_days=1e-6))  # 86 ms
    runtime.use(built)
    yield built
    runtime.use(None)


def test_the_worker_runs_retention_from_the_maintenance_queue_after_the_game_jobs(
        wired, redis_url, redis_client, admin_key):
    service = wired.service
    game_id = service.import_game(finished_record(), admin_key)["id"]
    time.sleep(0.1)  # past the retention
    maint = maintenance.make_maintenance_queue(redis_client).enqueue(
        "workers.maintenance.archive_due", job_id="retention-test")
    game_job = make_queue(redis_client).enqueue("workers.jobs.sweep", job_id="sweep-test")

    assert run_worker(redis_url, burst=True, with_scheduler=False) is True

    maint, game_job = Job.fetch_many(["retention-test", "sweep-test"], connection=redis_client)
    assert maint.return_value() == {"finished": 1, "abandoned": 0, "kept": 0, "gone": 0}
    assert game_job.ended_at <= maint.started_at  # the game queue first
    assert service.archived(game_id) and not list(redis_client.scan_iter(f"*{game_id}*"))


def test_the_ticker_enqueues_one_run_per_interval_and_only_with_an_archive(redis_client):
    queue = maintenance.make_maintenance_queue(redis_client)
    stop = threading.Event()
    assert maintenance.start_ticker(queue, None, 0.05, stop) is False
    assert maintenance.start_ticker(queue, "/tmp/archive", 0.05, stop) is True
    assert maintenance.start_ticker(queue, "/tmp/archive", 0.05, stop) is True  # a 2nd worker
    deadline = time.monotonic() + 5
    while len(queue.job_ids) < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    stop.set()
    ids = queue.job_ids
    assert len(ids) >= 2 and all(i.startswith("retention-") for i in ids)
    assert len(ids) == len(set(ids))  # two tickers, one job per slot


def test_rummy_archive_lists_then_archives_what_is_due(redis_url, redis_client, admin_key,
                                                       tmp_path, monkeypatch):
    from click.testing import CliRunner

    from workers.cli import main

    env = {"REDIS_URL": redis_url, "RUMMY_ADMIN_KEY": admin_key, "RUMMY_SECRET": SECRET,
           "RUMMY_ARCHIVE_DIR": str(tmp_path / "archive"), "RUMMY_RETENTION_DAYS": "1e-6"}
    service = wire(Settings.from_env(env)).service
    game_id = service.import_game(finished_record(), admin_key)["id"]
    time.sleep(0.1)  # past the retention
    runner = CliRunner()

    listed = runner.invoke(main, ["archive"], env=env)
    assert listed.exit_code == 0, listed.output
    assert f"finished  {game_id}" in listed.output and "due: 1 finished" in listed.output
    assert redis_client.exists(f"rummy:{{{game_id}}}:events")

    done = runner.invoke(main, ["archive", "--now"], env=env)
    assert done.exit_code == 0, done.output
    assert "archived: 1 finished, 0 abandoned" in done.output
    assert service.archived(game_id) and not list(redis_client.scan_iter(f"*{game_id}*"))

    unset = runner.invoke(main, ["archive"], env={**env, "RUMMY_ARCHIVE_DIR": ""})
    assert unset.exit_code == 2 and "RUMMY_ARCHIVE_DIR" in unset.output
