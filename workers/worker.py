"""`rummy worker`: the turn loop of the ready games, and the RQ worker of the deadline and
maintenance jobs with its scheduler and a periodic sweep (DESIGN §5, §7).

Daemon threads run the turn loops (workers.turns; RUMMY_TURN_LOOPS, 3): the bot moves and
scorings of the games in the ready queue (service.ready_games), one short slice per game in
turn; while one loop waits for its append's reply, another decides.

`SimpleWorker` runs each job in this process instead of forking one per job: game jobs take
milliseconds, and a long-lived process keeps its GameService (connection pool, snapshot
cache) warm, which is what bot reply latency is made of. A job that crashes the process is
recovered like a killed worker: by the sweeper, from another or a restarted worker.

A daemon thread enqueues `workers.jobs.sweep` every `sweep_interval_s` with the id
`sweep-<slot>` (unique per time slot), so many workers still sweep once per interval. The
worker also serves the `rummy-maintenance` queue, after the game queues, and enqueues the
retention run there (workers/maintenance.py). Another thread polls the deadline set every
50 ms (workers.deadlines); the worker listens to the deadline queue first.

Redis outages stop nothing for good: `workers.resilience.work_through_outages` starts a fresh
RQ worker once Redis answers again (docs/workers.md "Redis outages").
"""
from __future__ import annotations

import logging
import os
import secrets
import threading
import time

import redis
from rq.exceptions import DuplicateJobError

from service.config import Settings
from service.connections import connect, is_cluster
from service.followups import make_queues
from service.ready_games import ReadyGames
from workers import runtime
from workers.deadlines import poll_deadlines
from workers.maintenance import start_ticker
from workers.resilience import GameWorker, heartbeat_path, work_through_outages
from workers.sweeper import keep_alive
from workers.turns import GameStates, TurnLoop

log = logging.getLogger(__name__)

# Short heartbeats so that an idle worker runs its maintenance (scheduler lock take-over,
# registry clean-up) every few seconds rather than every seven minutes.
WORKER_TTL_S = 20
MAINTENANCE_INTERVAL_S = 10
# Under RQ's own socket timeout (its dequeue timeout + 10 s), so that the sweep ticker and the
# keep-alive thread cannot block for long on a frozen server.
SOCKET_TIMEOUT_S = 10


def sweep_interval_s() -> float:
    """`RUMMY_SWEEP_INTERVAL_S` (default 5, read by service.config.Settings): seconds between
    two sweeps."""
    return Settings.from_env().sweep_interval_s


def _sweep_ticker(queue, interval_s: float, stop: threading.Event) -> None:
    failing = False  # log once per Redis outage, not every interval
    while not stop.wait(interval_s):
        slot = int(time.time() // interval_s)
        try:
            queue.enqueue("workers.jobs.sweep", job_id=f"sweep-{slot}", unique=True,
                          result_ttl=int(interval_s * 4) + 1, failure_ttl=3600)
            failing = False
        except DuplicateJobError:
            failing = False  # another worker's ticker got this slot
        except redis.RedisError as error:
            if not failing:
                log.warning("could not enqueue the sweep (%s); retrying every interval", error)
            failing = True


def run_worker(redis_url: str, burst: bool = False, with_scheduler: bool = True,
               sweep_every_s: float | None = None, log_level: str = "INFO",
               queue_url: str | None = None) -> bool:
    """Run the turn loop (workers.turns) and an RQ worker on the job queues
    (service.followups.QUEUE_NAMES, taken in that order of priority) until SIGINT/SIGTERM
    (warm shutdown). The ready queue and the RQ queues live on `queue_url` (a single Redis:
    RUMMY_QUEUE_URL), else on `redis_url`, the store's Redis (maybe a Cluster:
    docs/cluster.md).

    `burst` stops when no game is ready and the queues are empty (no sweeping then);
    `log_level` is RQ's (INFO logs every job). Returns whether any slice or job ran.
    The jobs build their GameService from `REDIS_URL` and `RUMMY_QUEUE_URL`, which are set to
    `redis_url` and `queue_url` here."""
    if is_cluster(redis_url) and not queue_url:
        raise ValueError("a Redis Cluster store needs a single Redis for the queues: set "
                         "RUMMY_QUEUE_URL (docs/cluster.md)")
    os.environ["REDIS_URL"] = redis_url
    if queue_url:
        os.environ["RUMMY_QUEUE_URL"] = queue_url
    timeouts = {"socket_timeout": SOCKET_TIMEOUT_S, "socket_connect_timeout": SOCKET_TIMEOUT_S}
    connection = redis.Redis.from_url(queue_url or redis_url, **timeouts)
    queues = make_queues(connection)
    stop = threading.Event()
    wired = runtime.wiring()  # built here, before the threads that share it
    loops = turn_loops(wired, 1 if burst else wired.settings.turn_loops)
    turns = loops[0]
    if not burst:
        for index, loop in enumerate(loops):
            threading.Thread(target=loop.run, args=(stop,), name=f"rummy-turns-{index}",
                             daemon=True).start()
        interval = sweep_interval_s() if sweep_every_s is None else sweep_every_s
        threading.Thread(target=_sweep_ticker, args=(queues.maintenance, interval, stop),
                         name="rummy-sweep", daemon=True).start()
        settings = Settings.from_env()
        start_ticker(queues.maintenance, settings.archive_dir, settings.retention_interval_s, stop)
        store = connection if not queue_url else connect(redis_url, **timeouts)
        threading.Thread(target=poll_deadlines,
                         args=(store, connection, settings.sweep_stale_s, stop),
                         name="rummy-deadlines", daemon=True).start()

    def new_worker() -> GameWorker:
        return GameWorker(queues.in_priority_order(), connection=connection,
                          worker_ttl=WORKER_TTL_S,
                          maintenance_interval=MAINTENANCE_INTERVAL_S, stop=stop,
                          heartbeat_file=heartbeat_path())

    def work(worker: GameWorker) -> bool:
        # Shows this worker alive while a job runs, so the sweeper never replaces a running job.
        alive = threading.Event()
        threading.Thread(target=keep_alive, args=(connection, worker.name, alive),
                         name="rummy-alive", daemon=True).start()
        threading.Thread(target=worker.beat_while_busy, args=(alive,), name="rummy-beat",
                         daemon=True).start()
        try:
            return worker.work(burst=burst, with_scheduler=with_scheduler,
                               logging_level=log_level)
        finally:
            alive.set()

    try:
        if burst:
            return _burst(turns, lambda: work(new_worker()))
        return work_through_outages(new_worker, work, connection, stop, heartbeat_path())
    finally:
        stop.set()


def turn_loops(wired, count: int) -> list[TurnLoop]:
    """`count` turn loops on `wired`'s service, sharing their cached game states and the
    process's group id (service.ready_games: each takes the games of the others as its own)."""
    states, group = GameStates(), secrets.token_hex(6) + "."
    lease_ms = int(wired.settings.sweep_stale_s * 1000)
    return [TurnLoop(wired.service, ReadyGames(wired.queue_client), lease_ms, states, group)
            for _ in range(count)]


def _burst(turns: TurnLoop, work_queues) -> bool:
    """Play the ready games and run the queued jobs until neither has anything left (a job
    may ready a game and a slice schedule a deadline); whether anything ran."""
    worked = False
    while True:
        played = turns.drain()
        ran = work_queues()
        worked = worked or bool(played) or ran
        if not played and not ran:
            return worked
