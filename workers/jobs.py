"""The RQ job functions (DESIGN §5). They take ids and versions, never state: each loads the
game, checks it is still at the version it was enqueued for (else it is stale and does
nothing), decides, and appends with that expected version through the GameService, whose
follow-up hook enqueues what comes next.

Errors: a game that moved on (ConcurrencyError) or no longer awaits the action
(RuleViolation) ends the job quietly; StoreUnavailable and other errors propagate, so RQ
retries the job with backoff (service.followups.RETRY) and finally files it in the failed job
registry, where the sweeper's replacement takes over.
"""
from __future__ import annotations

import logging
import time
from datetime import datetime, timezone

from domain import RuleViolation
from service.bot_turns import BotTurn
from service.store import ConcurrencyError
from workers import runtime
from service.followups import bots_continuing, make_queues, needs, slice_ended
from workers.sweeper import Sweep, ensure_followups

log = logging.getLogger(__name__)

# A bot job's time slice: SLICE_CPU_S seconds of its thread's CPU time, or SLICE_WALL_S of the
# clock when the machine is too busy to give it that; past either the job re-enqueues its game
# at the tail of the slices queue (docs/workers.md "Time slices"). CPU time, not the clock
# alone: a job costs RQ ~30 Redis commands of its own, and on a loaded machine a clock-only
# slice shrank to a few actions, so that overhead, not the game, took the worker's time.
SLICE_CPU_S = 0.05
SLICE_WALL_S = 0.2
# How often (CPU seconds) a slice asks whether a human's game or a deadline waits for a worker.
URGENT_EVERY_CPU_S = 0.005
SWEEP_PAGE = 100
BOT_TURN = {"type": "bot_turn"}  # what a bot job's appends are logged as (no idempotency key)


def play_bots(game_id: str, version: int) -> int:
    """Play the bot actions the game at `version` waits for, for one time slice; return how
    many were played.

    While a bot seat must act (its turn, or an open buy offer it owes an answer: bots answer
    at once, R6.9), decide with `choose_action(level, seat_view, bot_rng(...))`; each bot turn
    (the offer answers, then up to the bot's discard) is ONE append at the expected version
    (service.bot_turns.BotTurn), going on from the state the append returned (no read of what
    it just wrote). It stops at the end of its time slice (SLICE_CPU_S of CPU time or
    SLICE_WALL_S of the clock, after at least one action, or as soon as a deadline or a
    human's game waits on its queue: Queues.urgent_waiting), so a game never holds a worker
    while other games wait: the follow-ups of the version it
    stops at are enqueued at the end, which puts the game's next bot job at the tail of the
    bots queue, behind the games already waiting. The intermediate appends enqueue no bot job
    (service.followups.bots_continuing). Stale (the game is past `version`: a retry after an
    error, a duplicate): it plays nothing and enqueues the follow-ups of the current version
    (`resume`). A bot choice the rules refuse is logged and replaced by a random legal action,
    so a bot bug cannot stall a game (service.bot_turns.bot_step).
    """
    service = runtime.wiring().service
    current, state = service.load(game_id)
    if current != version:
        resume(service, game_id)
        return 0
    record = service.record(game_id)
    queues = getattr(service.enqueue_followups, "queues", None)  # the RQ hook's (Followups)
    played = 0
    cpu_ends, wall_ends = time.thread_time() + SLICE_CPU_S, time.monotonic() + SLICE_WALL_S
    look_at = time.thread_time()
    with bots_continuing(game_id):
        while not played or (time.thread_time() < cpu_ends and time.monotonic() < wall_ends):
            turn = BotTurn(record.rng_seed, record.bot_levels)
            try:
                current, state = service.decide_at(game_id, BOT_TURN, current, None, turn,
                                                   known=(current, state))
            except ConcurrencyError:  # another append won: stale from here on
                resume(service, game_id)
                return played
            if not turn.played:
                break
            played += turn.played
            if queues is not None and time.thread_time() >= look_at:
                look_at = time.thread_time() + URGENT_EVERY_CPU_S
                if queues.urgent_waiting():
                    break  # a human's game or a deadline waits: yield the worker now
    if played:
        with slice_ended(game_id):
            service.enqueue_followups(game_id, current, state)
    return played


def resume(service, game_id: str) -> None:
    """What a job that finds itself stale does: enqueue the follow-ups of the game's current
    version. The append that moved the game on normally did, but not when it was this job's own
    earlier run that failed after appending (a Redis error, a killed worker); unique job ids
    make the repeat free otherwise."""
    current, state = service.load(game_id)
    service.enqueue_followups(game_id, current, state)


def _system(game_id: str, version: int, action: dict) -> bool:
    service = runtime.wiring().service
    try:
        service.system_act(game_id, action, version)
    except (ConcurrencyError, RuleViolation):
        resume(service, game_id)
        return False
    return True


def score_round(game_id: str, version: int) -> bool:
    """Score the round that ended at `version` (R9.1-R9.4): append RoundScored, then the next
    RoundDealt or GameEnded. True if this run scored it; False when stale or already scored
    (the expected version and the domain's refusal of a second score make it exactly once)."""
    return _system(game_id, version, {"type": "score_round"})


def sweep() -> Sweep:
    """Find the games waiting on the workers (the index's waiting sets: a bot, a
    human's deadline or scoring) without a live job for their version, and enqueue what is
    missing (DESIGN §5); a deadline is put back in the deadline set (docs/clock.md). Then
    expire the lobbies nobody started in time (docs/lobby.md). Games waiting on a human, finished or abandoned are not looked at.
    Each game's summary is checked again and the game loaded, so a set entry that is behind
    its summary or stream costs nothing. A job counts as dead once `Settings.sweep_stale_s`
    (RUMMY_SWEEP_STALE_S, default 30) seconds have passed since it was enqueued or due, or,
    started, once it can no longer be running (workers.sweeper.job_alive)."""
    wired = runtime.wiring()
    service, queues = wired.service, make_queues(wired.queue_client)
    stale_s = wired.settings.sweep_stale_s
    now = datetime.now(timezone.utc)
    games, enqueued = 0, []
    for game_id in dict.fromkeys(service.index.waiting(SWEEP_PAGE)):
        try:
            summary = service.index.summary(game_id)
            if summary is None or summary["status"] == "finished" or not summary["waiting"]:
                service.index.repair(game_id)  # its shard is behind: out of the waiting set
                continue  # the summary no longer waits on the workers
            games += 1
            version, state = service.load(game_id)
            need = needs(state, service.bot_seats(game_id, state))
            if version > summary["version"]:  # an index update was lost: catch up
                service.index_game(game_id, version, state, need)
            if need.deadline:  # a deadline update lost with its process: put it back
                service.schedule_deadline(game_id, version, state)
            enqueued += ensure_followups(queues, game_id, version, need, stale_s, now)
        except Exception:  # one broken game must not stop the sweep of the others
            log.exception("sweep of game %s failed", game_id)
    if enqueued:
        log.info("sweep enqueued %s", ", ".join(enqueued))
    return Sweep(games, tuple(enqueued), _expire_lobbies(service))


def _expire_lobbies(service) -> tuple[str, ...]:
    """The sweep's part of the lobby: expire the lobbies nobody started within
    RUMMY_LOBBY_TTL_S (service.lobby.Lobby.expire_due); a failure is logged, never stops the
    sweep."""
    try:
        expired = tuple(service.lobby.expire_due())
    except Exception:
        log.exception("lobby expiry failed")
        return ()
    if expired:
        log.info("sweep expired lobbies %s", ", ".join(expired))
    return expired
