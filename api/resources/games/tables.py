"""Schemas of a table as shown: the public table, a seat's view, the full table of a replay."""
import marshmallow as ma
from marshmallow import fields, validate

from api.resources.actions.schemas import card
from api.resources.fields import MAX_VERSION, integer
from api.resources.profiles.schemas import profile_object
from api.typed_spec import ENUMS, Ref
from domain.bots import BOT_LEVELS
from service.records import ORIGINS

STATUS = ("waiting", "playing", "scoring", "finished", "aborted", "expired")
MELD_KINDS = ("group", "run")
RFC3339_MS = {"format": "date-time", "example": "2026-11-30T20:36:49.123Z"}


def seat(**kwargs) -> fields.Integer:
    """A seat number, 0 to 7 (3-8 seats, R11.1), clockwise."""
    return integer(0, 7, **kwargs)


def seats(**kwargs) -> fields.List:
    """A list of seat numbers."""
    return fields.List(seat(), **kwargs)


class MeldSchema(ma.Schema):
    """A meld on the table; a run lists its cards low to high, a joker as ``JK=<card>``."""

    index = fields.Integer(required=True)
    owner = seat(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(MELD_KINDS))
    cards = fields.List(fields.String(), required=True)


class OfferSchema(ma.Schema):
    """The open buy offer (RULES.md §6)."""

    card = card(required=True)
    active_seat = seat(required=True)
    waiting_for = seats(required=True)
    buyers = seats(required=True)
    passed = seats(required=True)
    barred = seat(allow_none=True)


class ClaimSchema(ma.Schema):
    """The open Shanghai claim on an uncalled discard (RULES.md R11.18)."""

    card = fields.String(required=True)
    discarder = seat(required=True)
    waiting_for = seats(required=True)
    claimers = seats(required=True)
    passed = seats(required=True)


class RoundEndSchema(ma.Schema):
    """How the round ended: the seat that went out (null when a draw was impossible)."""

    winner = seat(allow_none=True)
    reason = fields.String(required=True, validate=validate.OneOf(("went_out", "no_card",
                                                                   "turn_cap")))


def phase(**kwargs) -> Ref:
    """The phase of the turn awaited, or null: draw, play, buying (an offer is open), claim (a
    Shanghai claim is open, R11.18), cut (the deal awaits the cut, R11.19) or over."""
    return Ref("Phase", validate=validate.OneOf(ENUMS["Phase"]), allow_none=True, **kwargs)


def bot_level(**kwargs) -> Ref:
    """A bot's level (random, basic, strong), or null: a seat without a bot."""
    return Ref("BotLevel", validate=validate.OneOf(BOT_LEVELS), allow_none=True, **kwargs)


class AwaitingSchema(ma.Schema):
    """What the game waits for: the seats that must act now, or scoring."""

    status = fields.String(required=True, validate=validate.OneOf(STATUS))
    turn = seat(allow_none=True)
    phase = phase()
    seats = seats(required=True)
    deadline = fields.String(allow_none=True, metadata={
        **RFC3339_MS, "description": "When the decision awaited from a human seat times out "
                                     "(RFC 3339 UTC, ms; compare with the `Server-Time` "
                                     "header): the turn's or the cut's deadline (`turn_s`), "
                                     "or the buy offer's or the Shanghai claim's "
                                     "(`offer_s`); null when no human is awaited or the game "
                                     "has no turn clock"})


class ClockSchema(ma.Schema):
    """The game's clock (docs/clock.md), set at creation."""

    turn_s = fields.Integer(allow_none=True, metadata={
        "description": "Seconds a seat has for its turn, draw and play together (null: no "
                       "turn clock)"})
    offer_s = fields.Integer(metadata={"description": "Seconds a buy offer waits for an answer"})
    timeouts_before_takeover = fields.Integer(metadata={
        "description": "Consecutive turn timeouts after which a bot takes the seat over"})
    takeover_level = fields.String(validate=validate.OneOf(BOT_LEVELS),
                                   metadata={"description": "The level of that bot"})


class TakeoverSchema(ma.Schema):
    """A seat played by a bot: its level and why (timeouts: reclaimable; resigned: final)."""

    level = fields.String(required=True, validate=validate.OneOf(BOT_LEVELS))
    reason = fields.String(required=True, validate=validate.OneOf(("timeouts", "resigned")))


class LobbySchema(ma.Schema):
    """The seats of a game created with open seats (docs/lobby.md)."""

    open = fields.List(bot_level(), required=True, metadata={
        "description": "Per seat: the level of the bot that fills it if nobody joins, while "
                       "it is open; null once taken (or never open)"})
    joined = fields.List(fields.String(allow_none=True), required=True, metadata={
        "description": "Per seat: the name of who joined it by code, or null"})
    auto_start = fields.Boolean(required=True, metadata={
        "description": "Whether the game starts when its last open seat is taken"})


