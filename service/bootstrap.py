"""The one place that wires the service: Settings -> Redis clients -> stores -> GameService.
Used by api/ and workers/ alike (cosmicpython's bootstrap)."""
from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Mapping

import redis

from service.archive import DirectoryArchive
from service.clock import DeadlineSchedule
from service.config import PROCESS_SECRET, Settings
from service.connections import connect
from service.followups import install
from service.games import GameService
from service.grants import GrantStore
from service.idempotent_creation import IdempotentCreation
from service.index import GameIndex
from service.lobby import Lobby
from service.rematch import Rematches
from service.jwt_identity import JwtVerifier
from service.player_index import PlayerIndex
from service.projections import AfterAppend, index_players, publish_webhooks, seat_players
from service.seat_players import JoinedPlayers
from service.loading import GameLoader
from service.notify import shared_notifier
from service.queries import Followups
from service.records import RecordStore
from service.redis_store import RedisEventStore
from service.snapshots import MemorySnapshots, RedisSnapshots, Snapshots
from service.stats import redis_stats
from service.stream_leases import StreamLeases
from service.webhooks import WebhookOutbox

log = logging.getLogger(__name__)
# The API runs on gevent (docs/streams.md): one process may run hundreds of requests at once.
# redis-py 8's default pool raises past 100 connections; this one makes the excess wait up to
# POOL_TIMEOUT_S for a free connection (then StoreUnavailable: 503), a command taking ~0.1 ms.
# Sized for bursts: when hundreds of held streams wake together, each greenlet keeps its
# connection until the loop comes back to it, and 64 ran dry (bench.idle_connections --clocked).
POOL_CONNECTIONS = 512
POOL_TIMEOUT_S = 5.0


@dataclass(frozen=True)
class Wiring:
    """What bootstrap built: the settings, the store's Redis client (a RedisCluster on a
    cluster URL), the RQ queues' client (`queue_client`: RUMMY_QUEUE_URL, else the same
    Redis) and the service."""

    settings: Settings
    client: redis.Redis
    service: GameService
    queue_client: redis.Redis


def wire(settings: Settings, enqueue_followups: Followups | None = None) -> Wiring:
    """Build the service on `settings.redis_url`. `enqueue_followups(game_id, version, state)`
    runs after every append (default: nothing; workers provide the RQ hook and may also set
    `service.enqueue_followups` later). Raises ValueError when no Redis URL is configured."""
    if not settings.redis_url:
        raise ValueError("REDIS_URL is not set (`rummy serve` starts an embedded server)")
    if settings.secret == PROCESS_SECRET:
        log.warning("RUMMY_SECRET is not set: a random secret of this process is used, so a "
                    "seeded game's deals are reproducible only within this process")
    client = redis_client(settings.redis_url)
    queue_client = (client if settings.rq_url == settings.redis_url
                    else redis_client(settings.rq_url))
    store = RedisEventStore(client, shared_notifier(settings.redis_url), settings.max_wait_s)
    loader = GameLoader(store, Snapshots(MemorySnapshots(), RedisSnapshots(client)))
    archive = DirectoryArchive(settings.archive_dir) if settings.archive_dir else None
    service = GameService(store, loader, RecordStore(client), GameIndex(client),
                          admin_key=settings.admin_key, max_wait_s=settings.max_wait_s,
                          ping=lambda: _ping(client), secret=settings.secret, archive=archive,
                          stats=lambda: redis_stats(client, queue_client=queue_client),
                          leases=StreamLeases(client, settings.stream_lease_s),
                          schedule=DeadlineSchedule(client),
                          offer_deadline_s=settings.offer_deadline_s,
                          grants=GrantStore(client))
    service.lobby = Lobby(service, client, settings.lobby_ttl_s)
    service.creations = IdempotentCreation(client)
    service.rematches = Rematches(service, client)
    if enqueue_followups is not None:
        service.enqueue_followups = enqueue_followups
    wire_players(service, client, settings, queue_client)
    return Wiring(settings, client, service, queue_client)


def wire_players(service: GameService, client: redis.Redis, settings: Settings,
                 queue_client: redis.Redis | None = None) -> None:
    """The players' side of `service` (docs/players.md): the per-player index and the webhook
    outbox (its jobs on `queue_client`, the RQ Redis) with their projections, the integrator's
    settings and, when configured, the JWT verifier."""
    integration = settings.integration
    service.players = PlayerIndex(client)
    service.joined = JoinedPlayers(client)
    service.webhooks = WebhookOutbox(client, integration, queue_client)
    service.integration = integration
    if integration.jwt_enabled:
        service.identity = JwtVerifier(integration.jwt_public_key, integration.jwt_issuer,
                                       integration.jwt_audience)
    service.after_append = AfterAppend(
        seat_players(service.players, service.joined),
        index_players(service.players, service.joined),
        publish_webhooks(service.webhooks, service.joined, service.deadline))


def redis_client(url: str) -> redis.Redis:
    """A client of `url` (service.connections: a RedisCluster for `redis+cluster://`) on
    blocking pools of POOL_CONNECTIONS connections (per node on a Cluster)."""
    return connect(url, pool_size=POOL_CONNECTIONS, pool_timeout_s=POOL_TIMEOUT_S)


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
