"""The `rummy` command line (click). Subcommands are added by their owners."""
import click


@click.group()
def main() -> None:
    """Contract Rummy: rules engine, service and workers."""
