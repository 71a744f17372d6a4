"""GameService: load -> fold -> decide -> append (expected version, idempotency) -> enqueue
follow-up jobs (DESIGN §3, docs/architecture.md §2). Creating games is in service.creation,
the reads in service.queries."""
from __future__ import annotations

import logging
import secrets
import time
from typing import Callable

from domain import awaiting, bot_level, decide, event_to_dict, fold, public_view, seat_view
from domain.errors import RuleViolation
from domain.state import RESIGNED
from service.creation import GameCreation
from service.decisions import Decision, Folded, decision_rng
from service.errors import Forbidden, Unauthorized
from service.followups import Needs, needs
from service.idempotency import claim_or_wait, fingerprint
from service.keys import idempotency_scope
from service.principal import Principal
from service.records import GameRecord
from service.store import ConcurrencyError
from service.table_events import rules_events

log = logging.getLogger(__name__)
# How long a request without If-Match is re-decided on newer states when other appends win the
# race. Time, not a count: a bot job appends every few ms while it plays, and a human acting
# then (a reclaim while bots play every seat) lost five straight attempts on a loaded machine.
REDECIDE_BUDGET_S = 2.0
# Answers to a buy offer (R6) or to a claim (R11.18), and the events that open or close them.
ANSWERS = ("buy", "pass", "claim")
ASKING_EVENTS = ("OfferOpened", "OfferClosed", "ClaimOpened", "ClaimClosed")
# An append writes the game index only when what it records changes (status, round, whether
# the game waits on the workers), and besides at least once every INDEX_EVERY versions, so a
# lost index write heals and the summary's updated_ms (retention's clock, which counts days)
# stays near the last append. Most appends (a draw, a discard) change none of it; a write is
# two scripts (the summary, then its index shard), and every 50 versions they were a fifth of
# a bot game's Redis round trips (issue 12).
INDEX_EVERY = 500
# What a seat's human may still do while a bot plays the seat (domain.control, rule T5).
CONTROL_ACTIONS = ("reclaim", "resign")


