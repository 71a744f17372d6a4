"""The RQ job functions of the game workers (DESIGN §5) besides the deadline job
(workers.deadlines): the sweep. Bot moves and scorings are not RQ jobs: the turn loop plays
them from the ready queue (workers.turns, service.ready_games).

Errors: StoreUnavailable and other errors propagate, so RQ retries the job with backoff
(service.followups.RETRY) and finally files it in the failed job registry.
"""
from __future__ import annotations

import logging

from service.followups import needs
from service.ready_games import ReadyGames
from workers import runtime
from workers.sweeper import Sweep

log = logging.getLogger(__name__)

SWEEP_PAGE = 100


def sweep() -> Sweep:
    """Find the games waiting on the workers (the index's waiting sets: a bot, a human's
    deadline or a scoring) and make sure the workers will act: a game awaiting a bot or its
    scoring is put in the ready queue unless it is there or leased by a worker (an append
    whose readying was lost with its process; a killed worker's lease is put back by the
    next take once it ends), a deadline is put back in the deadline set (docs/clock.md). A
    game the ready queue holds is not loaded: with 50 games of bots in play, loading each on
    every sweep (the sweeping worker's cached state of a game the other worker plays is far
    behind) cost ~10% of the workers' CPU.
    Then expire the lobbies nobody started in time (docs/lobby.md). Games waiting on a human,
    finished or abandoned are not looked at. Each game's summary is checked again and the game
    loaded, so a set entry that is behind its summary or stream costs nothing."""
    wired = runtime.wiring()
    service, ready = wired.service, ReadyGames(wired.queue_client)
    games, readied = 0, []
    waiting = list(dict.fromkeys(service.index.waiting(SWEEP_PAGE)))
    held = set()
    for start in range(0, len(waiting), SWEEP_PAGE):
        held |= ready.held(waiting[start:start + SWEEP_PAGE])
    for game_id in waiting:
        if game_id in held:  # a worker will play it (or its lease will put it back)
            continue
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
            if need.moves and ready.ensure(game_id, version):
                readied.append(game_id)
        except Exception:  # one broken game must not stop the sweep of the others
            log.exception("sweep of game %s failed", game_id)
    if readied:
        log.info("sweep readied %s", ", ".join(readied))
    return Sweep(games, tuple(readied), _expire_lobbies(service))


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
