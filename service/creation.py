"""Creating games: a new deal (or a lobby, a position, a rematch) and the import of an exported
record, appended as the game's first events (docs/architecture.md §2, docs/threat-model.md
"Seeds"). A part of GameService (service.games), which supplies the wiring of GameReads and
the post-append hook `_appended`."""
from __future__ import annotations

import hashlib
import hmac
import secrets
import time

from domain import event_to_dict, start_from_position, start_game
from domain.lobby import open_lobby
from service.clock import clock_event
from service.decisions import decision_rng
from service.errors import Forbidden
from service.imports import imported_state
from service.profiles import table_profile
from service.history import RECORD_FORMAT
from service.queries import GameReads
from service.records import VISIBILITIES, GameRecord
from service.seating import seat_specs
from service.table_events import RematchOf, event_of, is_table_event
from service.tokens import is_admin_key, new_token, token_hash


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


class GameCreation(GameReads):
    """The creating half of GameService (see there)."""

    def create_game(self, seats: list[dict], profile: str | dict = "standard", seed: int | None = None,
                    position: dict | None = None, admin_key: str | None = None,
                    clock: dict | None = None, visibility: str = "public",
                    auto_start: bool = False, host: str | None = None,
                    webhook_url: str | None = None, rematch_of: str | None = None) -> dict:
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
        holds no token; `rematch_of` names the finished game it follows (a RematchOf table
        event ends the creation's append). `webhook_url`: the game's own webhook receiver
        (docs/players.md; the caller checked who may set it).
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
        if rematch_of is not None:
            events.append(RematchOf(game_id=rematch_of))
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
        if raw[0].get("type") not in ("GameCreated", "PositionLoaded"):
            raise ValueError(f"a record's first event must be GameCreated or PositionLoaded, "
                             f"not {str(raw[0].get('type'))[:40]}")
        last = max((v for v, e in enumerate(raw, 1) if not is_table_event(e.get("type"))),
                   default=len(raw))
        if raw[last - 1].get("type") != "GameEnded":
            raise ValueError(f"only a finished game's record can be imported: its last event "
                             f"(version {last}) must be GameEnded, not "
                             f"{str(raw[last - 1].get('type'))[:40]}")
        state = imported_state(raw)
        if record.get("version") != len(events):  # checked last: an event's fault says more
            raise ValueError(f"the record's version ({str(record.get('version'))[:20]}) must be "
                             f"the number of its events ({len(events)})")
        specs = seat_specs(record.get("seats"), state.seats)
        if any(spec["kind"] == "open" for spec in specs):
            raise ValueError("a finished game's record has no open seat")
        return self._create(new_game_id(), specs, raw, secrets.token_hex(16), "import")

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
        self._appended(record, 0, None, [event_of(e) for e in events], created=True,
                       recorded_at=result.recorded_at)
        seats = [{**spec, **({"token": tokens[spec["seat"]]} if spec["seat"] in tokens else {})}
                 for spec in specs]
        created = {"id": game_id, "version": len(events), "seats": seats, "visibility": visibility}
        return created if admin_token is None else {**created, "admin_token": admin_token}