class GameService(GameCreation):
    """The application service of games: creation (service.creation), the commands here,
    the reads of GameReads (service.queries) with its wiring."""

    def act(self, game_id: str, principal: Principal, action: dict,
            idempotency_key: str | None = None, if_match: int | None = None,
            appended: Callable[[], None] | None = None) -> tuple[int, dict]:
        """Apply the caller's `action` (FORMAT.md `do`) for its seat: (version, seat view).

        A retry with the same `idempotency_key` returns the first result and appends nothing.
        With `if_match` the game must be at that version, else ConcurrencyError; without it a
        conflicting append is re-decided on the newer state (e.g. two seats answering a buy
        offer at once). Raises GameNotFound, Unauthorized, Forbidden, RuleViolation,
        ConcurrencyError, IdempotencyKeyReused; RuleViolation T5 while a bot plays the seat
        (taken over, or finishing its timed-out turn): only `reclaim` and `resign` are taken
        then (domain.control). `appended` is called when the action was appended now (not for
        an idempotent replay: the metrics count actions once)."""
        seat = self.seat_of(principal)
        version, state = self.play(game_id, seat, action, idempotency_key, if_match, human=True,
                                   appended=appended)
        return version, self.with_deadline(game_id, version, state,
                                           self._with_origin(game_id, seat_view(state, seat)))

    def play(self, game_id: str, seat: int, action: dict, idempotency_key: str | None = None,
             if_match: int | None = None, known: tuple[int, object] | None = None,
             human: bool = False, appended: Callable[[], None] | None = None
             ) -> tuple[int, object]:
        """`act` for `seat`, returning (version, state) instead of the seat view: for a caller
        that goes on from the state (a bot job; `human` for the seat's human, refused while a
        bot plays the seat). `known` is the (version, state) the caller already holds (what
        its last `play` returned), decided on without reading the game again; it needs
        `if_match` equal to its version (the append checks it: a game that moved on raises
        ConcurrencyError). Raises what `act` raises."""
        record = self.records.get(game_id)
        if not 0 <= seat < len(record.seats):
            raise Forbidden(f"Seat {seat} is not a seat of this game.")
        if known is not None and known[0] != if_match:
            raise ValueError("play: `known` must be at the version `if_match` names")
        decision = None
        if human and action.get("type") not in CONTROL_ACTIONS:
            decision = _as_human(game_id, record, seat, action)
        return self._decide_and_append(game_id, record, seat, action, idempotency_key, if_match,
                                       known, decision, appended)

    def control(self, game_id: str, principal: Principal, kind: str,
                idempotency_key: str | None = None) -> tuple[int, dict]:
        """The caller's seat control: `kind` "reclaim" (take back a seat taken over after
        timeouts: SeatReclaimed) or "resign" (a bot plays the seat to the end: SeatTakenOver,
        reason "resigned", final). (version, seat view). Raises GameNotFound, Unauthorized,
        Forbidden (no seat token), RuleViolation (T1, T3, T4, R9.4; domain.control),
        IdempotencyKeyReused."""
        return self.act(game_id, principal, {"type": kind}, idempotency_key)

    def abort(self, game_id: str, principal: Principal, idempotency_key: str | None = None,
              expected_version: int | None = None) -> tuple[int, dict]:
        """Stop the game (GameAborted, status "aborted": nothing more may be appended, every
        action is refused with T1): the game's admin token or the server admin key only.
        (version, public table). Raises GameNotFound, Unauthorized, Forbidden (not the admin),
        RuleViolation (T1 aborted already, R9.4 finished, L1 an expired lobby),
        IdempotencyKeyReused; ConcurrencyError when `expected_version` is given and the game
        moved past it."""
        if not principal.admin:
            if not principal.holds_token:
                raise Unauthorized("Aborting a game needs its admin token or the server admin "
                                   "key.")
            raise Forbidden("Only the game's admin token or the server admin key may abort it.")
        record = self.records.get(game_id)
        # The caller's key is scoped apart from the system's own (a deadline's `deadline-<v>`).
        key = None if idempotency_key is None else f"abort:{idempotency_key}"
        version, state = self._decide_and_append(game_id, record, None, {"type": "abort"}, key,
                                                 expected_version)
        return version, self.with_deadline(game_id, version, state, public_view(state))

    def decide_at(self, game_id: str, action: dict, expected_version: int, key: str | None,
                  decision: Decision,
                  known: tuple[int, object] | None = None) -> tuple[int, object]:
        """Append what `decision(state, version)` decides for the system `action` at exactly
        `expected_version`, under the system idempotency `key` if any (a deadline:
        service.timeouts; a bot turn: workers.jobs), deciding on `known` (see `play`) when
        given. (version, state). Raises ConcurrencyError when the game moved on,
        RuleViolation."""
        record = self.records.get(game_id)
        return self._decide_and_append(game_id, record, None, action, key, expected_version,
                                       known, decision)

    def decide_system(self, game_id: str, action: dict, idempotency_key: str | None = None,
                      decision: Decision | None = None) -> tuple[int, object]:
        """Append what the system `action` decides (a lobby's join, start or expiry:
        service.lobby) on the game's latest state, re-decided when another append wins the
        race, under the caller's `idempotency_key` (scoped "system:"; the caller prefixes it
        with the action). (version, state). Raises GameNotFound, RuleViolation,
        IdempotencyKeyReused, IdempotencyInProgress."""
        record = self.records.get(game_id)
        return self._decide_and_append(game_id, record, None, action, idempotency_key, None,
                                       decision=decision)

    def system_act(self, game_id: str, action: dict, expected_version: int) -> tuple[int, object]:
        """Apply a system action (`score_round`, `close_offer`; seat None) decided at
        `expected_version`, for workers: (version, state). Raises ConcurrencyError when the game
        moved on, RuleViolation when nothing awaits the action."""
        record = self.records.get(game_id)
        return self._decide_and_append(game_id, record, None, action, None, expected_version)

    def _decide_and_append(self, game_id: str, record: GameRecord, seat: int | None, action: dict,
                           key: str | None, if_match: int | None,
                           known: tuple[int, object] | None = None,
                           decision: Decision | None = None,
                           appended: Callable[[], None] | None = None) -> tuple[int, object]:
        """Decide and append under the idempotency key, if any: claimed first (docs/service.md
        "Idempotency"), so that of requests racing with one key only one is decided; the
        others get its answer, or IdempotencyInProgress when it takes longer than
        service.idempotency.CLAIM_WAIT_S; a key standing for another request is
        IdempotencyKeyReused before any rule is checked. A request that appends nothing
        releases the key. `known`: the (version, state) to decide on first (see `play`);
        `decision`: what decides instead of domain.decide (see `decide_at`); `appended`: called
        once the action is appended (never for a replay)."""
        if key is None:  # no key, no fingerprint (the store keeps it only with a key)
            outcome = self._decide(game_id, record, seat, action, if_match, "", known=known,
                                   decision=decision)
        else:
            stamp = fingerprint(seat, action)
            key, claim = idempotency_scope(seat, key), secrets.token_hex(8)
            seen = claim_or_wait(self.store, game_id, key, stamp, claim)
            if seen is not None:
                return self.load(game_id, upto=seen)
            try:
                outcome = self._decide(game_id, record, seat, action, if_match, stamp, key, claim,
                                       known, decision)
            finally:
                self.store.release(game_id, key, claim)
        if appended is not None:
            appended()
        return outcome

    def _decide(self, game_id: str, record: GameRecord, seat: int | None, action: dict,
                if_match: int | None, stamp: str, key: str | None = None, claim: str = "",
                known: tuple[int, object] | None = None,
                decision: Decision | None = None) -> tuple[int, object]:
        """Load, check `if_match`, decide, append (re-decided on a conflict without If-Match,
        for up to REDECIDE_BUDGET_S)."""
        first, ends = None, time.monotonic() + REDECIDE_BUDGET_S
        while True:
            version, state = known or self.load(game_id)
            if if_match is not None and if_match != version:
                raise ConcurrencyError(if_match, version)
            if first is None:
                first = version
            elif (action.get("type") in ANSWERS and "card" not in action
                  and self._asking_changed(game_id, first)):
                # A buy/pass/claim answers the offer or claim the caller saw: never re-decide
                # it on another (R6.1, R11.18), the caller must look again. One naming its
                # card is decided again: refused unless that card is offered, never a 409.
                raise ConcurrencyError(first, version)
            after, at = None, state.events_folded  # `version`, but for the table events
            if decision is None:
                events = decide(state, seat, action, decision_rng(record.rng_seed, at))
            else:
                events = decision(state, at)
                if isinstance(events, Folded):
                    events, after = events.events, events.state
            if not events:
                return version, state
            try:
                result = self.store.append(game_id, [event_to_dict(e) for e in events], version,
                                           key, stamp, claim)
            except ConcurrencyError:
                if if_match is not None or time.monotonic() > ends:
                    raise
                continue
            if result.duplicate:
                return self.load(game_id, upto=result.version)
            return result.version, self._appended(record, version, state, events,
                                                  recorded_at=result.recorded_at, after=after)

    def _asking_changed(self, game_id: str, since: int) -> bool:
        """Whether an offer or a claim was opened or closed after version `since`."""
        return any(e.type in ASKING_EVENTS for e in self.store.read(game_id, after=since))

    def _appended(self, record: GameRecord, before: int, state: object, events: list,
                  created: bool = False, recorded_at: int | None = None,
                  after: object = None) -> object:
        """After an append to `record`'s game (its events recorded at `recorded_at` ms):
        cache, index, log, deadline, follow-ups, projections. `after`: the state after the
        events when the decision folded them already (Folded). Failures here are logged, never
        raised: the append stands (the sweeper re-enqueues missing follow-ups and deadlines,
        DESIGN §5)."""
        game_id, version = record.id, before + len(events)
        previous = state
        state = fold(rules_events(events), state) if after is None else after
        self.loader.remember(game_id, version, state, folded=len(events))
        if log.isEnabledFor(logging.INFO):  # the names are joined only for a line written
            log.info("appended game=%s version=%s events=%s", game_id, version,
                     ",".join(type(e).__name__ for e in events))
        try:
            need = needs(state, record.bot_seats(state))
            if (created or before // INDEX_EVERY != version // INDEX_EVERY
                    or _indexed(state, need)
                    != _indexed(previous, needs(previous, record.bot_seats(previous)))):
                self.index_game(game_id, version, state, need,
                                record.created_ms if created else None)
        except Exception:
            log.exception("index update failed game=%s version=%s", game_id, version)
        try:  # a game of bots only never has a deadline (no human owes anything): skip it
            if not record.all_bots:
                self.schedule_deadline(game_id, version, state, (events, recorded_at))
        except Exception:
            log.exception("deadline update failed game=%s version=%s", game_id, version)
        try:
            self.enqueue_followups(game_id, version, state)
        except Exception:
            log.exception("follow-up enqueue failed game=%s version=%s", game_id, version)
        try:  # the player index and webhooks (service.projections)
            self.after_append(record, version, previous, state, events, recorded_at)
        except Exception:
            log.exception("projection failed game=%s version=%s", game_id, version)
        return state

    def schedule_deadline(self, game_id: str, version: int, state: object,
                          appended: tuple[list, int | None] = ([], None)) -> None:
        """Put the game's deadline at `version` in the workers' sorted set (service.clock),
        or take it out when nothing is awaited from a human; forget a game that is over.
        `appended`: see GameReads.deadline."""
        if self.schedule is None:
            return
        if awaiting(state).status in ("finished", "aborted", "expired"):
            self.schedule.forget(game_id)
            return
        if appended[1] is None:
            appended = ([], None)
        due = self.deadline(game_id, version, state, appended)
        self.schedule.set(game_id, version, None if due is None else due.due_ms,
                          since=version - len(appended[0]) if appended[0] else None)

    def index_game(self, game_id: str, version: int, state: object, need: Needs,
                   created_ms: int | None = None) -> None:
        """Record the game at `version` in the index: its status, round, and whether it waits
        on the workers (`need`, the sweeper's list); `created_ms` lists a new game."""
        self.index.update(game_id, version, awaiting(state).status, _round(state), created_ms,
                          waiting=need != Needs())


