"""Follow-ups after every append (DESIGN §5): what a game waits on, and who acts on it.

`needs(state, bot_seats)` reads `domain.awaiting(state)`; `Followups` is the
`enqueue_followups(game_id, version, state)` hook that GameService calls after each append:

- a bot must act, or a round awaits its scoring: the game goes into the ready queue
  (service.ready_games, on the queue Redis), where the workers' turn loops take games in turn,
  one short slice each (workers.turns). No RQ job per move or per slice: switching games costs
  one script. A game readied by anything but the turn loop's own moves (a human's action, a
  deadline, a new game) is urgent: it goes before every game of bots waiting its next slice.
- a human's deadline: the game's entry in the deadline sorted set (service.clock), which the
  workers' poller turns into a `deadline-<game>-<version>` RQ job on DEADLINE_QUEUE when due
  (workers.deadlines; RQ allows only letters, digits, `_` and `-` in job ids).

The RQ queues (QUEUE_NAMES, in the order a worker listens to them): deadlines first, then
maintenance (the sweep, archiving; webhooks have their own queue and worker:
service.webhooks). This module is the one place that knows job ids and queues. Jobs are
enqueued with RQ's `unique=True` (a second enqueue of an id is a no-op), keep no result
(RESULT_TTL_S = 0) and a failed one stays FAILURE_TTL_S for diagnosis; they are named by
dotted path so this module imports no job code.
"""
from __future__ import annotations

import logging
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Callable, Collection, Iterator

import redis
from rq import Queue, Retry
from rq.exceptions import DuplicateJobError

from domain import awaiting
from service.ready_games import ReadyGames

log = logging.getLogger(__name__)

DEADLINE_QUEUE = "rummy-deadlines"
MAINTENANCE_QUEUE = "rummy-maintenance"
# The order a worker takes RQ jobs in: a due deadline first (R6.9 is a promise to the humans
# waiting), maintenance only when no deadline waits. Bot moves and scorings are not RQ jobs.
QUEUE_NAMES = (DEADLINE_QUEUE, MAINTENANCE_QUEUE)
# Transient Redis errors inside a job are retried with backoff; needs the worker's scheduler.
RETRY = Retry(max=3, interval=[1, 3, 9])
JOB_TIMEOUT_S = 60
RESULT_TTL_S = 0
FAILURE_TTL_S = 7 * 24 * 3600

BotSeats = Callable[[str, object], Collection[int]]
# The game a turn loop is playing in this thread (workers.turns): its own appends ready nothing.
_playing: ContextVar[str | None] = ContextVar("rummy_playing", default=None)


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

    @property
    def moves(self) -> bool:
        """Whether the workers' turn loop must move: a bot acts, or a round is scored."""
        return self.bots or self.scoring


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


def make_queue(connection: redis.Redis, name: str = DEADLINE_QUEUE) -> Queue:
    """The RQ queue `name` (one of QUEUE_NAMES; default the deadlines') on `connection`."""
    return Queue(name, connection=connection)


@dataclass(frozen=True)
class Queues:
    """The RQ queues of `rummy worker` on one connection: `deadlines` (run_deadline) and
    `maintenance` (the sweep and the other housekeeping jobs)."""

    deadlines: Queue
    maintenance: Queue

    def in_priority_order(self) -> list[Queue]:
        """The queues in the order a worker takes jobs from them (QUEUE_NAMES)."""
        return [self.deadlines, self.maintenance]


def make_queues(connection: redis.Redis) -> Queues:
    """The RQ queues (QUEUE_NAMES) on `connection`."""
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


@contextmanager
def playing(game_id: str) -> Iterator[None]:
    """Within this block (a turn loop's slice of `game_id`, workers.turns) the hook readies
    nothing for `game_id`: the loop goes on with the game itself and releases it to the ready
    queue when its slice ends (at the tail) or the game no longer awaits the workers."""
    token = _playing.set(game_id)
    try:
        yield
    finally:
        _playing.reset(token)


def install(wiring) -> "Followups":
    """Install the hook on `wiring.service` (a `service.bootstrap.Wiring`): its ready queue on
    the wiring's queue client (RUMMY_QUEUE_URL, else REDIS_URL)."""
    hook = Followups(ReadyGames(wiring.queue_client), wiring.service.bot_seats)
    wiring.service.enqueue_followups = hook
    return hook


class Followups:
    """The `enqueue_followups(game_id, version, state)` hook for GameService: readies a game
    that awaits a bot or its scoring (service.ready_games), urgent unless the turn loop of
    this thread is playing it (`playing`).

    `bot_seats(game_id, state)` names the seats a bot plays in `state`. A failure is logged,
    not raised: the append it follows stands, and the sweeper readies what is missing
    (DESIGN §5).
    """

    def __init__(self, ready: ReadyGames, bot_seats: BotSeats) -> None:
        self.ready = ready
        self.bot_seats = bot_seats

    def __call__(self, game_id: str, version: int, state) -> None:
        try:
            if _playing.get() == game_id:
                return
            if needs(state, self.bot_seats(game_id, state)).moves:
                self.ready.mark(game_id, version, urgent=True)
        except Exception:  # the append stands whatever fails here; the sweeper catches up
            log.exception("readying %s at %s failed; the sweeper will retry", game_id, version)
