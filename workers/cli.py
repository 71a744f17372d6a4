"""The `rummy` command line (click). Subcommands are added by their owners."""
import click


@click.group()
def main() -> None:
    """Contract Rummy: rules engine, service and workers."""


from workers.cli_play_bots import play_bots  # noqa: E402  (subcommands register after the group)
from workers.cli_worker import worker  # noqa: E402
from api.cli import openapi  # noqa: E402
from workers.cli_domain import conformance, simulate  # noqa: E402
from workers.cli_serve import serve  # noqa: E402

main.add_command(worker)
main.add_command(play_bots)
main.add_command(openapi)
main.add_command(conformance)
main.add_command(simulate)
main.add_command(serve)