class TableSchema(ma.Schema):
    """The public table: everything but the hands and the stock order."""

    version = fields.Integer(required=True)
    origin = fields.String(
        validate=validate.OneOf(ORIGINS),
        metadata={"description": "How the game began: a secret random deal, a client's seed "
                                 "(mixed with the game id unless the server admin key gave it, "
                                 "so no other game shares the deal), a starting position, an "
                                 "imported record, a fork or a rematch"})
    status = fields.String(required=True, validate=validate.OneOf(STATUS))
    round = fields.Integer(allow_none=True)
    profile = fields.Dict(metadata={**profile_object(), "description": "The game's rule "
                                    "profile: every option of RULES.md §11"})
    contract = fields.List(fields.Raw(), metadata={
        "description": 'The round\'s contract: "group", "run" or {"kind", "min"} (R11.5)'})
    dealer = seat(allow_none=True)
    turn = seat(allow_none=True)
    phase = phase()
    awaiting = fields.Nested(AwaitingSchema, required=True)
    hand_sizes = fields.List(fields.Integer())
    melds = fields.List(fields.Nested(MeldSchema))
    opened = fields.List(Ref("Opened", allow_none=True, validate=validate.OneOf(ENUMS["Opened"])),
                         metadata={"description": "Per seat: null (not opened this round), "
                                                  "`earlier` or `this_turn` (R7.1)"})
    discard_top = card(allow_none=True)
    discard_size = fields.Integer()
    discard_pile = fields.List(card())
    stock_size = fields.Integer()
    offer = fields.Nested(OfferSchema, allow_none=True)
    claim = fields.Nested(ClaimSchema, allow_none=True)
    taken_from_discard = card(allow_none=True)
    discard_taken = fields.List(
        fields.List(card()),
        metadata={"description": "Public history: per seat, the cards that seat took from the "
                                 "discard pile this round (drawn or bought, never a purchase's "
                                 "penalty card), oldest first"})
    scores = fields.List(fields.Integer())
    round_scores = fields.List(fields.List(fields.Integer()))
    turns_this_round = fields.Integer(allow_none=True)
    winners = seats(allow_none=True)
    round_end = fields.Nested(RoundEndSchema, allow_none=True)
    clock = fields.Nested(ClockSchema, allow_none=True)
    taken_over = fields.List(fields.Nested(TakeoverSchema, allow_none=True), metadata={
        "description": "Per seat: null, or the bot that plays it since a takeover"})
    timeouts = fields.List(fields.Integer(), metadata={
        "description": "Per seat: its consecutive turn timeouts (reset when its human acts)"})
    lobby = fields.Nested(LobbySchema, allow_none=True, metadata={
        "description": "A game created with open seats: who joined; null for another game. "
                       "Status `waiting` until it starts (no card dealt), `expired` when "
                       "nobody started it in time"})


class SeatViewSchema(TableSchema):
    """The table as one seat sees it: its own hand and its legal actions."""

    seat = seat(required=True)
    hand = fields.List(card(), required=True)
    legal_actions = fields.List(Ref("Action"), required=True, metadata={
        "description": "What the seat may do now: each one an action POST .../actions takes "
                       "as is (buy and pass may add the offer's `card`)"})


ONE_OF = "Exactly one of `version` and `at` is required: neither or both is a 422."


class ReplayArgsSchema(ma.Schema):
    """Which version to rebuild: `version`, or the last version recorded at or before `at`;
    exactly one of them (OpenAPI 3.0 parameters cannot say so but in their descriptions)."""

    version = fields.Integer(validate=validate.Range(min=1, max=MAX_VERSION), metadata={
        "description": "An event's version, from 1 to the game's current version (a later one "
                       "is a 422). " + ONE_OF})
    at = fields.String(validate=validate.Length(min=1, max=64), metadata={
        **RFC3339_MS, "description": "An RFC 3339 date-time with offset: the state at the "
                                     "last event recorded at or before it. " + ONE_OF})

    @ma.validates_schema
    def _one_of(self, data, **kwargs):
        if ("version" in data) == ("at" in data):
            raise ma.ValidationError("give either version or at", "version")


class ReplaySchema(TableSchema):
    """The table after event N: the full table (all hands, the stock top first) for a finished
    game or the server admin key, otherwise the caller's seat view at N (the public table for
    no token and for the game's admin token)."""

    seat = seat()
    hand = fields.List(card())
    legal_actions = fields.List(Ref("Action"))
    hands = fields.List(fields.List(card()))
    stock = fields.List(card())
    seed = fields.String(allow_none=True, metadata={
        "description": "The full table's decision seed, for a token of the game or the server "
                       "admin key (as in the export); null for anyone else"})
    recorded_at = fields.String(allow_none=True, metadata={
        **RFC3339_MS, "description": "When event N was recorded (server time)"})
