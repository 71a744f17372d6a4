"""Click options the worker commands share (`rummy worker`, `rummy webhook-worker`)."""
from __future__ import annotations

from typing import Callable

import click


def redis_options(command: Callable) -> Callable:
    """`--redis-url` (the store's Redis or Cluster, $REDIS_URL, required) and `--queue-url` (the
    single Redis of the RQ queues, $RUMMY_QUEUE_URL; docs/cluster.md)."""
    command = click.option(
        "--queue-url", envvar="RUMMY_QUEUE_URL", default=None,
        help="The single Redis of the RQ queues (default: $RUMMY_QUEUE_URL, else the "
             "--redis-url; required when that is a redis+cluster:// URL).")(command)
    return click.option("--redis-url", envvar="REDIS_URL", required=True,
                        help="The Redis to work on (default: $REDIS_URL).")(command)
