"""Settings from the environment (docs/architecture.md §3): the one place the service's
environment variables are read, by api/ and workers/ alike."""
from __future__ import annotations

import ipaddress
import logging
import os
import secrets
from dataclasses import dataclass, field
from typing import Mapping

from limits import parse_many

from service.integration_config import IntegrationSettings
from service.connections import is_cluster

log = logging.getLogger(__name__)

MIN_ADMIN_KEY = 16
WEAK_ADMIN_KEYS = frozenset({"change-me", "changeme"})
# Used when RUMMY_SECRET is unset: seeded games are then reproducible only in this process.
PROCESS_SECRET = secrets.token_hex(32)
# RUMMY_RATE_LIMITS: per budget, the limits (flask-limiter notation, "," between several) of one
# credential, or of one client IP for anonymous calls (docs/threat-model.md "Rate limits").
# `create`: POST /v1/games and /v1/games/import together; `action`: POST .../actions;
# `general`: every limited route together (all but /health, /ready, /metrics, docs, static).
DEFAULT_RATE_LIMITS = {"create": "30/minute", "action": "20/second", "general": "50/second"}
RATE_LIMITS_OFF = "off"


@dataclass(frozen=True)
class RateLimits:
    """The budgets of the rate limiter: limit strings such as "20/second" or
    "20/second,600/minute" per budget name (DEFAULT_RATE_LIMITS' keys)."""

    create: str = DEFAULT_RATE_LIMITS["create"]
    action: str = DEFAULT_RATE_LIMITS["action"]
    general: str = DEFAULT_RATE_LIMITS["general"]

    @classmethod
    def parse(cls, text: str) -> "RateLimits | None":
        """`text` as RUMMY_RATE_LIMITS gives it: "off" -> None (no limit at all); else
        "name=limits" items separated by ";" (e.g. "create=10/minute; action=5/second,100/minute"),
        names from DEFAULT_RATE_LIMITS, each unnamed budget keeping its default; "" -> the
        defaults. Raises ValueError for an unknown name or a limit flask-limiter cannot read."""
        if text.strip().lower() == RATE_LIMITS_OFF:
            return None
        budgets = dict(DEFAULT_RATE_LIMITS)
        for item in filter(None, (part.strip() for part in text.split(";"))):
            name, _, value = (piece.strip() for piece in item.partition("="))
            if name not in budgets or not value:
                raise ValueError(f"RUMMY_RATE_LIMITS: {item!r} is not name=limits with a name "
                                 f"among {', '.join(budgets)} (or 'off')")
            try:
                parse_many(value)
            except ValueError:
                raise ValueError(f"RUMMY_RATE_LIMITS: {value!r} is not a limit such as "
                                 "'20/second' or '30/minute,500/hour'") from None
            budgets[name] = value
        return cls(**budgets)


def trusted_networks(text: str) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    """RUMMY_TRUSTED_PROXIES: a comma list of IPs or CIDRs (e.g. "10.0.0.0/8, ::1") -> the
    networks whose X-Forwarded-For is believed. Raises ValueError for anything else."""
    try:
        return tuple(ipaddress.ip_network(part.strip(), strict=False)
                     for part in text.split(",") if part.strip())
    except ValueError:
        raise ValueError(f"RUMMY_TRUSTED_PROXIES must be a comma list of IPs or CIDRs, not "
                         f"{text!r}") from None


