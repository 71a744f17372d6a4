"""The lobby: a game whose open seats wait for people before the first deal (docs/lobby.md).

Its events, their fold, and the system actions `join`, `start` and `expire` (seat None: the
service decides them for an anonymous joiner, the host, the sweeper). Pure like every
decision: the service knows who may start and when a lobby has waited too long.

Table rules of this service, cited by the refusals: L1 a game takes people, and starts, only
while it waits (not started, expired or aborted); L2 a join needs an open seat; L3 a waiting
game takes no play (no card is dealt yet).
"""
from __future__ import annotations

import random

from domain.decide_scoring import deal_round
from domain.errors import RuleViolation
from domain.events import Event, GameCreated, RoundDealt, register_event
from domain.events_variants import DeckShuffled
from domain.state import EXPIRED, PLAYING, WAITING, GameState, Lobby

JOIN, START, EXPIRE = "join", "start", "expire"


@register_event
class SeatsOpened(Event):
    """The game waits for people before its first deal: `levels[seat]` is the level of the bot
    that fills the seat if nobody joins it, None for a seat seated at creation; `dealer` the
    first dealer drawn at creation (R2.2); `auto_start`: start when the last open seat is
    taken."""

    levels: tuple
    dealer: int
    auto_start: bool = False


@register_event
class SeatJoined(Event):
    """`name` took open seat `seat` (by the game's join code)."""

    seat: int
    name: str


@register_event
class GameStarted(Event):
    """The waiting game started (`by` "host", or "auto" when its last open seat was taken):
    each seat still open is played by its bot from now on; the first deal follows."""

    by: str


@register_event
class LobbyExpired(Event):
    """Nobody started the waiting game in time: status "expired", nothing follows."""


def open_lobby(events: list[Event], levels: tuple[str | None, ...],
               auto_start: bool = False) -> list[Event]:
    """A new game's events (GameCreated, its ClockSet, RoundDealt) made a lobby game's: the
    deal replaced by SeatsOpened (`levels` per seat, see SeatsOpened), so no card is dealt
    until the game starts. Raises ValueError unless the events begin with GameCreated, end
    with RoundDealt, and some seat is open."""
    if not (events and isinstance(events[0], GameCreated)
            and isinstance(events[-1], (RoundDealt, DeckShuffled))):  # DeckShuffled: R11.19
        raise ValueError("open_lobby: a new game's events (GameCreated ... RoundDealt)")
    if all(level is None for level in levels):
        raise ValueError("open_lobby: no open seat")
    return [*events[:-1], SeatsOpened(levels=tuple(levels), dealer=events[0].first_dealer,
                                      auto_start=auto_start)]


def open_seats(state: GameState) -> tuple[int, ...]:
    """The seats of a waiting game nobody took yet, in order (empty otherwise)."""
    if state.status != WAITING or state.lobby is None:
        return ()
    return tuple(seat for seat, level in enumerate(state.lobby.open) if level is not None)


def require_started(state: GameState) -> None:
    """Raise RuleViolation L3 while the game waits for people, L1 once it expired."""
    if state.status == WAITING:
        raise RuleViolation("L3", "the game has not started: no card is dealt yet")
    if state.status == EXPIRED:
        raise RuleViolation("L1", "the game expired before it started")


def join(state: GameState, seat: None, action: dict, rng: random.Random) -> list[Event]:
    """System action `{"type": "join", "name": str}`: SeatJoined for the first open seat, and
    when that was the last one of an `auto_start` game, GameStarted and the first deal. The
    name is checked by the service (service.seating.seat_name). Raises RuleViolation L1 (not
    waiting) or L2 (no open seat)."""
    _require_waiting(state)
    free = open_seats(state)
    if not free:
        raise RuleViolation("L2", "every seat of this game is taken")
    events: list[Event] = [SeatJoined(seat=free[0], name=str(action.get("name")))]
    if len(free) == 1 and state.lobby.auto_start:
        events += _start(state, "auto", rng)
    return events


def start(state: GameState, seat: None, action: dict, rng: random.Random) -> list[Event]:
    """System action `{"type": "start"}` (the host): GameStarted, then RoundDealt for round 1
    dealt by the dealer drawn at creation from `rng` (R2.3). Raises RuleViolation L1."""
    _require_waiting(state)
    return _start(state, "host", rng)


def expire(state: GameState, seat: None, action: dict, rng: random.Random) -> list[Event]:
    """System action `{"type": "expire"}` (the sweeper, past the lobby's time to live):
    LobbyExpired. Raises RuleViolation L1 when the game no longer waits."""
    _require_waiting(state)
    return [LobbyExpired()]


def lobby_bot_level(state: GameState, seat: int) -> str | None:
    """The level of the bot that plays `seat` because it was left open when the game started,
    or None."""
    return None if state.lobby is None else state.lobby.bots[seat]


def lobby_view(state: GameState) -> dict | None:
    """The lobby as everyone may see it: `{"open": [level or None per seat], "joined": [name
    or None per seat], "auto_start"}`, or None for a game created without open seats."""
    lobby = state.lobby
    if lobby is None:
        return None
    return {"open": list(lobby.open), "joined": list(lobby.joined), "auto_start": lobby.auto_start}


def _require_waiting(state: GameState) -> None:
    if state.status != WAITING:
        raise RuleViolation("L1", f"the game is {state.status}: it takes no one and cannot "
                                  "be started")


def _start(state: GameState, by: str, rng: random.Random) -> list[Event]:
    return [GameStarted(by=by), deal_round(1, state.lobby.dealer, rng, state.profile)]


# -- fold: (game fields, round fields, event) -> (game fields, round fields); domain.fold ----

def _seats_opened(game: dict, rnd: None, e: SeatsOpened) -> tuple[dict, None]:
    seats = game["seats"]
    game["status"] = WAITING
    game["lobby"] = Lobby(open=tuple(e.levels), joined=(None,) * seats, bots=(None,) * seats,
                          dealer=e.dealer, auto_start=e.auto_start)
    return game, rnd


def _seat_joined(game: dict, rnd: None, e: SeatJoined) -> tuple[dict, None]:
    lobby = game["lobby"]
    game["lobby"] = Lobby(open=_set(lobby.open, e.seat, None),
                          joined=_set(lobby.joined, e.seat, e.name), bots=lobby.bots,
                          dealer=lobby.dealer, auto_start=lobby.auto_start)
    return game, rnd


def _game_started(game: dict, rnd: None, _: GameStarted) -> tuple[dict, None]:
    lobby = game["lobby"]
    game["lobby"] = Lobby(open=(None,) * len(lobby.open), joined=lobby.joined, bots=lobby.open,
                          dealer=lobby.dealer, auto_start=lobby.auto_start)
    game["status"] = PLAYING
    return game, rnd


def _lobby_expired(game: dict, rnd: None, _: LobbyExpired) -> tuple[dict, None]:
    game["status"] = EXPIRED
    return game, rnd


def _set(items: tuple, index: int, value: object) -> tuple:
    return items[:index] + (value,) + items[index + 1:]


LOBBY_HANDLERS = {SeatsOpened: _seats_opened, SeatJoined: _seat_joined,
                  GameStarted: _game_started, LobbyExpired: _lobby_expired}
LOBBY_ACTIONS = {JOIN: join, START: start, EXPIRE: expire}
