"""Retention (issue 7 item 9, docs/retention.md): what leaves Redis, when, and where it goes.

A finished game stays in Redis `retention` after its last event (RUMMY_RETENTION_DAYS, 30); a
game not finished with no event for `abandon` (RUMMY_ABANDON_DAYS, 7) is abandoned. Either is
then archived: its export record (the one `GET /v1/games/{id}/export` returns) is put in the
Archive (service.archive), and only then every key of the game leaves Redis in one script that
first checks the stream is still at the archived version (a game that moved on meanwhile stays;
the next run archives it again); then its members of its index shard (service.index).

An abandoned game is first aborted (`GameAborted`, appended as the server admin: status
`aborted`, nothing more may be appended), then archived like a finished one; its archive record
also carries `"abandoned": {"status" (before the abort), "last_event_ms", "archived_ms"}`. An
aborted game (by its admin or by this) is kept hot as long as a finished one. Only a finished
game's record can be imported again (import needs a game that ended by the rules).

A game's age is the `updated_ms` of its index summary (the time of its last append,
service.index). A summary written before that field existed gets it on the first run that
meets it ("now"), so such a game counts as active from then on, never as abandoned at once.

Idempotent: a run after a crash finds the games it did not finish still in the index and
archives them again (the put replaces the earlier file with the same record); a game already
removed is no longer in the index, so nothing is archived twice or lost.
"""
from __future__ import annotations

import logging
import re
import time
from dataclasses import dataclass, field
from typing import Callable, Iterator

import redis
from rq import Queue
from rq.registry import FailedJobRegistry

from domain import awaiting
from service.archive import Archive
from service.config import Settings
from service.errors import GameNotFound
from service.index import STATUSES, status_key
from service.keys import (INDEX_SHARDS, PREFIX, events_key, meta_key, snapshot_key,
                          snapshots_key, summary_key)
from service.principal import Principal
from service.redis_store import IDEMPOTENCY_TTL_S, backend_errors
from service.snapshots import CODE_TAG, SNAPSHOT_TTL_S
from service.stats import RQ_QUEUE_PREFIX, RQ_QUEUES
from service.store import ConcurrencyError, StoreUnavailable

log = logging.getLogger(__name__)

DAY_MS = 24 * 3600 * 1000
ENDED = ("finished", "aborted", "expired")  # statuses that take no more events
ABANDON_KEY = "retention-abandoned"  # the idempotency key of the abort of an abandoned game
# Keys with a TTL that a game may leave behind (idempotency keys; snapshots of another code
# version, whose key names this process cannot list): within this long after a game's last
# event its keys are also looked for with a SCAN of its hash tag; later they have expired.
LEFTOVER_WINDOW_MS = (max(IDEMPOTENCY_TTL_S, SNAPSHOT_TTL_S) + 3600) * 1000
SCAN_COUNT = 1000
GAME_ID_IN_JOB = re.compile(r"(?<![0-9a-f])[0-9a-f]{16}(?![0-9a-f])")  # service.games ids
PAGE = 500

# KEYS[1] the stream; KEYS[2..] the game's other keys (deleted): all of one game's slot.
# ARGV: archived version. Returns -1 (the stream is not at that version: nothing removed) or
# the number of keys deleted. The game's index shard is cleaned after (GameIndex.drop): a
# crash between the two leaves shard members without a summary, which `_due_in` drops.
REMOVE_LUA = """
local current = 0
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
if #last > 0 then current = tonumber(string.match(last[1][1], '^0%-(%d+)$')) end
if current ~= tonumber(ARGV[1]) then return -1 end
return redis.call('DEL', unpack(KEYS))
"""


@dataclass(frozen=True)
class RetentionPolicy:
    """How long games stay in Redis, in ms: `finished_ms` after a finished game's last event,
    `abandoned_ms` after the last event of a game not finished."""

    finished_ms: int
    abandoned_ms: int

    @classmethod
    def from_settings(cls, settings: Settings) -> "RetentionPolicy":
        """RUMMY_RETENTION_DAYS and RUMMY_ABANDON_DAYS (fractions of days allowed)."""
        return cls(int(settings.retention_days * DAY_MS), int(settings.abandon_days * DAY_MS))

    def cutoff_ms(self, status: str, now_ms: int) -> int:
        """The last-event time (ms) at or before which a game in `status` is due."""
        return now_ms - (self.finished_ms if status in ENDED else self.abandoned_ms)


@dataclass(frozen=True)
class Due:
    """A game the policy says should leave Redis: `status` per its summary, the time of its
    last event `updated_ms`."""

    game_id: str
    status: str
    updated_ms: int


