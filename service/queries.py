"""The read side of GameService: views, the event feed, replay, export, listing
(docs/architecture.md §2). Every read folds at most the tail after a snapshot. Replay and
export are in service/history.py."""
from __future__ import annotations

from typing import Callable

from domain import RuleProfile, public_view, redact, seat_view
from service.archive import Archive
from service.clock import (Deadline, DeadlineCache, DeadlineSchedule, ServerClock, deadline,
                           recent_events, rfc3339)
from service.config import Settings
from service.errors import Forbidden, Unauthorized
from service.grants import Grants, GrantStore
from service.history import GameHistory
from service.index import GameIndex
from service.integration_config import IntegrationSettings
from service.loading import GameLoader
from service.principal import Principal, authenticate
from service.records import GameRecord, RecordStore
from service.stats import RedisStats
from service.store import EventStore
from service.stream_leases import StreamLeases
from service.table_events import is_table_event
from service.table_events import as_seen as table_event_as_seen

Followups = Callable[[str, int, object], None]
PROFILES_KEPT = 4096  # games whose rule profile a process keeps (a few hundred bytes each)


class GameReads(GameHistory):
    """Queries of games; the wiring shared with the commands of service.games.GameService.
    The history reads (replay, export) are service.history.GameHistory's.

    `store`: the EventStore; `loader`: state from snapshots + tail; `records`: seating and
    token hashes; `index`: the listing; `admin_key`: RUMMY_ADMIN_KEY (None refuses admin-only
    requests); `enqueue_followups(game_id, version, state)`: called after every append;
    `max_wait_s`: cap of a long poll in seconds; `secret`: the server secret seeded games'
    decision seeds are derived from (service.config.Settings.secret, RUMMY_SECRET);
    `archive`: where retention put the games it removed (RUMMY_ARCHIVE_DIR; None: none);
    `stats()`: the RedisStats of the service's Redis for /metrics (raises redis.RedisError when
    Redis cannot answer; None: not available);
    `leases`: the caps' count of open streams (service.stream_leases; None: no caps);
    `schedule`: the due deadlines the workers poll (service.clock; None: deadlines are shown
    but nobody is told, for tests without workers); `offer_deadline_s`: the offer deadline of a
    game created without a clock (RUMMY_OFFER_DEADLINE_S); `grants`: the tokens granted after
    a game's creation (service.grants; None: none are).
    """

    def __init__(self, store: EventStore, loader: GameLoader, records: RecordStore,
                 index: GameIndex, admin_key: str | None = None,
                 enqueue_followups: Followups = lambda game_id, version, state: None,
                 max_wait_s: float = 30.0, ping: Callable[[], bool] = lambda: True,
                 secret: str | None = None, archive: Archive | None = None,
                 stats: Callable[[], RedisStats] | None = None,
                 leases: StreamLeases | None = None,
                 schedule: DeadlineSchedule | None = None, offer_deadline_s: float = 15.0,
                 grants: GrantStore | None = None) -> None:
        self.store, self.loader, self.records, self.index = store, loader, records, index
        self._profiles: dict[str, RuleProfile] = {}  # game id -> its rule profile (_profile)
        self.archive = archive
        self.stats = stats
        self.leases = leases
        self.admin_key = admin_key
        self.enqueue_followups = enqueue_followups
        self.max_wait_s = max_wait_s
        self.ping = ping
        self.secret = secret or Settings().secret
        self.schedule = schedule
        self.offer_deadline_s = offer_deadline_s
        self.grants = grants
        self._deadlines = DeadlineCache()
        self.clock = ServerClock(schedule)
        # Set by service.bootstrap: the per-player index, the players who joined open seats,
        # the webhook outbox, the integrator's
        # settings, the JWT verifier, and the projections run after each append (service.projections).
        self.players = None
        self.joined = None
        self.webhooks = None
        self.integration = IntegrationSettings()
        self.identity = None
        self.after_append = lambda record, version, previous, state, events, recorded_at: None

    def authenticate(self, game_id: str, bearer: str | None,
                     given_key: str | None = None) -> Principal:
        """The caller of `game_id` with `bearer` token and `given_key` (an X-Admin-Key header;
        service.principal.authenticate). Raises GameNotFound, Unauthorized."""
        return authenticate(self.records.get(game_id), bearer, self.admin_key, given_key,
                            self._grants_of(game_id))

    def _grants_of(self, game_id: str):
        """A reader of the game's granted tokens (service.grants), read only when called."""
        if self.grants is None:
            return Grants
        return lambda: self.grants.get(game_id)

    def load(self, game_id: str, upto: int | None = None,
             near: int | None = None) -> tuple[int, object]:
        """(version, GameState) of the game, after event `upto` if given; `near`: the version
        the caller expects it at, a hint (service.snapshots.Snapshots.load). Raises
        GameNotFound."""
        return self.loader.load(game_id, upto, near)

    def archived(self, game_id: str) -> bool:
        """Whether `game_id` left Redis for the archive (service.retention): False without an
        archive or when the archive cannot be read (the caller then answers as for an unknown
        game)."""
        if self.archive is None:
            return False
        try:
            return self.archive.exists(game_id)
        except OSError:
            return False

    def forget(self, game_id: str) -> None:
        """Drop `game_id` from this process's caches (snapshots, records): it left Redis."""
        self.loader.snapshots.forget(game_id)
        self.records.forget(game_id)

    def record(self, game_id: str) -> GameRecord:
        """The game's seating record. Raises GameNotFound."""
        return self.records.get(game_id)

    def bot_seats(self, game_id: str, state=None) -> tuple[int, ...]:
        """The seats a bot plays (with `state`: also those the clock or a resignation handed
        to a bot, GameRecord.bot_seats). Raises GameNotFound."""
        return self.records.get(game_id).bot_seats(state)

    def deadline(self, game_id: str, version: int, state,
                 appended: tuple[list, int | None] = ([], None)) -> Deadline | None:
        """The deadline of what the game at `version` (folded: `state`) awaits from its
        humans (service.clock.deadline), or None. `appended`: the domain events that led to
        `version` and their recorded_at, so a deadline starting there needs no read."""
        record = self.records.get(game_id)

        def compute() -> Deadline | None:
            events, at = appended
            fresh = [(type(event).__name__, at) for event in reversed(events)]
            return deadline(state, record.human_seats(state), _lazy(fresh, self.store, game_id,
                                                                    version - len(events)),
                            self.offer_deadline_s)
        return self._deadlines.get(game_id, version, compute)

    def with_deadline(self, game_id: str, version: int, state, view: dict) -> dict:
        """`view` with `awaiting.deadline`: RFC 3339 UTC (ms) of the deadline of what the game
        awaits from a human seat, or None (docs/clock.md)."""
        due = self.deadline(game_id, version, state)
        return {**view, "awaiting": {**view["awaiting"],
                                     "deadline": rfc3339(None if due is None else due.due_ms)}}

    def list_games(self, status: str | None = None, limit: int = 20, cursor: str | None = None) -> dict:
        """One page of games, newest first: `{"items": [...], "next_cursor": str | None}`
        (see service.index.GameIndex.page). Raises ValueError for bad arguments."""
        return self.index.page(status, limit, cursor)

    def public_view(self, game_id: str) -> tuple[int, dict]:
        """(version, the public table: no hand, no stock order; with the game's `origin`).
        Raises GameNotFound."""
        version, state = self.load(game_id)
        return version, self.public_table(game_id, version, state)

    def public_table(self, game_id: str, version: int, state) -> dict:
        """The public table of the game at `version` (folded: `state`), as public_view shows
        it: for an answer that must show the state its request made (a retried start)."""
        return self.with_deadline(game_id, version, state,
                                  self._with_origin(game_id, public_view(state)))

    def seat_view(self, game_id: str, principal: Principal) -> tuple[int, dict]:
        """(version, the caller's seat view with its legal actions). Raises GameNotFound,
        Unauthorized (no token), Forbidden (a token without a seat: the admin's)."""
        seat = self.seat_of(principal)
        version, state = self.load(game_id)
        return version, self.with_deadline(game_id, version, state,
                                           self._with_origin(game_id, seat_view(state, seat)))

    def events(self, game_id: str, principal: Principal, after: int = 0, wait_s: float = 0,
               limit: int | None = None) -> list[dict]:
        """The events after version `after`, as the caller may see them (DESIGN §2.4): redacted
        for a seat or the public (the game's admin token too while the game is live), whole
        for the server admin key and, once the game is finished, for the game's admin token
        (docs/threat-model.md); a table event's player id only for the server admin key
        (service.table_events.as_seen). Each carries `"version"`. With `wait_s` > 0 it blocks
        up to that many seconds (capped at `max_wait_s`) until one exists, and returns what there is
        at once while draining (shutdown). At most `limit` events (None: all). Raises
        GameNotFound."""
        self.records.get(game_id)
        wait_s = min(max(wait_s, 0), self.max_wait_s)
        upto = None if limit is None else after + limit  # versions are consecutive
        stored = (self.store.wait(game_id, after, wait_s)[:limit] if wait_s else
                  self.store.read(game_id, after, upto))
        # Read after the events: a game finished now was finished for each of them too.
        whole = principal.server or (principal.admin and self._finished(game_id))
        profile = None if whole or not stored else self._profile(game_id)
        shown = []
        for event in stored:
            raw = {"type": event.type, "schema": event.schema, "data": event.data}
            if is_table_event(event.type):
                raw = table_event_as_seen(raw, principal.server)
            elif not whole:
                raw = redact(raw, principal.seat, profile)
            shown.append({**raw, "version": event.version,
                          "recorded_at": rfc3339(event.recorded_at)})
        return shown

    def _profile(self, game_id: str) -> RuleProfile:
        """The game's rule profile, from its first event (GameCreated or PositionLoaded):
        dealt hands are redacted by its table size and deal sizes (R11). A game's first event
        never changes, so the profile is kept per process (PROFILES_KEPT games): the listeners
        a move wakes all redact its events, and each used to read the first event again."""
        profile = self._profiles.get(game_id)
        if profile is None:
            first = self.store.read(game_id, after=0, upto=1)
            data = first[0].data if first else {}
            profile = RuleProfile.from_json(data.get("profile") or data.get("position", {}).get(
                "profile"))
            if first:  # an empty read (a game being created) is not kept
                if len(self._profiles) >= PROFILES_KEPT:
                    self._profiles.pop(next(iter(self._profiles)), None)  # the oldest kept
                self._profiles[game_id] = profile
        return profile

    @property
    def draining(self) -> bool:
        """True once `drain` was called: the process is shutting down."""
        return self.store.draining

    def drain(self) -> None:
        """Shutdown: end every wait of `events` now and from now on (EventStore.drain)."""
        self.store.drain()

    def _with_origin(self, game_id: str, view: dict) -> dict:
        """`view` with the game's `origin` (service.records.ORIGINS), so players know whether
        a seed or a position chose their deal."""
        return {**view, "origin": self.records.get(game_id).origin}

    @staticmethod
    def seat_of(principal: Principal) -> int:
        """The seat `principal` plays. Raises Forbidden for a token without a seat (the
        admin's, a spectator's), Unauthorized for no token."""
        if principal.seat is not None:
            return principal.seat
        if principal.holds_token:
            raise Forbidden("This token (the admin's or a spectator's) has no seat; use a seat "
                            "token.")
        raise Unauthorized("This needs a seat token.")


def _lazy(fresh: list, store: EventStore, game_id: str, upto: int):
    """`fresh` (newest first), then the stored events up to `upto`, newest first, read only
    when `fresh` does not hold the start of the wait."""
    yield from fresh
    yield from recent_events(store, game_id, upto)