@dataclass(frozen=True)
class Settings:
    """What the service is configured with (each field: its variable, default).

    `redis_url` (REDIS_URL): the Redis of the event store, records and index (None: the caller
    must start an embedded one, `rummy serve` does); `redis+cluster://host:port` names a Redis
    Cluster (docs/cluster.md). `queue_url` (RUMMY_QUEUE_URL): the single Redis of the RQ
    queues (RQ does not run on a Cluster); unset: `redis_url`, which must then not be a
    Cluster (`rq_url` gives the one to use).
    `admin_key` (RUMMY_ADMIN_KEY): the server admin key, None to refuse
    every admin-only request; at least 16 characters and not "change-me".
    `secret` (RUMMY_SECRET): the server secret a seeded game's decision seed is derived from
    (HMAC-SHA256, docs/architecture.md §2 "Seeds"); unset: a random secret of this process.
    `offer_deadline_s` (RUMMY_OFFER_DEADLINE_S, 15): seconds a buy offer waits for silent
    seats (R6.9). `max_wait_s` (RUMMY_MAX_WAIT_S, 30): the longest long-poll block (the
    blocking pool outlasts it). `sse_max_s` (RUMMY_SSE_MAX_S, 300): how long one event stream
    lasts. `sse_heartbeat_s` (RUMMY_SSE_HEARTBEAT_S, 15): seconds between stream heartbeats.
    `sweep_interval_s` (RUMMY_SWEEP_INTERVAL_S, 5): seconds between two sweeps.
    `sweep_stale_s` (RUMMY_SWEEP_STALE_S, 30): age after which the sweeper counts a job dead.
    `retention_days` (RUMMY_RETENTION_DAYS, 30): days a finished game stays in Redis before it
    is archived. `abandon_days` (RUMMY_ABANDON_DAYS, 7): days without an event after which a
    game not finished counts as abandoned and is archived. Both accept fractions.
    `archive_dir` (RUMMY_ARCHIVE_DIR): the directory of archived games' records; None (unset)
    turns retention off: nothing is archived or removed (docs/retention.md).
    `retention_interval_s` (RUMMY_RETENTION_INTERVAL_S, 3600): seconds between two retention
    runs of the workers. `lobby_ttl_s` (RUMMY_LOBBY_TTL_S, 3600): seconds a game with open
    seats waits to be started before the sweeper expires it (docs/lobby.md).
    `max_streams_per_credential` (RUMMY_MAX_STREAMS_PER_CREDENTIAL, 8): concurrent SSE streams
    plus long polls one bearer token may hold; `max_streams_per_ip`
    (RUMMY_MAX_STREAMS_PER_IP, 64): those of the anonymous callers of one client address
    (docs/streams.md "Caps").
    `turn_loops` (RUMMY_TURN_LOOPS, 3): turn loops (threads) per `rummy worker`: while one
    waits for its append's reply another decides (docs/workers.md "Turn loops per worker").
    `rate_limits` (RUMMY_RATE_LIMITS, DEFAULT_RATE_LIMITS): the rate limiter's budgets, None
    for "off" (RateLimits.parse gives the format). `rate_limit_delay_s`
    (RUMMY_RATE_LIMIT_DELAY_S, 1): how long a 429 for a spent budget is held before it is sent
    (at most its Retry-After), so that a client flooding in a loop waits instead of taking the
    CPU other clients need (api.ratelimits). `trusted_proxies` (RUMMY_TRUSTED_PROXIES,
    none): the peers whose X-Forwarded-For names the client (trusted_networks).
    `integration`: the integration key, JWT and webhook settings (service.integration_config).
    `cors_origins` (RUMMY_CORS_ORIGINS, none): the browser origins allowed cross-origin access,
    a comma list (api.cors).
    Every duration is a number > 0 and every cap an integer > 0; anything else raises
    ValueError.
    """

    redis_url: str | None = None
    queue_url: str | None = None
    admin_key: str | None = None
    offer_deadline_s: float = 15.0
    max_wait_s: float = 30.0
    sse_max_s: float = 300.0
    sse_heartbeat_s: float = 15.0
    sweep_interval_s: float = 5.0
    sweep_stale_s: float = 30.0
    retention_days: float = 30.0
    abandon_days: float = 7.0
    archive_dir: str | None = None
    retention_interval_s: float = 3600.0
    lobby_ttl_s: float = 3600.0
    max_streams_per_credential: int = 8
    max_streams_per_ip: int = 64
    turn_loops: int = 3
    secret: str = field(default=PROCESS_SECRET, repr=False)
    rate_limits: RateLimits | None = RateLimits()
    rate_limit_delay_s: float = 1.0
    trusted_proxies: tuple = ()
    integration: IntegrationSettings = IntegrationSettings()
    cors_origins: str = ""

    def __post_init__(self) -> None:
        key = self.admin_key
        if key is not None and (len(key) < MIN_ADMIN_KEY or key.strip().lower() in WEAK_ADMIN_KEYS):
            raise ValueError(f"RUMMY_ADMIN_KEY must be a secret of at least {MIN_ADMIN_KEY} "
                             "characters, not a placeholder such as 'change-me' "
                             "(e.g. `openssl rand -hex 32`)")
        if not self.secret:
            raise ValueError("RUMMY_SECRET must not be empty")
        if self.queue_url and is_cluster(self.queue_url):
            raise ValueError("RUMMY_QUEUE_URL must name a single Redis (RQ does not run on a "
                             f"Cluster), not {self.queue_url!r}")
        if self.redis_url and is_cluster(self.redis_url) and not self.queue_url:
            raise ValueError("REDIS_URL names a Redis Cluster: set RUMMY_QUEUE_URL to the single "
                             "Redis of the RQ queues (docs/cluster.md)")
        for name in ("offer_deadline_s", "max_wait_s", "sse_max_s", "sse_heartbeat_s",
                     "sweep_interval_s", "sweep_stale_s", "retention_days", "abandon_days",
                     "retention_interval_s", "lobby_ttl_s"):
            value = getattr(self, name)
            if not (isinstance(value, (int, float)) and value > 0):
                raise ValueError(f"RUMMY_{name.upper()} must be a number > 0, not {value!r}")
        for name in ("max_streams_per_credential", "max_streams_per_ip", "turn_loops"):
            value = getattr(self, name)
            if not (isinstance(value, int) and value > 0):
                raise ValueError(f"RUMMY_{name.upper()} must be an integer > 0, not {value!r}")

    @property
    def rq_url(self) -> str | None:
        """The Redis of the RQ queues: RUMMY_QUEUE_URL, else REDIS_URL."""
        return self.queue_url or self.redis_url

    @property
    def stream_lease_s(self) -> float:
        """How long a stream's lease (its place under the caps) lives unless renewed: twice the
        longest silence of a live stream (a long poll's wait, an SSE heartbeat)."""
        return 2 * max(self.max_wait_s, self.sse_heartbeat_s)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> "Settings":
        """Read every variable of the class docstring from `environ` (default os.environ; an
        empty value counts as unset). Raises ValueError for a bad value (a duration that is not
        a positive number, a weak admin key). RUMMY_SECRET unset: the process secret
        (`service.bootstrap.wire` logs a warning then)."""
        env = os.environ if environ is None else environ
        secret = env.get("RUMMY_SECRET") or None
        numbers = {name: _number(env, f"RUMMY_{name.upper()}", default)
                   for name, default in (("offer_deadline_s", 15.0), ("max_wait_s", 30.0),
                                         ("sse_max_s", 300.0), ("sse_heartbeat_s", 15.0),
                                         ("sweep_interval_s", 5.0), ("sweep_stale_s", 30.0),
                                         ("retention_days", 30.0), ("abandon_days", 7.0),
                                         ("retention_interval_s", 3600.0),
                                         ("lobby_ttl_s", 3600.0),
                                         ("rate_limit_delay_s", 1.0))}
        caps = {name: _integer(env, f"RUMMY_{name.upper()}", default)
                for name, default in (("max_streams_per_credential", 8),
                                      ("max_streams_per_ip", 64), ("turn_loops", 3))}
        return cls(redis_url=env.get("REDIS_URL") or None,
                   queue_url=env.get("RUMMY_QUEUE_URL") or None,
                   admin_key=env.get("RUMMY_ADMIN_KEY") or None,
                   archive_dir=env.get("RUMMY_ARCHIVE_DIR") or None,
                   secret=secret or PROCESS_SECRET,
                   rate_limits=RateLimits.parse(env.get("RUMMY_RATE_LIMITS") or ""),
                   trusted_proxies=trusted_networks(env.get("RUMMY_TRUSTED_PROXIES") or ""),
                   integration=IntegrationSettings.from_env(env),
                   cors_origins=env.get("RUMMY_CORS_ORIGINS") or "",
                   **numbers, **caps)


def _number(env: Mapping[str, str], name: str, default: float) -> float:
    raw = env.get(name) or None
    if raw is None:
        return default
    try:
        return float(raw)
    except ValueError:
        raise ValueError(f"{name} must be a number > 0, not {raw!r}") from None


def _integer(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env.get(name) or None
    if raw is None:
        return default
    try:
        return int(raw)
    except ValueError:
        raise ValueError(f"{name} must be an integer > 0, not {raw!r}") from None
