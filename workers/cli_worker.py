"""`rummy worker`: the RQ worker of the game jobs (DESIGN §7)."""
from __future__ import annotations

import gc
import logging

import click

from workers.cli_options import redis_options


@click.command("worker")
@redis_options
@click.option("--burst", is_flag=True, help="Stop once the queue is empty (no sweeping).")
@click.option("--no-scheduler", is_flag=True,
              help="Do not run RQ's scheduler (buy-offer deadlines, delayed retries).")
@click.option("--sweep-interval", type=float, default=None,
              help="Seconds between sweeps (default: $RUMMY_SWEEP_INTERVAL_S or 5).")
@click.option("--log-level", default="INFO", show_default=True)
def worker(redis_url: str, queue_url: str | None, burst: bool, no_scheduler: bool,
           sweep_interval: float | None,
           log_level: str) -> None:
    """Run an RQ worker with its scheduler: bot turns, round scoring, offer deadlines, sweeps."""
    from workers.worker import run_worker

    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(name)s %(message)s")
    tune_gc()
    run_worker(redis_url, burst=burst, with_scheduler=not no_scheduler,
               sweep_every_s=sweep_interval, log_level=log_level.upper(), queue_url=queue_url)


# The cyclic GC's thresholds in a worker: a gen-0 pass every 50,000 net container allocations
# instead of 700. The turn loop keeps the folded state of every game it plays (thousands of
# small immutable objects each, freed by reference counting, not cycles), and with the default
# thresholds the GC walked them again and again: at 50 games in flight its passes took 18.6 ms
# of CPU per four-bot game, 2.8 ms with these, and the worker's CPU per game fell from 0.49 to
# 0.36 s (the rest: the objects it walked no longer evicted the caches; issue 12).
GC_THRESHOLDS = (50_000, 20, 10)


def tune_gc() -> None:
    """Freeze what the imports allocated (never collected again) and raise the thresholds."""
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


@click.command("worker-health")
@click.option("--max-age", type=float, default=120.0, show_default=True,
              help="Seconds since the worker's last heartbeat beyond which it counts as stuck.")
def worker_health(max_age: float) -> None:
    """Liveness check of `rummy worker` (compose healthcheck, k8s livenessProbe): exit 0 when
    its main loop beat within --max-age seconds (the file $RUMMY_WORKER_HEARTBEAT, default
    /tmp/rummy-worker.heartbeat), else 1. The loop beats every 5 s while idle, while a job
    runs within its timeout, and while it waits out a Redis outage, which is not a failure:
    restarting the worker would not bring Redis back."""
    from workers.resilience import heartbeat_age_s, heartbeat_path

    path = heartbeat_path()
    age = heartbeat_age_s(path)
    if age is None:
        raise click.ClickException(f"no heartbeat yet ({path} does not exist)")
    if age > max_age:
        raise click.ClickException(f"last heartbeat {age:.0f} s ago (over {max_age:.0f} s)")
    click.echo(f"ok: last heartbeat {age:.1f} s ago")
