"""The webhook worker (docs/players.md "Webhooks"): `rummy webhook-worker`, an RQ worker of
the `rummy-webhooks` queue only, in its own process, with RQ's scheduler for the retries
(service.webhooks.BACKOFF_S). No game job runs here and no delivery runs in a game worker, so
a receiver that is slow or down never delays a bot, a scoring or a deadline. Run more of them
for more receivers at once (each posts one delivery at a time). Like `rummy worker` it waits
out a Redis outage (workers.resilience) and beats the heartbeat file `rummy worker-health`
checks."""
from __future__ import annotations

import logging
import os
import threading

import click
import redis
from rq import Queue, get_current_job

from service.webhooks import WEBHOOK_QUEUE
from workers import runtime
from workers.cli_options import redis_options
from workers.resilience import GameWorker, heartbeat_path, work_through_outages
from workers.worker import SOCKET_TIMEOUT_S, WORKER_TTL_S

log = logging.getLogger(__name__)


class DeliveryFailed(Exception):
    """The receiver did not take the delivery (no 2xx): RQ retries the job later."""


def deliver(game_id: str, delivery_id: str) -> str:
    """The delivery job: post the delivery once (service.webhooks.WebhookOutbox.attempt).
    Returns "delivered"; raises DeliveryFailed (retried with backoff while retries are left)."""
    job = get_current_job()
    retries_left = (job.retries_left or 0) if job is not None else 0
    if not runtime.wiring().service.webhooks.attempt(game_id, delivery_id, retries_left):
        raise DeliveryFailed(f"delivery {delivery_id} not taken; "
                             f"{retries_left} retries left")
    return "delivered"


def run_webhook_worker(redis_url: str, burst: bool = False, log_level: str = "INFO",
                       queue_url: str | None = None) -> bool:
    """Work the webhook queue of `queue_url` (RUMMY_QUEUE_URL, a single Redis), else of
    `redis_url`, with RQ's scheduler until SIGINT/SIGTERM (`burst`: until it is empty). The
    jobs build their service from REDIS_URL and RUMMY_QUEUE_URL, set here."""
    os.environ["REDIS_URL"] = redis_url
    if queue_url:
        os.environ["RUMMY_QUEUE_URL"] = queue_url
    connection = redis.Redis.from_url(queue_url or redis_url, socket_timeout=SOCKET_TIMEOUT_S,
                                      socket_connect_timeout=SOCKET_TIMEOUT_S)
    stop = threading.Event()

    def new_worker() -> GameWorker:
        worker = GameWorker([Queue(WEBHOOK_QUEUE, connection=connection)],
                            connection=connection, worker_ttl=WORKER_TTL_S, stop=stop,
                            heartbeat_file=heartbeat_path())
        worker.expected_failures = (DeliveryFailed,)
        return worker

    def work(worker: GameWorker) -> bool:
        return worker.work(burst=burst, with_scheduler=True, logging_level=log_level)

    if burst:
        return work(new_worker())
    return work_through_outages(new_worker, work, connection, stop, heartbeat_path())


@click.command("webhook-worker")
@redis_options
@click.option("--burst", is_flag=True, help="Stop once the queue is empty.")
@click.option("--log-level", default="INFO", show_default=True)
def webhook_worker(redis_url: str, queue_url: str | None, burst: bool, log_level: str) -> None:
    """Deliver webhooks (RUMMY_WEBHOOK_URL, games' webhook_url) with retries for up to 24 h."""
    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(name)s %(message)s")
    run_webhook_worker(redis_url, burst=burst, log_level=log_level.upper(), queue_url=queue_url)
