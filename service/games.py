"""GameService: load -> fold -> decide -> append (expected version, idempotency) -> enqueue
follow-up jobs (DESIGN §3, docs/architecture.md §2). The reads are in service.queries."""
from __future__ import annotations

import dataclasses
import hashlib
import hmac
import logging
import random
import secrets
import time
from collections import Counter
from typing import Callable

from domain import (awaiting, bot_level, decide, event_from_dict, event_to_dict,
                    fold, full_deck, public_view, seat_view, start_from_position, start_game)
from domain.cards import physical_card
from domain.errors import RuleViolation
from domain.events import EVENT_TYPES
from domain.lobby import open_lobby
from service.clock import clock_event
from service.errors import Forbidden, Unauthorized
from service.followups import Needs, needs
from service.idempotency import claim_or_wait, fingerprint
from service.keys import idempotency_scope
from service.principal import Principal
from service.profiles import table_profile
from service.queries import RECORD_FORMAT, GameReads
from service.records import VISIBILITIES, GameRecord
from service.seating import seat_specs
from service.store import ConcurrencyError
from service.tokens import is_admin_key, new_token, token_hash

log = logging.getLogger(__name__)
# How long a request without If-Match is re-decided on newer states when other appends win the
# race. Time, not a count: a bot job appends every few ms while it plays, and a human acting
# then (a reclaim while bots play every seat) lost five straight attempts on a loaded machine.
REDECIDE_BUDGET_S = 2.0
OFFER_ANSWERS = ("buy", "pass")
OFFER_EVENTS = ("OfferOpened", "OfferClosed")
# An append writes the game index only when what it records changes (status, round, whether
# the game waits on the workers), and besides at least once every INDEX_EVERY versions, so a
# lost index write heals and the summary's version stays near the stream's. Most appends
# (a draw, a discard) change none of it: their index write was a script of ~10 commands.
INDEX_EVERY = 50
# What a seat's human may still do while a bot plays the seat (domain.control, rule T5).
CONTROL_ACTIONS = ("reclaim", "resign")
# decide's stand-in for a decision of several steps: (state, version) -> events, or Folded.
Decision = Callable[[object, int], "list | Folded"]


@dataclasses.dataclass(frozen=True)
class Folded:
    """What a decision that folded its own events as it went returns (service.bot_turns):
    `events` and the `state` after them, so the append does not fold them a second time."""

    events: list
    state: object


def seeded_rng_seed(secret: str, seed: int, game_id: str | None = None) -> str:
    """The decision seed of a game created with the client's `seed`, in hex
    (docs/architecture.md §2 "Seeds", docs/threat-model.md).

    With `game_id` (a seed given without the server admin key): HMAC-SHA256(server secret,
    f"{game_id}:{seed}"), so no two games share a deal and a finished game's replay tells
    nothing of another game with the same seed (issue 7 item 1). Without (the server admin
    key's seeds): HMAC-SHA256(server secret, str(seed)), the same deals on a server with the
    same secret. The seed alone never reveals the cards."""
    message = str(seed) if game_id is None else f"{game_id}:{seed}"
    return hmac.new(secret.encode(), message.encode(), hashlib.sha256).hexdigest()


def new_game_id() -> str:
    """A fresh game id: 16 hex digits (64 bits from `secrets`)."""
    return secrets.token_hex(8)


def decision_rng(rng_seed: str, expected_version: int) -> random.Random:
    """The RNG of the decision taken at `expected_version` (docs/architecture.md §2 "Seeds")."""
    return random.Random(f"{rng_seed}:{expected_version}")


