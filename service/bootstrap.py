"""The one place that wires the service: Settings -> Redis clients -> stores -> GameService.
Used by api/ and workers/ alike (cosmicpython's bootstrap)."""
from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Mapping

import redis

from service.archive import DirectoryArchive
from service.config import PROCESS_SECRET, Settings
from service.followups import install
from service.games import GameService
from service.index import GameIndex
from service.loading import GameLoader
from service.queries import Followups
from service.records import RecordStore
from service.redis_store import RedisEventStore, blocking_client
from service.stats import redis_stats
from service.snapshots import MemorySnapshots, RedisSnapshots, Snapshots

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Wiring:
    """What bootstrap built: the settings, the shared Redis client, the service."""

    settings: Settings
    client: redis.Redis
    service: GameService


def wire(settings: Settings, enqueue_followups: Followups | None = None) -> Wiring:
    """Build the service on `settings.redis_url`. `enqueue_followups(game_id, version, state)`
    runs after every append (default: nothing; workers provide the RQ hook and may also set
    `service.enqueue_followups` later). Raises ValueError when no Redis URL is configured."""
    if not settings.redis_url:
        raise ValueError("REDIS_URL is not set (`rummy serve` starts an embedded server)")
    if settings.secret == PROCESS_SECRET:
        log.warning("RUMMY_SECRET is not set: a random secret of this process is used, so a "
                    "seeded game's deals are reproducible only within this process")
    client = redis.Redis.from_url(settings.redis_url)
    store = RedisEventStore(client, blocking_client(settings.redis_url, settings.max_wait_s),
                            settings.max_wait_s)
    loader = GameLoader(store, Snapshots(MemorySnapshots(), RedisSnapshots(client)))
    archive = DirectoryArchive(settings.archive_dir) if settings.archive_dir else None
    service = GameService(store, loader, RecordStore(client), GameIndex(client),
                          admin_key=settings.admin_key, max_wait_s=settings.max_wait_s,
                          ping=lambda: _ping(client), secret=settings.secret, archive=archive,
                          stats=lambda: redis_stats(client))
    if enqueue_followups is not None:
        service.enqueue_followups = enqueue_followups
    return Wiring(settings, client, service)


def build_service(environ: Mapping[str, str] | None = None,
                  enqueue_followups: Followups | None = None,
                  settings: Settings | None = None) -> GameService:
    """A GameService configured by `settings`, else from `environ` (default os.environ); see
    Settings.from_env.
    Without `enqueue_followups` it gets the RQ hook of service.followups (bots, scoring,
    deadlines), so the API and the jobs enqueue the same follow-ups after every append."""
    wiring = wire(settings or Settings.from_env(environ), enqueue_followups)
    if enqueue_followups is None:
        install(wiring)
    return wiring.service


def _ping(client: redis.Redis) -> bool:
    try:
        return bool(client.ping())
    except redis.RedisError:
        return False
