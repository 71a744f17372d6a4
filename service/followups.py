"""Follow-up jobs after every append (DESIGN §5): what a game waits on, and the RQ jobs for it.

`needs(state, bot_seats)` reads `domain.awaiting(state)`; `Followups` is the
`enqueue_followups(game_id, version, state)` hook that GameService calls after each append.
Job ids derive from (game, version) (RQ allows only letters, digits, `_` and `-` in them) and
are enqueued with RQ's `unique=True`, so a second
enqueue of the same follow-up (the API and a job racing, the sweeper) is a no-op:

- `bot-<game>-<version>`      -> `workers.jobs.play_bots`   (a bot seat must act)
- `score-<game>-<version>`    -> `workers.jobs.score_round` (a round awaits scoring)
- `deadline-<game>-<version>` -> `workers.deadlines.run_deadline` on DEADLINE_QUEUE, enqueued
  by the workers' deadline poller (workers.deadlines) when the game's entry in the deadline
  sorted set (service.clock) falls due: a human's turn or buy offer (docs/clock.md).

Each kind of job has its queue (QUEUE_NAMES, in the order a worker listens to them): deadlines
first, then bots and scoring, then the next time slices of bot jobs that used up theirs
(`slice_ended`), then maintenance (the sweep, archiving; webhooks have their own queue and
worker: service.webhooks). So no deadline backlog or
maintenance job ever sits between a game and its next bot move, and a bot move answering a
human goes before the long run of a game of bots (docs/workers.md "Queues"). This module is the one place that knows job ids and queues.
Game jobs keep no result (RESULT_TTL_S = 0: nothing reads it, and a kept result cost Redis
~90 KB per game); a failed job stays FAILURE_TTL_S for diagnosis.

Jobs are named by dotted path so this module imports no job code.
"""
from __future__ import annotations

import logging
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
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

BotSeats = Callable[[str, object], Collection[int]]
# (game id, what becomes of its bot job) while a play_bots job runs: "none" or "slices".
_bot_job: ContextVar[tuple[str, str] | None] = ContextVar("rummy_bot_job", default=None)


def bot_job_id(game_id: str, version: int) -> str:
    """Id of the play_bots job for `game_id` at `version`."""
    return f"bot-{game_id}-{version}"


def score_job_id(game_id: str, version: int) -> str:
    """Id of the score_round job for `game_id` at `version`."""
    return f"score-{game_id}-{version}"


def deadline_job_id(game_id: str, version: int) -> str:
    """Id of the run_deadline job for `game_id` at `version`."""
    return f"deadline-{game_id}-{version}"


@dataclass(frozen=True)
class Needs:
    """What a game at one version waits on from the workers (all False: nothing). `deadline`:
    a human seat is awaited with a deadline (its turn with a turn clock, or a buy offer), which
    the workers act on when it passes (docs/clock.md)."""

    bots: bool = False
    scoring: bool = False
    deadline: bool = False


def needs(state, bot_seats: Collection[int]) -> Needs:
    """What `state` waits on: a bot among the seats that must act (`bot_seats`: with the seats
    handed to a bot, service.records.GameRecord.bot_seats(state)), the round's scoring, or a
    human seat's deadline: a buy offer or a Shanghai claim it owes an answer (R6.9, R11.18) or
    its turn under a turn clock (DESIGN §5)."""
    wait = awaiting(state)
    if wait.status == "scoring":
        return Needs(scoring=True)
    if wait.status != "playing":
        return Needs()
    humans = [seat for seat in wait.seats if seat not in bot_seats]
    clocked = wait.phase in ("buying", "claim") or (state.clock is not None
                                                    and state.clock.turn_s is not None)
    return Needs(bots=any(seat in bot_seats for seat in wait.seats),
                 deadline=bool(humans) and clocked)


def make_queue(connection: redis.Redis, name: str = BOTS_QUEUE) -> Queue:
    """The RQ queue `name` (one of QUEUE_NAMES; default the bots') on `connection`."""
    return Queue(name, connection=connection)


@dataclass(frozen=True)
class Queues:
    """The game job queues on one connection: `deadlines` (run_deadline), `bots` (play_bots,
    score_round), `slices` (play_bots continuing a game whose last job used up its time
    slice) and `maintenance` (sweep and the other housekeeping jobs)."""

    deadlines: Queue
    bots: Queue
    slices: Queue
    maintenance: Queue

    def in_priority_order(self) -> list[Queue]:
        """The queues in the order a worker takes jobs from them (QUEUE_NAMES)."""
        return [self.deadlines, self.bots, self.slices, self.maintenance]

    def urgent_waiting(self) -> bool:
        """Whether a due deadline or a bot move answering another append (a human's action, a
        scoring) waits on its queue: one round trip. A running bot job then ends its time
        slice early, so that a human waits for at most one bot turn of another game."""
        pipeline = self.bots.connection.pipeline(transaction=False)
        pipeline.llen(self.deadlines.key)
        pipeline.llen(self.bots.key)
        return any(pipeline.execute())


def make_queues(connection: redis.Redis) -> Queues:
    """The game job queues (QUEUE_NAMES) on `connection`."""
    return Queues(*(make_queue(connection, name) for name in QUEUE_NAMES))


def make_deadline_queue(connection: redis.Redis) -> Queue:
    """The RQ queue of the deadline jobs on `connection` (a worker listens to it first)."""
    return make_queue(connection, DEADLINE_QUEUE)


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


def enqueue_needs(queues: Queues, game_id: str, version: int, need: Needs,
                  next_slice: bool = False) -> None:
    """Enqueue the jobs `need` calls for at `version` (duplicates are refused silently); a bot
    job on the slices queue when `next_slice` (it continues a job that used up its slice). A
    deadline is the poller's (workers.deadlines), not a job enqueued here."""
    if need.bots:
        enqueue_unique(queues.slices if next_slice else queues.bots, "workers.jobs.play_bots",
                       bot_job_id(game_id, version), game_id, version)
    if need.scoring:
        enqueue_unique(queues.bots, "workers.jobs.score_round", score_job_id(game_id, version),
                       game_id, version)


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
    """Install the RQ hook on `wiring.service` (a `service.bootstrap.Wiring`): its queues use
    the wiring's queue client (RUMMY_QUEUE_URL, else REDIS_URL)."""
    hook = Followups(make_queues(wiring.queue_client), wiring.service.bot_seats)
    wiring.service.enqueue_followups = hook
    return hook


class Followups:
    """The RQ `enqueue_followups(game_id, version, state)` hook for GameService.

    `bot_seats(game_id, state)` names the seats a bot plays in `state`. An enqueue that fails
    is logged, not raised: the append it follows stands, and the sweeper enqueues what is
    missing (DESIGN §5).
    """

    def __init__(self, queues: Queues, bot_seats: BotSeats) -> None:
        self.queues = queues
        self.bot_seats = bot_seats

    def __call__(self, game_id: str, version: int, state) -> None:
        try:
            need = needs(state, self.bot_seats(game_id, state))
            game, bot_job = _bot_job.get() or (None, None)
            if game == game_id and bot_job == "none":
                need = replace(need, bots=False)
            enqueue_needs(self.queues, game_id, version, need,
                          next_slice=game == game_id and bot_job == "slices")
        except Exception:  # the append stands whatever fails here; the sweeper catches up
            log.exception("follow-up enqueue failed for %s at %s; the sweeper will retry",
                          game_id, version)