class GameService(GameReads):
    """The application service of games; see GameReads for the wiring and the queries."""

    def create_game(self, seats: list[dict], profile: str | dict = "standard", seed: int | None = None,
                    position: dict | None = None, admin_key: str | None = None,
                    clock: dict | None = None, visibility: str = "public",
                    auto_start: bool = False, host: str | None = None,
                    webhook_url: str | None = None) -> dict:
        """Create a game: `{"id", "version", "admin_token", "seats": [{"seat", "kind", "name",
        "level", "token" (human seats, shown once)}]}`.

        `seats`: `{"kind": "human"|"bot", "name"?, "level"? ("random"|"basic"|"strong", bots)}`
        per seat (3-8, R1.1, R11.1). `profile`: a preset name or options object (R11.20;
        the seats set `players`, service.profiles). `seed`: with the server admin key (`admin_key`) the deals are
        reproducible on a server with the same secret (RUMMY_SECRET), the decision seed being
        `seeded_rng_seed(secret, seed)`; without it the seed is mixed with the new game's id,
        so no two games share a deal (docs/threat-model.md). `position` (FORMAT.md) needs the
        server admin key. `clock`: the turn clock (service.clock.clock_event: a partial object
        takes the defaults), recorded as a ClockSet event right after the game's first event.
        Seats of kind "open" make a lobby game (domain.lobby, service.lobby): it waits, no card
        dealt, until it is started (or, with `auto_start`, its last open seat is taken).
        `visibility`: one of service.records.VISIBILITIES. `host`: the admin token hash of the
        game a rematch follows (service.rematch): the new game keeps it, its origin is
        "rematch", and its human seats get their tokens later (service.grants), so the answer
        holds no token. `webhook_url`: the game's own webhook receiver (docs/players.md; the
        caller checked who may set it).
        Raises UnsupportedProfile, ValueError (naming a bad clock field; open seats with a
        position), RuleViolation (position), Forbidden (position without the admin key)."""
        rule_profile = table_profile(profile, seats)
        timing = clock_event(clock, self.offer_deadline_s)
        specs = seat_specs(seats, rule_profile.players)
        game_id, server_admin = new_game_id(), is_admin_key(admin_key, self.admin_key)
        if seed is None:
            rng_seed, origin = secrets.token_hex(16), "random"
        else:
            rng_seed = seeded_rng_seed(self.secret, seed, None if server_admin else game_id)
            origin = "seeded"
        rng = decision_rng(rng_seed, 0)
        if position is not None:
            if not server_admin:
                raise Forbidden("Starting from a position needs the server admin key.")
            events, origin = start_from_position(position, rng), "position"
        else:
            events = start_game(rule_profile, len(specs), rng, seed=rng_seed)
        events = [events[0], timing, *events[1:]]  # the clock right after the game's start
        levels = tuple(s["level"] if s["kind"] == "open" else None for s in specs)
        if any(levels):
            if position is not None:
                raise ValueError("a game from a position has no open seat")
            events = open_lobby(events, levels, auto_start)
        if host is not None:
            origin = "rematch"
        if webhook_url is not None:  # before the first append: its events are delivered there
            self.webhooks.set_game_url(game_id, webhook_url)
        return self._create(game_id, specs, [event_to_dict(e) for e in events], rng_seed, origin,
                            visibility, host)

    def import_game(self, record: dict, admin_key: str | None) -> dict:
        """Re-create an exported game (service.queries export format) under a new id, with new
        tokens, so it can be replayed; returns what create_game returns. Raises Forbidden
        without the server admin key, ValueError for a record that is not one."""
        if not is_admin_key(admin_key, self.admin_key):
            raise Forbidden("Importing a game needs the server admin key.")
        if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
            raise ValueError(f"not a {RECORD_FORMAT} record")
        events = record.get("events")
        if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
            raise ValueError("the record's events must be a list of events")
        if not events or [e.get("version") for e in events] != list(range(1, len(events) + 1)):
            raise ValueError("the record's events must be numbered 1, 2, ... without a gap")
        raw = [{k: e[k] for k in ("type", "schema", "data") if k in e} for e in events]
        if raw[-1].get("type") != "GameEnded":
            raise ValueError(f"only a finished game's record can be imported: its last event "
                             f"(version {len(raw)}) must be GameEnded, not "
                             f"{str(raw[-1].get('type'))[:40]}")
        state = _fold_record(raw)
        if not _conserves_deck(state):
            raise ValueError("the record's events do not keep the cards of the deck, each "
                             "in one place (R1.2, R1.4, R11.3)")
        specs = seat_specs(record.get("seats"), state.seats)
        if any(spec["kind"] == "open" for spec in specs):
            raise ValueError("a finished game's record has no open seat")
        return self._create(new_game_id(), specs, raw, secrets.token_hex(16), "import")

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
        seat = self._seat_of(principal)
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
        RuleViolation (T1 aborted already, R9.4 finished), IdempotencyKeyReused;
        ConcurrencyError when `expected_version` is given and the game moved past it."""
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
        stamp = fingerprint(seat, action)
        if key is None:
            outcome = self._decide(game_id, record, seat, action, if_match, stamp, known=known,
                                   decision=decision)
        else:
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
            elif (action.get("type") in OFFER_ANSWERS and "card" not in action
                  and self._offer_changed(game_id, first)):
                # A buy/pass answers the offer the caller saw: never re-decide it on another
                # offer (R6.1), the caller must look again. One naming its card is decided
                # again: refused (R6.1) unless that card is on offer, never a 409.
                raise ConcurrencyError(first, version)
            after = None
            if decision is None:
                events = decide(state, seat, action, decision_rng(record.rng_seed, version))
            else:
                events = decision(state, version)
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

    def _offer_changed(self, game_id: str, since: int) -> bool:
        """Whether an offer was opened or closed after version `since`."""
        return any(e.type in OFFER_EVENTS for e in self.store.read(game_id, after=since))

    def _create(self, game_id: str, specs: list[dict], events: list[dict], rng_seed: str,
                origin: str, visibility: str = "public", admin_hash: str | None = None) -> dict:
        """Record and append a new game; `admin_hash`: the admin token's hash to keep (a
        rematch keeps its host's), else a new admin token is returned."""
        if visibility not in VISIBILITIES:
            raise ValueError(f"visibility must be one of {', '.join(VISIBILITIES)}")
        created_ms = int(time.time() * 1000)
        tokens = {} if admin_hash else {s["seat"]: new_token() for s in specs
                                        if s["kind"] == "human"}
        admin_token = None if admin_hash else new_token()
        record = GameRecord(
            id=game_id, seats=tuple(specs), created_ms=created_ms, rng_seed=rng_seed,
            admin_hash=admin_hash or token_hash(admin_token), origin=origin,
            seat_hashes={seat: token_hash(token) for seat, token in tokens.items()},
            visibility=visibility)
        self.records.put(record)
        if visibility != "public":  # never listed, not even for the moment before this
            self.index.unlist(game_id, created_ms)
        result = self.store.append(game_id, events, 0)
        self._appended(record, 0, None, [event_from_dict(e) for e in events], created=True,
                       recorded_at=result.recorded_at)
        seats = [{**spec, **({"token": tokens[spec["seat"]]} if spec["seat"] in tokens else {})}
                 for spec in specs]
        created = {"id": game_id, "version": len(events), "seats": seats, "visibility": visibility}
        return created if admin_token is None else {**created, "admin_token": admin_token}

    def _appended(self, record: GameRecord, before: int, state: object, events: list,
                  created: bool = False, recorded_at: int | None = None,
                  after: object = None) -> object:
        """After an append to `record`'s game (its events recorded at `recorded_at` ms):
        cache, index, log, deadline, follow-ups, projections. `after`: the state after the
        events when the decision folded them already (Folded). Failures here are logged, never
        raised: the append stands (the sweeper re-enqueues missing follow-ups and deadlines,
        DESIGN §5)."""
        game_id, version = record.id, before + len(events)
        previous, state = state, fold(events, state) if after is None else after
        self.loader.remember(game_id, version, state, folded=len(events))
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
        try:
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
        if bot_level(state, seat) is not None:
            how = ("a bot plays it since it was taken over: POST /v1/games/"
                   f"{game_id}/seats/{seat}/reclaim to play it again"
                   if state.taken_over[seat] is not None
                   else "its turn timed out and a bot is finishing that turn")
            raise RuleViolation("T5", f"Your seat does not take actions now: {how}.")
        return decide(state, seat, action, decision_rng(record.rng_seed, version))
    return decision


