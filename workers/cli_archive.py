"""`rummy archive`: run the retention policy now, from the command line (docs/retention.md)."""
from __future__ import annotations

import click


@click.command("archive")
@click.option("--dry-run/--now", "dry_run", default=True, show_default=True,
              help="List the games due (--dry-run) or archive and remove them now (--now).")
@click.option("--limit", type=click.IntRange(min=1), default=None,
              help="Archive at most this many games.")
@click.option("--batch", type=click.IntRange(min=1), default=100, show_default=True,
              help="Games per logged batch.")
def archive(dry_run: bool, limit: int | None, batch: int) -> None:
    """Archive the games the retention policy says are due: finished ones past
    RUMMY_RETENTION_DAYS, abandoned ones past RUMMY_ABANDON_DAYS, into RUMMY_ARCHIVE_DIR.
    Reads REDIS_URL and the RUMMY_* settings like the service."""
    from service.bootstrap import wire
    from service.config import Settings
    from service.retention import Retention, RetentionPolicy

    settings = Settings.from_env()
    if not settings.redis_url:
        raise click.UsageError("REDIS_URL is not set")
    if not settings.archive_dir:
        raise click.UsageError("RUMMY_ARCHIVE_DIR is not set: retention has nowhere to archive")
    wired = wire(settings)
    retention = Retention(wired.service, wired.client, RetentionPolicy.from_settings(settings),
                          wired.queue_client)
    due = list(retention.due(limit=limit, stamp=not dry_run))
    verb = "due" if dry_run else "archived"
    with click.progressbar(length=len(due), label=f"{len(due)} games due") as bar:
        report = retention.run(batch=batch, dry_run=dry_run, pending=due,
                               progress=lambda game_id, outcome: bar.update(1))
    if dry_run:
        for game_id in report.finished:
            click.echo(f"finished  {game_id}")
        for game_id in report.abandoned:
            click.echo(f"abandoned {game_id}")
    click.echo(f"{verb}: {len(report.finished)} finished, {len(report.abandoned)} abandoned; "
               f"kept {len(report.kept)}, gone {len(report.gone)}"
               f"{'' if dry_run else f' (into {settings.archive_dir})'}")
