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

QUEUE_NAME = "rummy"
# Deadlines first: a worker takes a due timeout before any bot or scoring job.
DEADLINE_QUEUE_NAME = "rummy-deadlines"
# Transient Redis errors inside a job are retried with backoff; needs the worker's scheduler.
RETRY = Retry(max=3, interval=[1, 3, 9])
JOB_TIMEOUT_S = 60
RESULT_TTL_S = 300

BotSeats = Callable[[str, object], Collection[int]]
_continuing: ContextVar[str | None] = ContextVar("rummy_bots_continuing", default=None)


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
    human seat's deadline: a buy offer it owes an answer (R6.9) or its turn under a turn clock
    (DESIGN §5)."""
    wait = awaiting(state)
    if wait.status == "scoring":
        return Needs(scoring=True)
    if wait.status != "playing":
        return Needs()
    humans = [seat for seat in wait.seats if seat not in bot_seats]
    clocked = wait.phase == "buying" or (state.clock is not None and state.clock.turn_s is not None)
    return Needs(bots=any(seat in bot_seats for seat in wait.seats),
                 deadline=bool(humans) and clocked)


def make_queue(connection: redis.Redis) -> Queue:
    """The RQ queue of the bot and scoring jobs on `connection`."""
    return Queue(QUEUE_NAME, connection=connection)


def make_deadline_queue(connection: redis.Redis) -> Queue:
    """The RQ queue of the deadline jobs on `connection` (a worker listens to it first)."""
    return Queue(DEADLINE_QUEUE_NAME, connection=connection)


def enqueue_unique(queue: Queue, func: str, job_id: str, *args) -> bool:
    """Enqueue `func(*args)` as `job_id` unless a job with that id exists; True if enqueued."""
    try:
        queue.enqueue(func, *args, job_id=job_id, unique=True, retry=RETRY,
                      job_timeout=JOB_TIMEOUT_S, result_ttl=RESULT_TTL_S)
    except DuplicateJobError:
        return False
    return True


def enqueue_needs(queue: Queue, game_id: str, version: int, need: Needs) -> None:
    """Enqueue the jobs `need` calls for at `version` (duplicates are refused silently; a
    deadline is the poller's, not a job of its own here)."""
    if need.bots:
        enqueue_unique(queue, "workers.jobs.play_bots", bot_job_id(game_id, version),
                       game_id, version)
    if need.scoring:
        enqueue_unique(queue, "workers.jobs.score_round", score_job_id(game_id, version),
                       game_id, version)


@contextmanager
def bots_continuing(game_id: str) -> Iterator[None]:
    """Within this block the hook enqueues no bot job for `game_id`: the running play_bots job
    keeps playing its bots itself, and a job per intermediate version would only queue up as
    stale no-ops in front of the next human's reply. The caller enqueues the follow-ups of the
    version it stops at (if it dies first, the sweeper does)."""
    token = _continuing.set(game_id)
    try:
        yield
    finally:
        _continuing.reset(token)


def install(wiring) -> "Followups":
    """Install the RQ hook on `wiring.service` (a `service.bootstrap.Wiring`): its queue uses
    the wiring's Redis client."""
    hook = Followups(make_queue(wiring.client), wiring.service.bot_seats)
    wiring.service.enqueue_followups = hook
    return hook


class Followups:
    """The RQ `enqueue_followups(game_id, version, state)` hook for GameService.

    `bot_seats(game_id, state)` names the seats a bot plays in `state`. An enqueue that fails
    is logged, not raised: the append it follows stands, and the sweeper enqueues what is
    missing (DESIGN §5).
    """

    def __init__(self, queue: Queue, bot_seats: BotSeats) -> None:
        self.queue = queue
        self.bot_seats = bot_seats

    def __call__(self, game_id: str, version: int, state) -> None:
        try:
            need = needs(state, self.bot_seats(game_id, state))
            if _continuing.get() == game_id:
                need = replace(need, bots=False)
            enqueue_needs(self.queue, game_id, version, need)
        except Exception:  # the append stands whatever fails here; the sweeper catches up
            log.exception("follow-up enqueue failed for %s at %s; the sweeper will retry",
                          game_id, version)
