"""The turn loop: each `rummy worker` plays the games of the ready queue in turn, one short
slice each, in RUMMY_TURN_LOOPS loops (threads) that share their cached states: while one
waits for its append's reply, another decides (issue 12; docs/workers.md "Bot turns: the
ready queue").

A slice: the loop takes the games at the head of the ready queue (service.ready_games; two at
a time, TAKE_GAMES), plays each one's moves (a bot's turn, service.bot_turns.BotTurn, as ONE
append, two turns in a game of bots; or the scoring of a round) on the state it holds, until the game no longer awaits the
workers or SLICE_CPU_S of this thread's CPU time is spent (after at least one move), and
releases them in the same round trip that takes the next games: at the tail while they still
await the workers, ahead of the games of bots when a human plays one of its seats. So a game of
bots waits at most one rotation (games x slice / workers) between slices, a game with a human
waits only for the slices a worker holds, and switching games costs one script per two
slices, no RQ job.

Exactly once: every move is appended at its expected version. The state of each game the
loop played is kept in process with its version; the queue's version hint tells whether it
is still the game's (else it is loaded: the stream's tail after the cached state). A move that
loses the race (another worker, a human) raises ConcurrencyError: the game is released with
what the stream holds now, nothing is appended twice.

Failures: a lease ends after `lease_ms` (RUMMY_SWEEP_STALE_S), so a killed worker's games go
back to the queue; a Redis error stops nothing for good (logged once, retried with backoff
while the held games' releases wait); an unexpected error in a game is logged and the game
left out until the sweeper readies it again (a bug cannot spin a worker).
"""
from __future__ import annotations

import logging
import secrets
import threading
import time
from collections import OrderedDict

import redis

from domain import RuleViolation, decide
from service.bot_turns import BotTurn
from service.decisions import decision_rng
from service.errors import GameNotFound
from service.followups import needs, playing
from service.ready_games import DONE, TAIL, URGENT, ReadyGames
from service.store import ConcurrencyError, StoreError, StoreUnavailable

log = logging.getLogger(__name__)

# A slice: SLICE_MOVES moves (bot turns or a scoring), or fewer once SLICE_CPU_S of this
# thread's CPU time is spent (a heavy turn of a strong bot). A game waits one rotation of the
# others' slices between its own, so the reply after that wait is what a slice's length
# sets: one move a slice made every reply wait (bot reply p50 45 ms at K=50), three made one
# in three wait three moves' rotation (p99 ~200 ms); two keep both within the goals of 30 /
# 150 ms (docs/workers.md "Slices", issue 12).
SLICE_MOVES = 2
SLICE_CPU_S = 0.005
# Games leased per `take`: their slices are played one after the other, and all released with
# the next take. Two, not one: a take was a fifth of the round trips of a four-bot game (~110
# takes beside ~330 appends, ~18 ms of a worker's CPU per game); a game with a human that
# becomes urgent waits for at most the two slices a worker holds (~10 ms), still far within
# its 150 ms.
TAKE_GAMES = 2
# Bot turns per append in a game of bots only (no human acts on a bot's move there): two
# halve the appends, and the index checks, snapshots and takes that come with them.
BOT_GAME_TURNS = 2
IDLE_WAIT_S = 1.0  # an idle loop blocks this long on the wake list, then looks again
FIRST_BACKOFF_S, MAX_BACKOFF_S = 0.1, 2.0
CACHED_GAMES = 1024
BOT_TURN = {"type": "bot_turn"}  # what the loop's bot appends are logged as
SCORE = {"type": "score_round"}


class GameStates:
    """The (version, state) of the last CACHED_GAMES games played, shared by the turn loops of
    one process (one lock: a loop reads or writes it a few times a slice)."""

    def __init__(self) -> None:
        self._states: OrderedDict[str, tuple[int, object]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str) -> tuple[int, object] | None:
        """The (version, state) held for `game_id`, or None."""
        with self._lock:
            return self._states.get(game_id)

    def keep(self, game_id: str, version: int, state: object) -> None:
        """Hold `state` at `version` for `game_id`, dropping the least recently kept game
        beyond CACHED_GAMES."""
        with self._lock:
            self._states[game_id] = (version, state)
            self._states.move_to_end(game_id)
            if len(self._states) > CACHED_GAMES:
                self._states.popitem(last=False)

    def drop(self, game_id: str) -> None:
        """Forget `game_id` (its next slice loads it)."""
        with self._lock:
            self._states.pop(game_id, None)


