"""Schemas of games: creation, listing, and the exported record."""
import marshmallow as ma
from marshmallow import fields, validate

from api.resources.events.schemas import EVENT_NAMES
from domain.bots import BOT_LEVELS
from api.resources.profiles.schemas import profile_field_doc
from domain.profile import PRESETS
from api.resources.fields import MAX_VERSION, integer
from api.resources.games.tables import RFC3339_MS, STATUS, bot_level, seat
from api.typed_spec import Ref
from service.clock import MAX_OFFER_S, MAX_TIMEOUTS_BEFORE_TAKEOVER, MAX_TURN_S
from service.integration_config import check_game_webhook_url
from service.players import MAX_PLAYER_ID, PLAYER_ID_PATTERN, PLAYER_ID_RULE
from service.records import VISIBILITIES
from service.seating import KINDS, MAX_NAME, NAME_PATTERN, NAME_RULE, seat_name

MAX_SEED = 2**63 - 1
VISIBILITY_RULE = ("Who may find the game: public (listed by GET /v1/games), unlisted (not "
                   "listed; anyone with its id reads its public table), private (not listed; "
                   "404 to every caller without a token of the game, as an unknown id)")


def _name(value: str) -> None:
    """A seat name follows service.seating.seat_name (422 naming the field otherwise)."""
    try:
        seat_name(value)
    except ValueError as error:
        raise ma.ValidationError(f"{str(error)[0].upper()}{str(error)[1:]}.") from None


class SeatSpecSchema(ma.Schema):
    """One seat of a new game: a human (gets a token), a bot (with a level), or open: taken
    by whoever joins with the game's code, else played by a bot of its level (docs/lobby.md)."""

    kind = fields.String(required=True, validate=validate.OneOf(KINDS))
    name = fields.String(validate=_name, metadata={
        "description": f"The seat's name: {NAME_RULE}", "minLength": 1, "maxLength": MAX_NAME,
        "pattern": NAME_PATTERN})
    level = fields.String(validate=validate.OneOf(BOT_LEVELS), metadata={
        "description": "A bot's level, or that of the bot that fills an open seat nobody "
                       "joined (default basic); a human seat has none: a human seat with a "
                       "level is a 422"})
    player_id = fields.String(validate=validate.Regexp(PLAYER_ID_PATTERN, error=(
        f"A player_id is {PLAYER_ID_RULE}.")), metadata={
        "description": "The integrator's opaque id of the player of a human seat "
                       "(docs/players.md): needs the integration key or the server admin key "
                       "(a player JWT: its own sub only); never shown to the public",
        "maxLength": MAX_PLAYER_ID})


def _profile(value: object) -> None:
    """A profile is a preset name or an object of options (checked by the domain, R11)."""
    if isinstance(value, str) and value not in PRESETS:
        shown = value if len(value) <= 40 else value[:40] + "…"
        raise ma.ValidationError(f"profile {shown!r} is not a preset; presets are "
                                 f"{', '.join(PRESETS)}.")
    if not isinstance(value, (str, dict)):
        raise ma.ValidationError("profile must be a preset name or an object of RULES.md §11 "
                                 "options.")


class ClockRequestSchema(ma.Schema):
    """The game's clock; every key left out takes its default (docs/clock.md)."""

    turn_s = integer(1, MAX_TURN_S, allow_none=True, metadata={
        "description": "Seconds a seat has for its turn, draw and play together; null: no turn "
                       "clock (default 60)"})
    offer_s = integer(1, MAX_OFFER_S, metadata={
        "description": "Seconds a buy offer waits for a silent seat, whose silence is a pass "
                       "(default RUMMY_OFFER_DEADLINE_S, 15)"})
    timeouts_before_takeover = integer(1, MAX_TIMEOUTS_BEFORE_TAKEOVER, metadata={
        "description": "Consecutive turn timeouts after which a bot takes the seat over until "
                       "its human reclaims it (default 2)"})
    takeover_level = fields.String(validate=validate.OneOf(BOT_LEVELS), metadata={
        "description": "The level of the bot that plays a timed-out turn or a seat taken over "
                       "(default basic)"})
def _webhook_url(value: str) -> None:
    try:
        check_game_webhook_url(value)
    except ValueError as error:
        raise ma.ValidationError(f"{str(error)[0].upper()}{str(error)[1:]}.") from None


