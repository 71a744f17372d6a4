"""What an operator alerts on (issue 7 item 9, docs/retention.md "Metrics"): Redis memory,
games per status, the backlog of each RQ queue and of the bots' ready queue, the number of
workers. Read in one pipeline
of O(1) commands per queue, so a Prometheus scrape costs Redis next to nothing."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone

import redis
from rq.utils import utcparse
from rq.worker_registration import REDIS_WORKER_KEYS

from service.index import STATUSES, GameIndex
from service.ready_games import GAMES, LEASED, URGENT_MS

RQ_QUEUES = "rq:queues"  # RQ's set of every queue's key
RQ_QUEUE_PREFIX = "rq:queue:"
RQ_JOB_PREFIX = "rq:job:"


@dataclass(frozen=True)
class QueueStats:
    """One RQ queue: `length` jobs waiting; `oldest_age_s` seconds since the one at its head
    was enqueued (0 when none waits)."""

    length: int
    oldest_age_s: float


@dataclass(frozen=True)
class ReadyStats:
    """The bots' ready queue (service.ready_games): `queued` games waiting for a worker's
    slice, `leased` games a worker plays now, `oldest_age_s` seconds the game at the head has
    waited (0 when none waits)."""

    queued: int = 0
    leased: int = 0
    oldest_age_s: float = 0.0


@dataclass(frozen=True)
class RedisStats:
    """`used_memory`: bytes (INFO memory); `games`: count per status of the index
    (service.index.STATUSES); `queues`: per RQ queue name; `workers`: RQ workers registered;
    `ready`: the bots' ready queue."""

    used_memory: int
    games: dict[str, int]
    queues: dict[str, QueueStats] = field(default_factory=dict)
    workers: int = 0
    ready: ReadyStats = field(default_factory=ReadyStats)


def redis_stats(client: redis.Redis, now: datetime | None = None,
                queue_client: redis.Redis | None = None) -> RedisStats:
    """Read the RedisStats at `now` (default: now, UTC): memory (summed over a Cluster's
    primaries) and games from `client`, the store's; queues and workers from `queue_client`,
    the RQ Redis (default `client`). Raises redis.RedisError when Redis cannot answer."""
    now = now or datetime.now(timezone.utc)
    queues_on = client if queue_client is None else queue_client
    queue_keys = sorted(key.decode() for key in queues_on.smembers(RQ_QUEUES))
    pipe = queues_on.pipeline(transaction=False)
    pipe.scard(REDIS_WORKER_KEYS)
    pipe.zcard(GAMES)
    pipe.zcard(LEASED)
    pipe.zrange(GAMES, 0, 0, withscores=True)
    for key in queue_keys:
        pipe.llen(key)
        pipe.lindex(key, 0)
    workers, queued, leased, ready_head, *heads = pipe.execute()
    oldest = _enqueued_at(queues_on, [head for head in heads[1::2] if head])
    queues = {}
    for key, length, head in zip(queue_keys, heads[::2], heads[1::2]):
        at = oldest.get(head) if head else None
        age = max(0.0, (now - at).total_seconds()) if at else 0.0
        queues[key.removeprefix(RQ_QUEUE_PREFIX)] = QueueStats(int(length), age)
    index = GameIndex(client)
    ready = ReadyStats(int(queued), int(leased), _ready_age_s(ready_head, now))
    return RedisStats(_used_memory(client), {status: index.count(status) for status in STATUSES},
                      queues, int(workers), ready)


def _ready_age_s(head: list[tuple[bytes, float]], now: datetime) -> float:
    """Seconds the head of the ready queue has waited: its score is when it became ready, less
    URGENT_MS for an urgent game (service.ready_games), which no real wait comes near."""
    if not head:
        return 0.0
    waited_ms = now.timestamp() * 1000 - head[0][1]
    if waited_ms >= URGENT_MS / 2:
        waited_ms -= URGENT_MS
    return max(0.0, waited_ms / 1000)


def _used_memory(client) -> int:
    """INFO memory's used_memory; a Cluster client answers per node: their sum."""
    info = client.info("memory")
    if "used_memory" in info:
        return int(info["used_memory"])
    return sum(int(node["used_memory"]) for node in info.values())


def _enqueued_at(client: redis.Redis, job_ids: list[bytes]) -> dict[bytes, datetime]:
    """When each job was enqueued (UTC), from its RQ hash; jobs without one are left out."""
    if not job_ids:
        return {}
    pipe = client.pipeline(transaction=False)
    for job_id in job_ids:
        pipe.hget(RQ_JOB_PREFIX + job_id.decode(), "enqueued_at")
    found = {}
    for job_id, raw in zip(job_ids, pipe.execute()):
        if raw:
            found[job_id] = utcparse(raw.decode())
    return found
