"""Schemas of a player's inbox."""
import marshmallow as ma
from marshmallow import fields, validate

from api.resources.fields import MAX_VERSION, integer
from api.resources.games.tables import RFC3339_MS, STATUS, seat
from service.index import MAX_LIMIT
from service.player_index import PLAYER_STATUSES


class InboxArgsSchema(ma.Schema):
    """Paging and filters of a player's games."""

    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=MAX_LIMIT))
    cursor = fields.String(validate=validate.Length(min=1, max=200), metadata={
        "description": "The next_cursor of an earlier page (opaque); a value this server did "
                       "not give is a 422"})
    status = fields.String(validate=validate.OneOf(PLAYER_STATUSES), metadata={
        "description": "Only the games of this status (`playing` includes a round's scoring)"})
    awaiting = fields.String(validate=validate.OneOf(("me",)), metadata={
        "description": "`me`: only the games where the player's seat must act now (a page may "
                       "then hold fewer than `limit` items: follow next_cursor to the end)"})


class InboxItemSchema(ma.Schema):
    """One seat of the player in one game."""

    game_id = fields.String(required=True)
    seat = seat(required=True)
    status = fields.String(required=True, validate=validate.OneOf(STATUS), metadata={
        "description": "The game's status now"})
    version = integer(0, MAX_VERSION, required=True)
    created = fields.String(required=True, metadata=RFC3339_MS)
    awaiting_me = fields.Boolean(required=True, metadata={
        "description": "Whether this seat must act now (its human: not while a bot plays it)"})
    deadline = fields.String(required=True, allow_none=True, metadata={
        **RFC3339_MS, "description": "When the seat must act by (RFC 3339 UTC, ms), or null: "
                                     "not awaited, or no clock for what it must do"})


class InboxSchema(ma.Schema):
    """A page of a player's games, newest first."""

    items = fields.List(fields.Nested(InboxItemSchema), required=True)
    next_cursor = fields.String(required=True, allow_none=True)
