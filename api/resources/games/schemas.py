"""Schemas of games: creation, listing, and the public, seat and full views of a table."""
import marshmallow as ma
from marshmallow import fields, validate

from api.resources.actions.schemas import ActionSchema, card

STATUS = ("playing", "scoring", "finished")


def seat(**kwargs) -> fields.Integer:
    """A seat number, 0-3, clockwise."""
    return fields.Integer(validate=validate.Range(min=0, max=3), **kwargs)


def seats(**kwargs) -> fields.List:
    """A list of seat numbers."""
    return fields.List(seat(), **kwargs)


class SeatSpecSchema(ma.Schema):
    """One seat of a new game: a human (gets a token) or a bot (with a level)."""

    kind = fields.String(required=True, validate=validate.OneOf(("human", "bot")))
    name = fields.String(validate=validate.Length(min=1, max=40))
    level = fields.String(validate=validate.OneOf(("random", "basic", "strong")))


class CreateGameSchema(ma.Schema):
    """A new game: exactly four seats (R1.1), a rule profile, a seed, or a starting position."""

    seats = fields.List(fields.Nested(SeatSpecSchema), required=True,
                        validate=validate.Length(equal=4))
    profile = fields.Raw(load_default="standard", metadata={
        "description": 'A profile name ("standard") or an object of RULES.md §11 options',
        "oneOf": [{"type": "string"}, {"type": "object"}]})
    seed = fields.Integer(allow_none=True, validate=validate.Range(min=0, max=2**63 - 1))
    position = fields.Dict(metadata={
        "description": "A FORMAT.md position to start from (requires X-Admin-Key)"})


class CreatedSeatSchema(ma.Schema):
    """A seat of a created game; ``token`` (human seats) is shown only this once."""

    seat = seat(required=True)
    kind = fields.String(required=True)
    name = fields.String(allow_none=True)
    level = fields.String(allow_none=True)
    token = fields.String()


class CreatedGameSchema(ma.Schema):
    """A created game with its tokens (shown once, stored hashed)."""

    id = fields.String(required=True)
    version = fields.Integer(required=True)
    admin_token = fields.String(required=True)
    seats = fields.List(fields.Nested(CreatedSeatSchema), required=True)


class GameListArgsSchema(ma.Schema):
    """Paging and filter of the game list."""

    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))
    cursor = fields.String(validate=validate.Length(max=200))
    status = fields.String(validate=validate.OneOf(STATUS))


class GameSummarySchema(ma.Schema):
    """A game in the list."""

    id = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(STATUS))
    round = fields.Integer(required=True, allow_none=True)
    version = fields.Integer(required=True)
    created = fields.String(required=True, metadata={"format": "date-time",
                                                     "description": "Creation time (UTC)"})


class GameListSchema(ma.Schema):
    """One page of games; pass ``next_cursor`` as ``cursor`` for the next page."""

    items = fields.List(fields.Nested(GameSummarySchema), required=True)
    next_cursor = fields.String(required=True, allow_none=True)


class MeldSchema(ma.Schema):
    """A meld on the table; a run lists its cards low to high, a joker as ``JK=<card>``."""

    index = fields.Integer(required=True)
    owner = seat(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(("group", "run")))
    cards = fields.List(fields.String(), required=True)


class OfferSchema(ma.Schema):
    """The open buy offer (RULES.md §6)."""

    card = fields.String(required=True)
    active_seat = seat(required=True)
    waiting_for = seats(required=True)
    buyers = seats(required=True)
    passed = seats(required=True)
    barred = seat(allow_none=True)


class RoundEndSchema(ma.Schema):
    """How the round ended: the seat that went out (null when a draw was impossible)."""

    winner = seat(allow_none=True)
    reason = fields.String(required=True)


class AwaitingSchema(ma.Schema):
    """What the game waits for: the seats that must act now, or scoring."""

    status = fields.String(required=True, validate=validate.OneOf(STATUS))
    turn = seat(allow_none=True)
    phase = fields.String(allow_none=True)
    seats = seats(required=True)


class TableSchema(ma.Schema):
    """The public table: everything but the hands and the stock order."""

    version = fields.Integer(required=True)
    status = fields.String(required=True, validate=validate.OneOf(STATUS))
    round = fields.Integer(allow_none=True)
    contract = fields.List(fields.String())
    dealer = seat(allow_none=True)
    turn = seat(allow_none=True)
    phase = fields.String(allow_none=True)
    awaiting = fields.Nested(AwaitingSchema, required=True)
    hand_sizes = fields.List(fields.Integer())
    melds = fields.List(fields.Nested(MeldSchema))
    opened = fields.List(fields.String(allow_none=True))
    discard_top = fields.String(allow_none=True)
    discard_size = fields.Integer()
    discard_pile = fields.List(fields.String())
    stock_size = fields.Integer()
    offer = fields.Nested(OfferSchema, allow_none=True)
    taken_from_discard = fields.String(allow_none=True)
    scores = fields.List(fields.Integer())
    round_scores = fields.List(fields.List(fields.Integer()))
    turns_this_round = fields.Integer(allow_none=True)
    winners = seats(allow_none=True)
    round_end = fields.Nested(RoundEndSchema, allow_none=True)


class SeatViewSchema(TableSchema):
    """The table as one seat sees it: its own hand and its legal actions."""

    seat = seat(required=True)
    hand = fields.List(card(), required=True)
    legal_actions = fields.List(fields.Nested(ActionSchema), required=True)


class ReplayArgsSchema(ma.Schema):
    """Which version to rebuild."""

    version = fields.Integer(required=True, validate=validate.Range(min=1))


class ReplaySchema(TableSchema):
    """The table after event N: the full table (all hands, the stock top first) for a finished
    game or the admin token, otherwise the caller's seat view at N."""

    seat = seat()
    hand = fields.List(fields.String())
    legal_actions = fields.List(fields.Nested(ActionSchema))
    hands = fields.List(fields.List(fields.String()))
    stock = fields.List(fields.String())
    seed = fields.String(allow_none=True)


class RecordEventSchema(ma.Schema):
    """One event of a record, unredacted."""

    version = fields.Integer(required=True, validate=validate.Range(min=1))
    type = fields.String(required=True)
    schema = fields.Integer(required=True)
    data = fields.Dict(required=True)


class RecordSeatSchema(ma.Schema):
    """A seat of a recorded game (no token)."""

    seat = seat(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(("human", "bot")))
    name = fields.String(allow_none=True)
    level = fields.String(allow_none=True)


class GameRecordSchema(ma.Schema):
    """The full record of a game: its seats and every event, hidden cards included."""

    format = fields.String(required=True, validate=validate.Equal("contract-rummy/game-record"))
    format_version = fields.Integer(required=True, validate=validate.Equal(1))
    id = fields.String(required=True)
    created_ms = fields.Integer(required=True)
    seats = fields.List(fields.Nested(RecordSeatSchema), required=True,
                        validate=validate.Length(equal=4))
    version = fields.Integer(required=True)
    events = fields.List(fields.Nested(RecordEventSchema), required=True,
                         validate=validate.Length(min=1))
