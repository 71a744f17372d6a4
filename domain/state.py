"""The folded game state: small frozen dataclasses of tuples, cheap to copy with changes.

`GameState` holds what lasts the whole game; `RoundState` the table of the current round;
`Offer` an open buy offer (RULES.md §6). Hands are tuples of card codes kept sorted, the
stock is top first, the discard pile bottom first (top last). The state is only ever built by
`domain.fold` from events.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from domain.profile import RuleProfile

DRAW, PLAY, BUYING, OVER = "draw", "play", "buying", "over"
CLAIM, CUT = "claim", "cut"  # a Shanghai claim is open (R11.18); the deal awaits the cut (R11.19)
PLAYING, SCORING, FINISHED, ABORTED = "playing", "scoring", "finished", "aborted"
WAITING, EXPIRED = "waiting", "expired"  # a lobby game before its first deal (domain.lobby)
TIMEOUTS, RESIGNED = "timeouts", "resigned"


def adopt(cls: type, fields: dict) -> object:
    """A frozen dataclass `cls` whose instance dict is `fields` itself, not a copy (fold and
    the offers build a fresh dict of every field and drop it right after: adopting it saves
    copying every field again). The caller must pass a dict nothing else holds or changes."""
    obj = object.__new__(cls)
    object.__setattr__(obj, "__dict__", fields)
    return obj


@dataclass(frozen=True)
class Clock:
    """The game's clock settings (event ClockSet): `turn_s` (None: no turn clock), `offer_s`,
    `timeouts_before_takeover`, `takeover_level`. Durations in whole seconds."""

    turn_s: int | None
    offer_s: int
    timeouts_before_takeover: int
    takeover_level: str


@dataclass(frozen=True)
class Takeover:
    """Who plays a seat taken over: a bot of `level`, since `reason` ("timeouts": the human
    may reclaim the seat; "resigned": final)."""

    level: str
    reason: str


@dataclass(frozen=True)
class Lobby:
    """The seats of a game that waited for people before its first deal (domain.lobby).

    Per seat: `open` the level of the bot that fills it if nobody joins (None once joined, or
    for a seat seated at creation); `joined` the name of who joined it; `bots` the level of the
    bot that plays a seat left open when the game started. `dealer`: the first dealer (R2.2),
    drawn at creation. `auto_start`: the game starts when its last open seat is taken."""

    open: tuple[str | None, ...]
    joined: tuple[str | None, ...]
    bots: tuple[str | None, ...]
    dealer: int
    auto_start: bool = False


@dataclass(frozen=True)
class Offer:
    """An open buy offer on `card` (R6.1-R6.9).

    `buyers` asked to buy (in the order they asked), `passed` declined, `barred` may not buy
    (R6.4: bought the previous card of this turn's chain).
    """

    card: str
    barred: int | None = None
    buyers: tuple[int, ...] = ()
    passed: tuple[int, ...] = ()
    capped: tuple[int, ...] = ()  # seats at the purchase cap this round (R11.9), like barred


@dataclass(frozen=True)
class Claim:
    """An open Shanghai claim on the uncalled discard `card` of `discarder` (R11.18).

    `claims` are `(seat, meld, entry, end)` requests in the order made; `passed` declined.
    """

    card: str
    discarder: int
    claims: tuple[tuple, ...] = ()
    passed: tuple[int, ...] = ()


@dataclass(frozen=True)
class RoundState:
    """The table of one round.

    `phase` is "draw", "play", "buying" (an offer is open), "claim" (a Shanghai claim is
    open, R11.18), "cut" (the shuffled deck waits in `stock` for the cut, R11.19) or "over"
    (the round ended; `winner`/`end_reason` say how). `opened[seat]` is None, "earlier" or "this_turn".
    `turns` counts the turns begun this round (R10.4). `melds` are `domain.melds.Meld`.
    `discard_taken[seat]` lists the cards that seat took from the discard pile this round
    (drawn or bought; never a purchase's penalty card), oldest first: public history.
    `purchases[seat]` counts its purchases this round (R11.9), `rebuilds` the stock rebuilds
    (R11.17); `cut_bonus_seat` is the seat whose cut was exact this deal (R11.19), or None.
    """

    number: int
    dealer: int
    turn: int
    phase: str
    hands: tuple[tuple[str, ...], ...]
    melds: tuple = ()
    opened: tuple[str | None, ...] = (None, None, None, None)
    stock: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    taken_from_discard: str | None = None
    offer: Offer | None = None
    turns: int = 1
    winner: int | None = None
    end_reason: str | None = None
    discard_taken: tuple[tuple[str, ...], ...] = ((), (), (), ())
    purchases: tuple[int, ...] = (0, 0, 0, 0)
    rebuilds: int = 0
    claim: Claim | None = None
    cut_bonus_seat: int | None = None


@dataclass(frozen=True)
class GameState:
    """A whole game: profile, seats, running totals, and the current (or last) round.

    `status` is "waiting" (a lobby game before its first deal), "playing", "scoring" (a round
    ended and awaits `score_round`), "finished", "aborted" or "expired" (a lobby game never
    started). `lobby`: the Lobby of a game created with open seats, else None.
    `round_scores` has one tuple per scored round; `winners` is set when the game ended.
    `seed` is the game's seed when it was seeded (hidden from seats until the end).
    Seat control: `clock` (None for a game created without one); `taken_over[seat]` a
    Takeover or None; `timeouts[seat]` the seat's consecutive turn timeouts (reset when its
    human acts or reclaims it); `timed_out` the seat whose timed-out turn a bot is finishing
    (until its discard or the round's end), or None. `events_folded`: how many events made
    the state (the stream's version, but for the service's table events, which the rules never
    read): what the service seeds its decisions with, so that they do not depend on those.
    """

    profile: RuleProfile
    seats: int
    status: str
    round: RoundState | None = None
    totals: tuple[int, ...] = (0, 0, 0, 0)
    round_scores: tuple[tuple[int, ...], ...] = ()
    winners: tuple[int, ...] | None = None
    seed: int | str | None = None
    clock: Clock | None = None
    taken_over: tuple[Takeover | None, ...] = (None, None, None, None)
    timeouts: tuple[int, ...] = (0, 0, 0, 0)
    timed_out: int | None = None
    lobby: Lobby | None = None
    events_folded: int = field(default=0, compare=False)  # history, not the table
