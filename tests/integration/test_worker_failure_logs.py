"""A job that fails on purpose to be retried later (a webhook receiver down, DeliveryFailed)
logs one warning line, not RQ's error with a traceback; any other failure keeps RQ's log."""
from __future__ import annotations

import logging
import threading

import redis
from rq import Queue, Retry

from workers.resilience import GameWorker
from workers.webhooks import DeliveryFailed


def refuse_delivery() -> None:
    raise DeliveryFailed("delivery d1 not taken; 1 retries left")


def break_down() -> None:
    raise RuntimeError("a bug")


def _run(redis_url: str, function, caplog) -> list[logging.LogRecord]:
    connection = redis.Redis.from_url(redis_url)
    queue = Queue("failure-logs", connection=connection)
    queue.enqueue(function, retry=Retry(max=1, interval=60))
    worker = GameWorker([queue], connection=connection, stop=threading.Event())
    worker.expected_failures = (DeliveryFailed,)
    with caplog.at_level(logging.INFO, logger="rq.worker"):
        worker.work(burst=True)
    return [r for r in caplog.records if r.name == "rq.worker" and r.levelno >= logging.WARNING]


def test_an_expected_failure_is_one_warning_line_and_is_still_retried(redis_url, redis_client,
                                                                     caplog):
    logged = _run(redis_url, refuse_delivery, caplog)
    assert [r.levelno for r in logged] == [logging.WARNING], [r.getMessage() for r in logged]
    line = logged[0].getMessage()
    assert "delivery d1 not taken" in line and "Traceback" not in line and "\n" not in line
    scheduled = Queue("failure-logs", connection=redis_client).scheduled_job_registry
    assert len(scheduled) == 1  # RQ's retry is untouched: the job waits for its next try


def test_any_other_failure_keeps_rqs_error_with_its_traceback(redis_url, redis_client, caplog):
    logged = _run(redis_url, break_down, caplog)
    assert any(r.levelno == logging.ERROR and "Traceback" in r.getMessage()
               and "a bug" in r.getMessage() for r in logged), [r.getMessage() for r in logged]