def _indexed(state: object, need: Needs) -> tuple:
    """What the game index records of `state`: (status, round, waits on the workers)."""
    return awaiting(state).status, _round(state), need != Needs()


def _as_human(game_id: str, record: GameRecord, seat: int, action: dict) -> Decision:
    """decide for `seat`'s human: refused (T5) while a bot plays the seat."""
    def decision(state: object, version: int) -> list:
        if bot_level(state, seat) is not None and awaiting(state).status == "playing":
            how = _why_a_bot_plays(game_id, seat, state.taken_over[seat])
            raise RuleViolation("T5", f"Your seat does not take actions now: {how}.")
        return decide(state, seat, action, decision_rng(record.rng_seed, version))
    return decision


def _why_a_bot_plays(game_id: str, seat: int, taken_over: object) -> str:
    """The end of a T5 refusal: resigned (final, T3), taken over after timeouts (reclaim),
    or a timed-out turn a bot is finishing (`taken_over` None)."""
    if taken_over is None:
        return "its turn timed out and a bot is finishing that turn"
    if taken_over.reason == RESIGNED:
        return "you resigned it, and a resignation is final"
    return (f"a bot plays it since it was taken over: POST /v1/games/{game_id}/seats/{seat}/"
            "reclaim to play it again")


def _round(state: object) -> int | None:
    """The number of the state's current round (None before the first deal)."""
    return getattr(getattr(state, "round", None), "number", None)
