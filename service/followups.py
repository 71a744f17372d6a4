"""Follow-up jobs after every append (DESIGN §5): what a game waits on, and the RQ jobs for it.

`needs(state, bot_seats)` reads `domain.awaiting(state)`; `Followups` is the
`enqueue_followups(game_id, version, state)` hook that GameService calls after each append.
Job ids derive from (game, version) (RQ allows only letters, digits, `_` and `-` in them) and
are enqueued with RQ's `unique=True`, so a second
enqueue of the same follow-up (the API and a job racing, the sweeper) is a no-op:

- `bot-<game>-<version>`      -> `workers.jobs.play_bots`   (a bot seat must act)
- `score-<game>-<version>`    -> `workers.jobs.score_round` (a round awaits scoring)
- `deadline-<game>-<version>` -> `workers.jobs.close_offer` (an offer waits on a human, R6.9),
  scheduled `offer_deadline_s` later; it needs a worker running its scheduler.

Each kind of job has its queue (QUEUE_NAMES, in the order a worker listens to them): deadlines
first, then bots and scoring, then the next time slices of bot jobs that used up theirs
(`slice_ended`), then maintenance (the sweep, archiving, webhooks). So no deadline backlog or
maintenance job ever sits between a game and its next bot move, and a bot move answering a
human goes before the long run of a game of bots (docs/workers.md "Queues"). This module is the one place that knows job ids and queues.
Game jobs keep no result (RESULT_TTL_S = 0: nothing reads it, and a kept result cost Redis
~90 KB per game); a failed job stays FAILURE_TTL_S for diagnosis.

Jobs are named by dotted path so this module imports no job code.
"""
from __future__ import annotations

import logging
import math
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from datetime import datetime, timedelta, timezone
from typing import Callable, Collection, Iterator

import redis
from rq import Queue, Retry
from rq.exceptions import DuplicateJobError

from domain import awaiting

log = logging.getLogger(__name__)

DEADLINE_QUEUE = "rummy-deadlines"
BOTS_QUEUE = "rummy-bots"
SLICES_QUEUE = "rummy-bot-slices"
MAINTENANCE_QUEUE = "rummy-maintenance"
# The order a worker takes jobs in: a due deadline first (R6.9 is a promise to the humans
# waiting), then the games' moves (a bot's first slice after any other append, before the
# next slices of bot jobs that ran out of time, round robin among themselves), and
# maintenance only when no game waits.
QUEUE_NAMES = (DEADLINE_QUEUE, BOTS_QUEUE, SLICES_QUEUE, MAINTENANCE_QUEUE)
# Transient Redis errors inside a job are retried with backoff; needs the worker's scheduler.
RETRY = Retry(max=3, interval=[1, 3, 9])
JOB_TIMEOUT_S = 60
RESULT_TTL_S = 0
FAILURE_TTL_S = 7 * 24 * 3600

BotSeats = Callable[[str], Collection[int]]
# (game id, what becomes of its bot job) while a play_bots job runs: "none" or "slices".
_bot_job: ContextVar[tuple[str, str] | None] = ContextVar("rummy_bot_job", default=None)


def bot_job_id(game_id: str, version: int) -> str:
    """Id of the play_bots job for `game_id` at `version`."""
    return f"bot-{game_id}-{version}"


def score_job_id(game_id: str, version: int) -> str:
    """Id of the score_round job for `game_id` at `version`."""
    return f"score-{game_id}-{version}"


def deadline_job_id(game_id: str, version: int) -> str:
    """Id of the close_offer job for `game_id` at `version`."""
    return f"deadline-{game_id}-{version}"


@dataclass(frozen=True)
class Needs:
    """What a game at one version waits on from the workers (all False: a human, or nothing)."""

    bots: bool = False
    scoring: bool = False
    deadline: bool = False


def needs(state, bot_seats: Collection[int]) -> Needs:
    """What `state` waits on: a bot among the seats that must act, the round's scoring, or an
    open buy offer that some human seat still owes an answer (DESIGN §5, R6.9)."""
    wait = awaiting(state)
    if wait.status == "scoring":
        return Needs(scoring=True)
    if wait.status != "playing":
        return Needs()
    humans_owe = wait.phase == "buying" and any(seat not in bot_seats for seat in wait.seats)
    return Needs(bots=any(seat in bot_seats for seat in wait.seats), deadline=humans_owe)


def make_queue(connection: redis.Redis, name: str = BOTS_QUEUE) -> Queue:
    """The RQ queue `name` (one of QUEUE_NAMES; default the bots') on `connection`."""
    return Queue(name, connection=connection)


@dataclass(frozen=True)
class Queues:
    """The game job queues on one connection: `deadlines` (close_offer), `bots` (play_bots,
    score_round), `slices` (play_bots continuing a game whose last job used up its time
    slice) and `maintenance` (sweep and the other housekeeping jobs)."""

    deadlines: Queue
    bots: Queue
    slices: Queue
    maintenance: Queue

    def in_priority_order(self) -> list[Queue]:
        """The queues in the order a worker takes jobs from them (QUEUE_NAMES)."""
        return [self.deadlines, self.bots, self.slices, self.maintenance]


