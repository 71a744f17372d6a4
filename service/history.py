"""The history reads of GameService: the table at any version or moment (replay, DESIGN
§2.5) and the record of a whole game (export), each shown as the caller may see it
(docs/threat-model.md)."""
from __future__ import annotations

from domain import awaiting, full_view, public_view, seat_view
from service.clock import rfc3339
from service.errors import Forbidden, Unauthorized
from service.principal import Principal
from service.table_events import is_table_event
from service.table_events import as_seen as table_event_as_seen

RECORD_FORMAT = "contract-rummy/game-record"
RECORD_FORMAT_VERSION = 1


class GameHistory:
    """Replay and export: a part of service.queries.GameReads, whose `store`, `records`,
    `load`, `with_deadline` and `_with_origin` they use."""

    def replay(self, game_id: str, principal: Principal, version: int | None = None,
               at_ms: int | None = None) -> dict:
        """The table after event `version`, or after the last event recorded at or before
        `at_ms` (ms since the epoch) (DESIGN §2.5), with `"version"`, that event's
        `"recorded_at"` and the game's `origin`: the full table for a finished game or the
        server admin key (its decision `seed` only for those the export would show it to: the
        server admin key and a token of the game), the caller's seat view at that version for
        a seat, the public view for no token and for the game's admin token of a live game
        (docs/threat-model.md).
        Raises GameNotFound, ValueError (no such version, no event that early, or neither or
        both given)."""
        current, now = self.load(game_id)
        if (version is None) == (at_ms is None):
            raise ValueError("give either version or at")
        if at_ms is not None:
            version = self._version_at(game_id, at_ms)
        if not 1 <= version <= current:
            raise ValueError(f"version must be between 1 and {current}")
        recorded = self.store.read(game_id, after=version - 1, upto=version)[0].recorded_at
        _, state = self.load(game_id, upto=version)
        if principal.server or awaiting(now).status == "finished":
            view = full_view(state)
            if not (principal.server or principal.holds_token):
                view["seed"] = None  # the decision seed: as the export, for a token of the game
        elif principal.seat is not None:
            view = seat_view(state, principal.seat)
        else:
            view = public_view(state)
        view = self.with_deadline(game_id, version, state, self._with_origin(game_id, view))
        return {**view, "version": version, "recorded_at": rfc3339(recorded)}

    def _version_at(self, game_id: str, at_ms: int) -> int:
        """The last version recorded at or before `at_ms`. Raises ValueError when the game's
        first event is later."""
        found = 0
        for event in self.store.read(game_id):
            if event.recorded_at is None or event.recorded_at > at_ms:
                break
            found = event.version
        if not found:
            raise ValueError(f"the game has no event recorded at or before {rfc3339(at_ms)}")
        return found

    def export(self, game_id: str, principal: Principal) -> dict:
        """The full record of a finished game (the server admin key: any game): `{"format",
        "format_version", "id", "created_ms", "seats", "version", "events": [{"version",
        "type", "schema", "data"}]}`. No token hash; the events are whole, so `GameCreated`
        carries the game's decision seed (harmless once the game is over; a seeded game's seed
        is an HMAC of the client's seed, docs/architecture.md §2 "Seeds"), but a table event's
        player id is null but for the server admin key (service.table_events). Raises GameNotFound,
        Unauthorized (no token), Forbidden (a seat's or the game's admin token of a game not
        finished)."""
        record = self.records.get(game_id)
        if not principal.server:
            if not principal.holds_token:
                raise Unauthorized("Exporting a game needs a token of that game.")
            if not self._finished(game_id):
                raise Forbidden("Only a finished game can be exported (a live one only with "
                                "the server admin key).")
        events = [{**(table_event_as_seen(event.to_dict(), principal.server)
                      if is_table_event(event.type) else event.to_dict()),
                   "recorded_at": rfc3339(event.recorded_at)}
                  for event in self.store.read(game_id)]
        return {"format": RECORD_FORMAT, "format_version": RECORD_FORMAT_VERSION, "id": game_id,
                "created_ms": record.created_ms,
                "seats": record.public_seats(self.load(game_id)[1]),
                "version": events[-1]["version"] if events else 0, "events": events}

    def _finished(self, game_id: str) -> bool:
        """Whether the game is finished (it never goes back). Raises GameNotFound."""
        return awaiting(self.load(game_id)[1]).status == "finished"