class TurnLoop:
    """Plays the ready games of `ready` on `service` (a GameService with the follow-up hook),
    leasing each for `lease_ms`. The loops of one process (`group`: their ids' common start)
    share `states`, so each takes the games any of them played last as its own."""

    def __init__(self, service, ready: ReadyGames, lease_ms: int,
                 states: GameStates | None = None, group: str = "") -> None:
        self.service, self.ready, self.lease_ms = service, ready, lease_ms
        # the queue's owner id of the games it plays
        self.name, self.group = group + secrets.token_hex(6), group
        self.states = GameStates() if states is None else states
        self.released: list[tuple[str, int, int]] = []

    def run(self, stop: threading.Event) -> None:
        """Until `stop` is set: take up to TAKE_GAMES games, play a slice of each, release them
        with the next take; block on the wake list while no game is ready."""
        backoff, failing = FIRST_BACKOFF_S, False
        # One connection each for this loop's appends and takes, held while it runs: taking
        # one from the pool per command was ~10% of a loop's CPU outside the bots (issue 12).
        with self.service.store.own_connection(), self.ready.own_connection():
            while not stop.is_set():
                try:
                    played = self.step()
                    if failing:
                        log.warning("turn loop: Redis answers again; playing on")
                    backoff, failing = FIRST_BACKOFF_S, False
                    if not played:
                        self.ready.wait(IDLE_WAIT_S)
                except (redis.RedisError, StoreError) as error:
                    if not failing:
                        log.warning("turn loop: %s: %s; retrying with backoff",
                                    type(error).__name__, error)
                    failing = True
                    stop.wait(backoff)
                    backoff = min(backoff * 2, MAX_BACKOFF_S)
            self.release()

    def release(self) -> None:
        """Hand back the games played and not yet released (a stopping loop); a Redis error
        leaves them to their leases."""
        try:
            self.ready.take(self.lease_ms, self.released, self.name, take=False)
            self.released = []
        except redis.RedisError as error:
            log.warning("turn loop: could not release %d games (%s); their leases will end",
                        len(self.released), error)

    def step(self) -> int:
        """Release what was played, take the next games (TAKE_GAMES) and play a slice of each;
        how many games were taken (0: none ready). Raises redis.RedisError or StoreError when a
        Redis cannot be reached (the releases, and the games taken but not played, are kept for the next
        step)."""
        taken = self.ready.take(self.lease_ms, self.released, self.name, count=TAKE_GAMES,
                                group=self.group)
        self.released = []
        for index, (game_id, hint, urgent) in enumerate(taken):
            try:
                self.released.append(self.play(game_id, hint, urgent=urgent))
            except BaseException:
                # the games not played yet go back as urgent as they were taken (a game
                # with a human is urgent): none waits a rotation for an outage
                self.released += [(game, held, URGENT if urgent else TAIL)
                                  for game, held, urgent in taken[index + 1:]]
                raise
        return len(taken)

    def drain(self) -> int:
        """Play until no game is ready (a burst worker); the number of slices played."""
        slices = 0
        while taken := self.step():
            slices += taken
        self.release()
        return slices

    def play(self, game_id: str, hint: int, urgent: bool = False) -> tuple[str, int, int]:
        """One slice of `game_id` (queued at version `hint`; `urgent`: taken ahead of the games
        of bots, where an outage puts it back): (game, version reached, what becomes of it:
        service.ready_games DONE / TAIL / URGENT)."""
        version = hint
        try:
            version, state = self._state(game_id, hint)
            record = self.service.record(game_id)
            ends = time.thread_time() + SLICE_CPU_S
            moved = 0
            with playing(game_id):
                while True:
                    bot_seats = record.bot_seats(state)
                    need = needs(state, bot_seats)
                    if not need.moves:
                        return game_id, version, DONE
                    if moved >= SLICE_MOVES or (moved and time.thread_time() >= ends):
                        urgent = len(bot_seats) < len(record.seats)  # a human plays a seat
                        return game_id, version, URGENT if urgent else TAIL
                    version, state = self._move(game_id, record, version, state, need.scoring)
                    moved += 1
                    self.states.keep(game_id, version, state)
        except ConcurrencyError:  # another append won: go on from the stream next time
            self.states.drop(game_id)
            return game_id, -1, TAIL
        except (GameNotFound, RuleViolation) as error:
            log.warning("game %s left the ready queue: %s", game_id, error)
            return game_id, version, DONE
        except (redis.ConnectionError, redis.TimeoutError, StoreUnavailable):
            self.states.drop(game_id)  # an outage: retried after the backoff
            self.released.append((game_id, -1, URGENT if urgent else TAIL))
            raise
        except Exception:  # a bug must not spin the worker: the sweeper readies it again
            log.exception("slice of game %s failed; left to the sweeper", game_id)
            self.states.drop(game_id)
            return game_id, version, DONE

    def _state(self, game_id: str, hint: int) -> tuple[int, object]:
        """The (version, state) held for `game_id` if it is at `hint`, else loaded (from a
        stored snapshot rather than a cached state far behind the hint)."""
        held = self.states.get(game_id)
        if held is not None and held[0] == hint:
            return held
        version, state = self.service.load(game_id, near=hint if hint >= 0 else None)
        self.states.keep(game_id, version, state)
        return version, state

    def _move(self, game_id: str, record, version: int, state: object,
              scoring: bool) -> tuple[int, object]:
        """One move at `version`: the round's scoring (R9.1-R9.4), else one bot turn (two in a
        game of bots, BOT_GAME_TURNS) as one append (service.bot_turns). (version, state)
        after it."""
        if scoring:
            def decision(at_state, at_version):
                return decide(at_state, None, SCORE, decision_rng(record.rng_seed, at_version))
            action = SCORE
        else:
            turns = BOT_GAME_TURNS if record.all_bots else 1
            decision, action = BotTurn(record.rng_seed, record.bot_levels, turns), BOT_TURN
        after = self.service.decide_at(game_id, action, version, None, decision,
                                       known=(version, state))
        if after[0] == version:  # nothing decided (no bot could act): a bug, not a loop
            raise RuntimeError(f"no move decided at version {version}")
        return after