class CreateGameSchema(ma.Schema):
    """A new game: 3 to 8 seats (R1.1, R11.1), a rule profile, a seed, or a starting position,
    and its clock."""

    seats = fields.List(fields.Nested(SeatSpecSchema), required=True,
                        validate=validate.Length(min=3, max=8))
    profile = fields.Raw(load_default="standard", validate=_profile, metadata={
        "description": "A preset name (R11.20, GET /v1/profiles) or an object of RULES.md §11 "
                       "options, which may name a preset that its other options override; "
                       "the seats set players. A profile breaking a §11 constraint is a 422 "
                       "unsupported-profile naming the option and rule",
        "oneOf": profile_field_doc()})
    seed = integer(0, MAX_SEED, allow_none=True)
    position = fields.Dict(metadata={
        "description": "A position to start from (/docs/format \"Positions\"; requires X-Admin-Key)"})
    clock = fields.Nested(ClockRequestSchema, metadata={
        "description": "The turn clock: deadlines, timeouts and takeover (docs/clock.md)"})
    visibility = fields.String(load_default="public", validate=validate.OneOf(VISIBILITIES),
                               metadata={"description": VISIBILITY_RULE})
    auto_start = fields.Boolean(load_default=False, truthy={True}, falsy={False}, metadata={
        "description": "With open seats: start the game when its last open seat is taken "
                       "(else the host starts it: POST /v1/games/{game_id}/start)"})
    webhook_url = fields.String(validate=_webhook_url, metadata={
        "description": "The game's own webhook receiver, besides the server's "
                       "(docs/players.md): needs the integration key or the server admin key, "
                       "and a server with RUMMY_WEBHOOK_SECRET", "maxLength": 2000})


class CreatedSeatSchema(ma.Schema):
    """A seat of a created game; ``token`` (human seats) is shown only this once."""

    seat = seat(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(KINDS))
    name = fields.String(allow_none=True)
    level = bot_level()
    token = fields.String()
    player_id = fields.String(metadata={"description": "The seat's player (docs/players.md)"})


class CreatedGameSchema(ma.Schema):
    """A created game with its tokens (shown once, stored hashed)."""

    id = fields.String(required=True)
    version = fields.Integer(required=True)
    admin_token = fields.String(required=True)
    seats = fields.List(fields.Nested(CreatedSeatSchema), required=True)
    visibility = fields.String(validate=validate.OneOf(VISIBILITIES))
    join_code = fields.String(metadata={
        "description": "A game with open seats: the code people join with (10 Crockford "
                       "base32 characters, case-insensitive; POST /v1/games/join)"})
    expires_at = fields.String(metadata={
        **RFC3339_MS, "description": "A game with open seats: when it expires unless started "
                                     "(RUMMY_LOBBY_TTL_S after creation)"})


class GameListArgsSchema(ma.Schema):
    """Paging and filter of the game list."""

    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))
    cursor = fields.String(validate=validate.Length(min=1, max=200), metadata={
        "description": "The next_cursor of an earlier page (opaque); a value this server did "
                       "not give is a 422"})
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


class RecordEventSchema(ma.Schema):
    """One event of a record, unredacted."""

    version = integer(1, MAX_VERSION, required=True)
    type = fields.String(required=True, validate=validate.OneOf(EVENT_NAMES))
    schema = integer(1, 1000, required=True)
    data = fields.Dict(required=True)
    recorded_at = fields.String(allow_none=True, metadata={
        **RFC3339_MS, "description": "When it was recorded (ignored by an import: the "
                                     "imported game's events are recorded anew)"})


class RecordSeatSchema(ma.Schema):
    """A seat of a recorded game (no token)."""

    seat = seat(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(("human", "bot")))
    name = fields.String(allow_none=True)
    level = bot_level()


def _record_event(value: object) -> None:
    """An event of an imported record is checked by RecordEventSchema (documented as the
    event union, component ``Event``)."""
    errors = RecordEventSchema().validate(value) if isinstance(value, dict) else {
        "_schema": ["Not an object."]}
    if errors:
        raise ma.ValidationError(errors)


class GameRecordSchema(ma.Schema):
    """The full record of a game: its seats and every event, hidden cards included."""

    format = fields.String(required=True, validate=validate.Equal("contract-rummy/game-record"))
    format_version = integer(1, 1, required=True)
    id = fields.String(required=True)
    created_ms = integer(0, MAX_VERSION, required=True)
    seats = fields.List(fields.Nested(RecordSeatSchema), required=True,
                        validate=validate.Length(min=3, max=8))
    version = integer(1, MAX_VERSION, required=True)
    events = fields.List(Ref("Event", validate=_record_event), required=True,
                         validate=validate.Length(min=1), metadata={
                             "description": "Every event, hidden cards included"})