def make_queues(connection: redis.Redis) -> Queues:
    """The game job queues (QUEUE_NAMES) on `connection`."""
    return Queues(*(make_queue(connection, name) for name in QUEUE_NAMES))


def enqueue_unique(queue: Queue, func: str, job_id: str, *args) -> bool:
    """Enqueue `func(*args)` on `queue` as `job_id` unless a job with that id exists; True if
    enqueued. (RQ's unique enqueue checks and pushes in one Lua script: one round trip.)"""
    try:
        queue.enqueue(func, *args, job_id=job_id, unique=True, retry=RETRY,
                      job_timeout=JOB_TIMEOUT_S, result_ttl=RESULT_TTL_S,
                      failure_ttl=FAILURE_TTL_S)
    except DuplicateJobError:
        return False
    return True


def schedule_unique(queue: Queue, func: str, job_id: str, delay_s: float, *args) -> bool:
    """Schedule `func(*args)` as `job_id` in `delay_s` seconds unless that id exists; True if
    scheduled. (`Queue.enqueue_in` ignores `unique`, so the job is scheduled directly.)"""
    job = queue.create_job(func, args=args, job_id=job_id, retry=RETRY, timeout=JOB_TIMEOUT_S,
                           result_ttl=RESULT_TTL_S, failure_ttl=FAILURE_TTL_S)
    # RQ's scheduled registry keeps whole seconds, truncated (calendar.timegm): round up so a
    # deadline never fires early (R6.9: a silent seat has the whole deadline to answer).
    due = math.ceil((datetime.now(timezone.utc) + timedelta(seconds=delay_s)).timestamp())
    at = datetime.fromtimestamp(due, timezone.utc)
    try:
        queue.schedule_job(job, at, unique=True)
    except DuplicateJobError:
        return False
    return True


def enqueue_needs(queues: Queues, game_id: str, version: int, need: Needs,
                  deadline_s: float, next_slice: bool = False) -> None:
    """Enqueue the jobs `need` calls for at `version` (duplicates are refused silently); a bot
    job on the slices queue when `next_slice` (it continues a job that used up its slice)."""
    if need.bots:
        enqueue_unique(queues.slices if next_slice else queues.bots, "workers.jobs.play_bots",
                       bot_job_id(game_id, version), game_id, version)
    if need.scoring:
        enqueue_unique(queues.bots, "workers.jobs.score_round", score_job_id(game_id, version),
                       game_id, version)
    if need.deadline:
        schedule_unique(queues.deadlines, "workers.jobs.close_offer",
                        deadline_job_id(game_id, version), deadline_s, game_id, version)


@contextmanager
def bots_continuing(game_id: str) -> Iterator[None]:
    """Within this block the hook enqueues no bot job for `game_id`: the running play_bots job
    keeps playing its bots itself, and a job per intermediate version would only queue up as
    stale no-ops in front of the next human's reply. The caller enqueues the follow-ups of the
    version it stops at (if it dies first, the sweeper does), within `slice_ended`."""
    token = _bot_job.set((game_id, "none"))
    try:
        yield
    finally:
        _bot_job.reset(token)


@contextmanager
def slice_ended(game_id: str) -> Iterator[None]:
    """Within this block a bot job the hook enqueues for `game_id` goes to the tail of the
    slices queue: the play_bots job stopping here used up its time slice, and its game's next
    slice waits behind the games already waiting (round robin), while bot moves answering
    other appends (a human's action, a scoring) go first from the bots queue."""
    token = _bot_job.set((game_id, "slices"))
    try:
        yield
    finally:
        _bot_job.reset(token)


def install(wiring) -> "Followups":
    """Install the RQ hook on `wiring.service` (a `service.bootstrap.Wiring`): its queue uses
    the wiring's Redis client and its deadline `wiring.settings.offer_deadline_s`."""
    hook = Followups(make_queues(wiring.client), wiring.service.bot_seats,
                     wiring.settings.offer_deadline_s)
    wiring.service.enqueue_followups = hook
    return hook


class Followups:
    """The RQ `enqueue_followups(game_id, version, state)` hook for GameService.

    `bot_seats(game_id)` names the game's bot seats; `deadline_s` is how long a buy offer
    waits for silent humans (RUMMY_OFFER_DEADLINE_S, R6.9). An enqueue that fails is logged, not
    raised: the append it follows stands, and the sweeper enqueues what is missing (DESIGN §5).
    """

    def __init__(self, queues: Queues, bot_seats: BotSeats, deadline_s: float) -> None:
        self.queues = queues
        self.bot_seats = bot_seats
        self.deadline_s = deadline_s

    def __call__(self, game_id: str, version: int, state) -> None:
        try:
            need = needs(state, self.bot_seats(game_id))
            game, bot_job = _bot_job.get() or (None, None)
            if game == game_id and bot_job == "none":
                need = replace(need, bots=False)
            enqueue_needs(self.queues, game_id, version, need, self.deadline_s,
                          next_slice=game == game_id and bot_job == "slices")
        except Exception:  # the append stands whatever fails here; the sweeper catches up
            log.exception("follow-up enqueue failed for %s at %s; the sweeper will retry",
                          game_id, version)