def _fold_record(raw: list[dict]) -> object:
    """The state after a record's events. Raises ValueError naming the first event that is not
    an event of this code or does not follow from the ones before it (never Python's own
    message: a record is client input)."""
    events = [_record_event(version, event) for version, event in enumerate(raw, 1)]
    try:
        return fold(events)
    except Exception:  # noqa: BLE001 - find the event, below
        pass
    state = None
    for version, event in enumerate(events, 1):
        try:
            state = fold((event,), state)
        except Exception as error:  # noqa: BLE001 - any error of the fold is a bad record
            rule = f" ({error.rule}: {error.message})" if isinstance(error, RuleViolation) else ""
            raise ValueError(f"event {version} ({type(event).__name__}) does not follow from "
                             f"the events before it{rule}") from None
    return state


def _record_event(version: int, raw: dict) -> object:
    """The domain event of a record's `raw` event. Raises ValueError naming the event."""
    name = raw.get("type")
    cls = EVENT_TYPES.get(name) if isinstance(name, str) else None
    if cls is None:
        raise ValueError(f"event {version}: {str(name)[:40]!r} is not an event type")
    schema = raw.get("schema", 1)
    if not isinstance(schema, int) or not 1 <= schema <= cls.SCHEMA:
        raise ValueError(f"event {version} ({name}): schema {str(schema)[:20]} is not one "
                         f"this server reads (1 to {cls.SCHEMA})")
    try:
        return event_from_dict(raw)
    except Exception:  # noqa: BLE001 - a record is client input: name the event, not the error
        names = ", ".join(f.name for f in dataclasses.fields(cls))
        raise ValueError(f"event {version} ({name}): its data must be an object with the "
                         f"fields of {name} schema {cls.SCHEMA} ({names})") from None


def _conserves_deck(state: object) -> bool:
    """Whether the state's round holds the cards of the profile's deck, each once (R1.2, R1.4,
    R11.3)."""
    rnd = getattr(state, "round", None)
    if rnd is None:
        return True
    try:
        cards = Counter(rnd.stock) + Counter(rnd.discard)
        for hand in rnd.hands:
            cards.update(hand)
        for meld in rnd.melds:
            cards.update(physical_card(entry) for entry in meld.cards)
    except Exception:  # noqa: BLE001 - cards that are not card codes: not the deck
        return False
    profile = state.profile
    return cards == Counter(full_deck(profile.packs, profile.jokers))


def _round(state: object) -> int | None:
    """The number of the state's current round (None before the first deal)."""
    return getattr(getattr(state, "round", None), "number", None)
