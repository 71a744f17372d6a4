"""The alert-ready gauges on /metrics (issue 7 item 9, docs/retention.md "Metrics"): Redis
memory, games per status, the backlog of each RQ queue and of the bots' ready queue, the
worker count; `rummy_redis_up 0`
(and a 200) when Redis is down."""
from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone

from prometheus_client.parser import text_string_to_metric_families
from rq import Queue

from api import create_app
from api.metrics import StorageCollector
from service.bootstrap import wire
from service.config import Settings
from service.ready_games import ReadyGames
from tests.integration.api_client import HUMANS
from tests.integration.records import finished_record


def scrape(service) -> dict:
    """{(name, labels as a sorted tuple): value} of one GET /metrics."""
    client = create_app({"RUMMY_SERVICE": service, "TESTING": True}).test_client()
    response = client.get("/metrics")
    assert response.status_code == 200
    samples = {}
    for family in text_string_to_metric_families(response.get_data(as_text=True)):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def test_metrics_show_memory_games_per_status_queue_backlog_and_workers(service, redis_client,
                                                                       admin_key):
    service.import_game(finished_record(), admin_key)
    service.create_game(HUMANS, seed=1)
    service.create_game(HUMANS, seed=2)
    queue = Queue("rummy-maintenance", connection=redis_client)
    job = queue.enqueue("workers.maintenance.archive_due", job_id="old-one")
    job.enqueued_at = datetime.now(timezone.utc) - timedelta(seconds=90)
    job.save()
    Queue("rummy", connection=redis_client).enqueue("workers.jobs.sweep")

    metrics = scrape(service)

    assert metrics[("rummy_redis_up", ())] == 1
    assert metrics[("rummy_redis_used_memory_bytes", ())] > 100_000
    assert metrics[("rummy_games", (("status", "finished"),))] == 1
    assert metrics[("rummy_games", (("status", "playing"),))] == 2
    assert metrics[("rummy_games", (("status", "scoring"),))] == 0
    assert metrics[("rummy_queue_jobs", (("queue", "rummy-maintenance"),))] == 1
    assert 90 <= metrics[("rummy_queue_oldest_job_age_seconds", (("queue", "rummy-maintenance"),))] < 120
    assert metrics[("rummy_queue_oldest_job_age_seconds", (("queue", "rummy"),))] < 30
    assert metrics[("rummy_workers", ())] == 0
    assert metrics[("rummy_ready_games", ())] == 0  # games of humans: nothing for the bots
    assert metrics[("rummy_ready_oldest_age_seconds", ())] == 0


def test_metrics_show_the_bots_ready_queue(service, redis_client):
    ready = ReadyGames(redis_client)
    ready.mark("a" * 16, 3, urgent=False)
    ready.mark("b" * 16, 5, urgent=True)  # ahead of the queue; its wait is still counted
    ready.mark("c" * 16, 1, urgent=False)
    assert ready.take(lease_ms=60_000)  # one game leased by a worker
    time.sleep(0.3)

    metrics = scrape(service)

    assert metrics[("rummy_ready_games", ())] == 2
    assert metrics[("rummy_ready_games_leased", ())] == 1
    assert 0.3 <= metrics[("rummy_ready_oldest_age_seconds", ())] < 30


def test_metrics_answer_200_with_redis_up_0_when_redis_is_down():
    down = wire(Settings(redis_url="redis://127.0.0.1:1/0")).service
    metrics = scrape(down)
    assert metrics[("rummy_redis_up", ())] == 0
    assert not any(name == "rummy_games" for name, _ in metrics)


def test_the_storage_read_is_cached_between_scrapes():
    reads, now = [], [0.0]
    collector = StorageCollector(lambda: reads.append(1) or None, cache_s=5, clock=lambda: now[0])
    for moment in (0.0, 1.0, 4.9, 5.0, 6.0):
        now[0] = moment
        list(collector.collect())
    assert len(reads) == 2  # at 0 and at 5
