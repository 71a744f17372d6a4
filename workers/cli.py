"""The `rummy` command line (click): one group, one module per subcommand.

- `conformance`, `simulate`: the rules engine in process (workers/cli_domain.py)
- `serve`: embedded Redis + gunicorn + worker in the foreground (workers/cli_serve.py)
- `worker`: an RQ worker with its scheduler and the sweeper (workers/cli_worker.py)
- `webhook-worker`: the RQ worker of webhook deliveries, on its own queue (workers/webhooks.py)
- `worker-health`: the liveness check of `rummy worker`, from its heartbeat file (same module)
- `play-bots`: a four-bot game on a running service over HTTP (workers/cli_play_bots.py)
- `archive`: run the retention policy now, or list what it would archive (workers/cli_archive.py)
- `openapi`: print the OpenAPI document generated from the code (api/cli.py)
"""
import click

from api.cli import openapi
from workers.cli_archive import archive
from workers.cli_domain import conformance, simulate
from workers.cli_play_bots import play_bots
from workers.cli_serve import serve
from workers.cli_worker import worker, worker_health
from workers.webhooks import webhook_worker


@click.group()
def main() -> None:
    """Contract Rummy: rules engine, service and workers."""


for command in (conformance, simulate, serve, worker, worker_health, play_bots, archive,
                openapi, webhook_worker):
    main.add_command(command)
