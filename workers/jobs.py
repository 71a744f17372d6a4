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
import random
import time
from datetime import datetime, timezone

from domain import RuleViolation, awaiting, choose_action
from domain.views import SeatView
from service.store import ConcurrencyError
from service.timeouts import bot_rng
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
SWEEP_PAGE = 100


def play_bots(game_id: str, version: int) -> int:
    """Play the bot actions the game at `version` waits for, for one time slice; return how
    many were played.

    While a bot seat must act (its turn, or an open buy offer it owes an answer: bots answer
    at once, R6.9), decide with `choose_action(level, seat_view, bot_rng(...))` and append
    with the expected version, going on from the state the append returned (no read of what
    it just wrote). It stops at the end of its time slice (SLICE_CPU_S of CPU time or
    SLICE_WALL_S of the clock, after at least one action), so a game never holds a worker
    while other games wait: the follow-ups of the version it
    stops at are enqueued at the end, which puts the game's next bot job at the tail of the
    bots queue, behind the games already waiting. The intermediate appends enqueue no bot job
    (service.followups.bots_continuing). Stale (the game is past `version`: a retry after an
    error, a duplicate): it plays nothing and enqueues the follow-ups of the current version
    (`resume`). A bot choice the rules refuse is logged and replaced by a random legal action,
    so a bot bug cannot stall a game.
    """
    service = runtime.wiring().service
    current, state = service.load(game_id)
    if current != version:
        resume(service, game_id)
        return 0
    record = service.record(game_id)
    played = 0
    cpu_ends, wall_ends = time.thread_time() + SLICE_CPU_S, time.monotonic() + SLICE_WALL_S
    with bots_continuing(game_id):
        while not played or (time.thread_time() < cpu_ends and time.monotonic() < wall_ends):
            levels = record.bot_levels(state)  # the seats a bot plays may change (the clock)
            wait = awaiting(state)
            seat = next((s for s in wait.seats if s in levels), None)
            if wait.status != "playing" or seat is None:
                break
            view = SeatView(state, seat)  # built as far as the bot reads it
            rng = bot_rng(record.rng_seed, seat, current)
            action = choose_action(levels[seat], view, rng)
            try:
                current, state = _act(service, game_id, seat, action, (current, state), view, rng)
            except ConcurrencyError:  # another append won: stale from here on
                resume(service, game_id)
                return played
            played += 1
    if played:
        with slice_ended(game_id):
            service.enqueue_followups(game_id, current, state)
    return played


def _act(service, game_id: str, seat: int, action: dict, known: tuple[int, object], view,
         rng: random.Random) -> tuple[int, object]:
    """Play the bot's `action` on the game as `known` (version, state): the game's (version,
    state) after it. Raises ConcurrencyError when the game is no longer at that version."""
    version = known[0]
    try:
        return service.play(game_id, seat, action, if_match=version, known=known)
    except RuleViolation as refused:
        # Never a card in a log line (DESIGN §2.4): the action type and the rule id only.
        log.error("bot of seat %s in %s at %s chose a %s, refused (%s); playing a random "
                  "legal action", seat, game_id, version, action.get("type"), refused.rule)
        fallback = rng.choice(view["legal_actions"])
        return service.play(game_id, seat, fallback, if_match=version, known=known)


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
    """Find the games waiting on the workers (the index's `rummy:games:waiting`: a bot, a
    human's deadline or scoring) without a live job for their version, and enqueue what is
    missing (DESIGN §5); a deadline is put back in the deadline set (docs/clock.md). Then
    expire the lobbies nobody started in time (docs/lobby.md). Games waiting on a human, finished or abandoned are not looked at.
    Each game's summary is checked again and the game loaded, so a set entry that is behind
    its summary or stream costs nothing. A job counts as dead once `Settings.sweep_stale_s`
    (RUMMY_SWEEP_STALE_S, default 30) seconds have passed since it was enqueued or due, or,
    started, once it can no longer be running (workers.sweeper.job_alive)."""
    wired = runtime.wiring()
    service, queues = wired.service, make_queues(wired.client)
    stale_s = wired.settings.sweep_stale_s
    now = datetime.now(timezone.utc)
    games, enqueued = 0, []
    for game_id in dict.fromkeys(service.index.waiting(SWEEP_PAGE)):
        try:
            summary = service.index.summary(game_id)
            if summary is None or summary["status"] == "finished" or not summary["waiting"]:
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