@dataclass
class RetentionReport:
    """What one run did: ids archived as finished, archived as abandoned, left in place
    (moved on, or not what the index said), and found already gone (index members removed)."""

    finished: list[str] = field(default_factory=list)
    abandoned: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    gone: list[str] = field(default_factory=list)

    @property
    def archived(self) -> int:
        """How many games left Redis for the archive."""
        return len(self.finished) + len(self.abandoned)


class Retention:
    """Archives and removes the games `policy` says are due.

    `service`: the GameService (export, load, its caches) with its `archive`, where records
    go (RUMMY_ARCHIVE_DIR), and from which the API answers 410 for them; `client`: its Redis.
    `queue_client`: the Redis of the RQ queues (RUMMY_QUEUE_URL; default `client`). Raises
    ValueError for a service without an archive. A game's keys are removed only after its
    record is stored.
    """

    def __init__(self, service, client: redis.Redis, policy: RetentionPolicy,
                 queue_client: redis.Redis | None = None) -> None:
        if service.archive is None:
            raise ValueError("retention needs an archive: set RUMMY_ARCHIVE_DIR")
        self.service, self.client, self.policy = service, client, policy
        self.queue_client = client if queue_client is None else queue_client
        self.archive: Archive = service.archive
        self._remove = client.register_script(REMOVE_LUA)

    def due(self, now_ms: int | None = None, limit: int | None = None,
            stamp: bool = True) -> Iterator[Due]:
        """The games due at `now_ms` (default: now), at most `limit`: finished ones whose last
        event is `policy.finished_ms` old, others `policy.abandoned_ms` old. Walks each status
        set of the index up to that age by creation time (a game cannot have had its last
        event before it was created), reading the summaries a page at a time. A summary
        without `updated_ms` is not due; with `stamp` it gets now as its `updated_ms`."""
        now_ms = _now_ms() if now_ms is None else now_ms
        found = 0
        for status in STATUSES:
            cutoff = self.policy.cutoff_ms(status, now_ms)
            for due in self._due_in(status, cutoff, stamp):
                yield due
                found += 1
                if limit is not None and found >= limit:
                    return

    def _due_in(self, status: str, cutoff: int, stamp: bool) -> Iterator[Due]:
        for shard in range(INDEX_SHARDS):
            yield from self._due_in_shard(status, shard, cutoff, stamp)

    def _due_in_shard(self, status: str, shard: int, cutoff: int, stamp: bool) -> Iterator[Due]:
        start = 0
        index = self.service.index
        while True:
            with backend_errors():
                ids = [m.decode() for m in self.client.zrangebyscore(
                    status_key(status, shard), "-inf", cutoff, start=start, num=PAGE)]
                if not ids:
                    return
                pipe = self.client.pipeline(transaction=False)
                for game_id in ids:
                    pipe.hmget(summary_key(game_id), "status", "updated_ms")
                summaries = pipe.execute()
            start += len(ids)
            unstamped = []
            for game_id, (held, updated) in zip(ids, summaries):
                if held is None or held.decode() != status:
                    # No summary: its keys left (a removal cut short), so does it. Another
                    # status: the shard is behind its summary, whose status's walk sees it.
                    if held is None:
                        index.drop(game_id)
                    else:
                        index.repair(game_id)
                    start -= 1  # out of this set now
                    continue
                if updated is None:
                    unstamped.append(game_id)
                elif int(updated) <= cutoff:
                    yield Due(game_id, status, int(updated))
            if stamp:
                self._stamp(unstamped)

    def _stamp(self, game_ids: list[str]) -> None:
        """Start the clock of summaries written before `updated_ms` existed: now."""
        if not game_ids:
            return
        now = _now_ms()
        with backend_errors():
            pipe = self.client.pipeline(transaction=False)
            for game_id in game_ids:
                pipe.hsetnx(summary_key(game_id), "updated_ms", now)
            pipe.execute()

    def archive_game(self, due: Due, now_ms: int | None = None) -> str:
        """Archive `due` and remove it from Redis. Returns "finished" or "abandoned" (archived
        as such), "kept" (it moved on or is not what the index said: left in Redis), or "gone"
        (no events: its index members and leftover keys are removed)."""
        now_ms = _now_ms() if now_ms is None else now_ms
        game_id = due.game_id
        try:
            version, state = self.service.load(game_id)
        except GameNotFound:
            self._remove_keys(game_id, 0, due.updated_ms)
            return "gone"
        status = awaiting(state).status
        if (status in ENDED) != (due.status in ENDED):
            return "kept"  # the index is behind the stream: the next append or sweep fixes it
        server = Principal(admin=True, server=True)
        if status not in ENDED:  # abandoned: stop it for good before it leaves Redis
            try:
                version, _ = self.service.abort(game_id, server, ABANDON_KEY, version)
            except ConcurrencyError:
                return "kept"  # it moved on after all
        record = self.service.export(game_id, server)
        if record["version"] != version:
            return "kept"
        if status not in ENDED:
            record["abandoned"] = {"status": status, "last_event_ms": due.updated_ms,
                                   "archived_ms": now_ms}
        self.archive.put(game_id, record)
        if not self._remove_keys(game_id, version, due.updated_ms):
            log.info("retention: game %s moved on while archived; kept in Redis", game_id)
            return "kept"
        self.service.forget(game_id)
        return "finished" if status in ENDED else "abandoned"

    def _remove_keys(self, game_id: str, version: int, updated_ms: int) -> bool:
        """Delete every key of the game and its index members if its stream is at `version`
        (0: no stream). Returns False when it is not (nothing removed)."""
        owned = [meta_key(game_id), summary_key(game_id)]
        tag = CODE_TAG  # the snapshots of other code versions: the SCAN below, or their TTL
        with backend_errors():
            versions = self.client.zrange(snapshots_key(game_id, tag), 0, -1)
            owned += [snapshots_key(game_id, tag)]
            owned += [snapshot_key(game_id, int(v), tag) for v in versions]
            if _now_ms() - updated_ms < LEFTOVER_WINDOW_MS:
                pattern = f"{PREFIX}:{{{game_id}}}:*"
                owned += [k.decode() for k in self.client.scan_iter(pattern, count=SCAN_COUNT)]
            owned = list(dict.fromkeys(k for k in owned if k != events_key(game_id)))
            removed = self._remove(keys=[events_key(game_id), *owned], args=[version])
        if removed < 0:
            return False
        self.service.index.drop(game_id)
        return True

    def run(self, now_ms: int | None = None, limit: int | None = None, batch: int = 100,
            dry_run: bool = False,
            progress: Callable[[str, str], None] = lambda game_id, outcome: None,
            pending: list[Due] | None = None) -> RetentionReport:
        """Archive every game due at `now_ms` (default now), at most `limit`, `batch` at a
        time with one log line per batch; `pending`: those games when the caller already
        listed them (`due`). `dry_run` lists what is due (reported as its status: finished or
        abandoned) and writes nothing. `progress(game_id, outcome)` is called after each
        game. A game that fails is logged and skipped, never stops the run (but Redis
        unreachable does: StoreUnavailable)."""
        now_ms = _now_ms() if now_ms is None else now_ms
        report = RetentionReport()
        pending = list(self.due(now_ms, limit, stamp=not dry_run)) if pending is None else pending
        for first in range(0, len(pending), batch):
            removed = set()
            for due in pending[first:first + batch]:
                outcome = ("finished" if due.status == "finished" else "abandoned") if dry_run \
                    else self._archive_logged(due, now_ms)
                getattr(report, outcome).append(due.game_id)
                if outcome != "kept" and not dry_run:
                    removed.add(due.game_id)
                progress(due.game_id, outcome)
            self.drop_failed_jobs(removed)
            log.info("retention%s: %d of %d games done: %d finished, %d abandoned archived, "
                     "%d kept, %d gone", " (dry run)" if dry_run else "",
                     min(first + batch, len(pending)), len(pending), len(report.finished),
                     len(report.abandoned), len(report.kept), len(report.gone))
        return report

    def drop_failed_jobs(self, game_ids: set[str]) -> int:
        """Delete the RQ jobs of `game_ids` kept in any queue's failed job registry (RQ keeps
        a failed job for its failure TTL, a year by default: a key per failed job that would
        outlive its game). A job belongs to a game when its id names the game's id (job ids
        derive from (game, version): service.followups). Returns how many were deleted."""
        if not game_ids:
            return 0
        deleted = 0
        with backend_errors():
            for key in self.queue_client.smembers(RQ_QUEUES):
                queue = Queue(key.decode().removeprefix(RQ_QUEUE_PREFIX),
                              connection=self.queue_client)
                registry = FailedJobRegistry(queue=queue)
                for job_id in registry.get_job_ids(cleanup=False):
                    if game_ids.intersection(GAME_ID_IN_JOB.findall(job_id)):
                        registry.remove(job_id, delete_job=True)
                        deleted += 1
        return deleted

    def _archive_logged(self, due: Due, now_ms: int) -> str:
        try:
            return self.archive_game(due, now_ms)
        except StoreUnavailable:
            raise
        except Exception:  # one broken game (archive write, bad record) must not stop the run
            log.exception("retention: archiving game %s failed; kept in Redis", due.game_id)
            return "kept"


def _now_ms() -> int:
    return int(time.time() * 1000)
