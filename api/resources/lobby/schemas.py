"""Schemas of the lobby's requests and answers."""
import marshmallow as ma
from marshmallow import fields, validate

from api.resources.games.schemas import _name
from api.resources.games.tables import seat
from service.lobby import CODE_LENGTH
from service.seating import MAX_NAME, NAME_PATTERN, NAME_RULE


class JoinSchema(ma.Schema):
    """Join a waiting game by its code, under a name."""

    code = fields.String(required=True, validate=validate.Length(min=1, max=4 * CODE_LENGTH),
                         metadata={"description": f"The game's join code ({CODE_LENGTH} "
                                                  "Crockford base32 characters; case, "
                                                  "hyphens, I/L for 1 and O for 0 do not "
                                                  "matter)", "example": "7K3QX9M2ZD"})
    name = fields.String(required=True, validate=_name, metadata={
        "description": f"The seat's name: {NAME_RULE}", "minLength": 1, "maxLength": MAX_NAME,
        "pattern": NAME_PATTERN})


class JoinedSchema(ma.Schema):
    """The seat taken and its token (shown once, stored hashed)."""

    game_id = fields.String(required=True)
    seat = seat(required=True)
    token = fields.String(required=True, metadata={
        "description": "The seat's bearer token: play it with /v1/games/{game_id}/view and "
                       "/actions"})


class StartedSchema(ma.Schema):
    """The game's version after its start and its public table."""

    version = fields.Integer(required=True)
    table = fields.Nested("TableSchema", required=True)


class RematchSchema(ma.Schema):
    """The follow-up game of a finished game."""

    id = fields.String(required=True, metadata={
        "description": "The follow-up game's id; its admin token is the finished game's; each "
                       "human seat takes its token with GET /v1/games/{game_id}/rematch"})


class RematchSeatSchema(ma.Schema):
    """The caller's seat in the follow-up game and its new token (the previous one revoked)."""

    game_id = fields.String(required=True)
    seat = seat(required=True)
    token = fields.String(required=True)


class SpectatorSchema(ma.Schema):
    """A spectator token of the game (shown once, stored hashed)."""

    game_id = fields.String(required=True)
    token = fields.String(required=True, metadata={
        "description": "Sees the public table, events and stream of the game, live, a "
                       "private game's too"})
