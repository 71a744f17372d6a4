"""`rummy worker`: the RQ worker of the game jobs (DESIGN §7)."""
from __future__ import annotations

import logging

import click


@click.command("worker")
@click.option("--redis-url", envvar="REDIS_URL", required=True,
              help="The Redis to work on (default: $REDIS_URL).")
@click.option("--burst", is_flag=True, help="Stop once the queue is empty (no sweeping).")
@click.option("--no-scheduler", is_flag=True,
              help="Do not run RQ's scheduler (buy-offer deadlines, delayed retries).")
@click.option("--sweep-interval", type=float, default=None,
              help="Seconds between sweeps (default: $RUMMY_SWEEP_INTERVAL_S or 5).")
@click.option("--log-level", default="INFO", show_default=True)
def worker(redis_url: str, burst: bool, no_scheduler: bool, sweep_interval: float | None,
           log_level: str) -> None:
    """Run an RQ worker with its scheduler: bot turns, round scoring, offer deadlines, sweeps."""
    from workers.worker import run_worker

    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(name)s %(message)s")
    run_worker(redis_url, burst=burst, with_scheduler=not no_scheduler,
               sweep_every_s=sweep_interval, log_level=log_level.upper())
