"""Schemas of the event feeds."""
import dataclasses

import marshmallow as ma
from marshmallow import fields, validate

from api.resources.fields import MAX_VERSION
from domain.events import EVENT_TYPES

VERSION = validate.Range(min=0, max=MAX_VERSION)
EVENT_NAMES = tuple(EVENT_TYPES)
# What a seat or the public sees instead of the whole data (domain.views.redact); the admin
# (and a finished game's export) sees the data whole.
REDACTED = {
    "GameCreated": "`seed` is null",
    "PositionLoaded": "`position.hands` holds null for every other seat, `position.stock` is "
                      "null; `position.hand_sizes` and `position.stock_size` are added",
    "RoundDealt": "instead of `deck`: `hand` (the caller's dealt hand, null for the public), "
                  "`hand_sizes`, `upcard`, `stock_size`",
    "CardDrawn": "`card` is null when another seat drew from the stock",
    "CardBought": "`penalty` is null for every seat but the buyer",
    "StockRebuilt": "`stock` is null; `stock_size` is added",
}


def _data_doc() -> str:
    lines = ["The event's fields, by `type`; a seat's or the public feed hides "
             "cards as noted (redacted), the admin's shows them:"]
    for name, cls in EVENT_TYPES.items():
        names = ", ".join(f"`{f.name}`" for f in dataclasses.fields(cls))
        hidden = f" (redacted: {REDACTED[name]})" if name in REDACTED else ""
        lines.append(f"- `{name}`: {names}{hidden}")
    return "\n".join(lines)


class EventSchema(ma.Schema):
    """One event as the caller may see it (hidden cards redacted)."""

    version = fields.Integer(required=True)
    type = fields.String(required=True, validate=validate.OneOf(EVENT_NAMES),
                         metadata={"example": "CardDiscarded"})
    schema = fields.Integer(required=True)
    data = fields.Dict(required=True, metadata={"description": _data_doc()})
    recorded_at = fields.String(required=True, allow_none=True, metadata={
        "format": "date-time", "example": "2026-11-30T20:36:49.123Z",
        "description": "When the event was recorded: the server's time of its append, RFC 3339 "
                       "UTC with ms (null for an event stored before times were recorded)"})


class EventPageSchema(ma.Schema):
    """The events after the requested version, oldest first (empty when the wait ran out)."""

    events = fields.List(fields.Nested(EventSchema), required=True)


class ServerSentEventSchema(ma.Schema):
    """One Server-Sent Event of the stream (comment heartbeats are not events)."""

    id = fields.String(required=True, metadata={"description": "The event's version"})
    event = fields.String(required=True, metadata={"description": "The event's type"})
    data = fields.String(required=True, metadata={"description": "The Event object as JSON"})


class EventArgsSchema(ma.Schema):
    """Where to start and how long to wait for a new event."""

    after = fields.Integer(load_default=0, validate=VERSION)
    wait = fields.Float(load_default=0, validate=validate.Range(min=0, max=30),
                        metadata={"description": "Seconds to wait when there is nothing yet"})


class StreamArgsSchema(ma.Schema):
    """Where the stream starts (``Last-Event-ID`` wins when sent)."""

    after = fields.Integer(load_default=0, validate=VERSION)


class StreamHeadersSchema(ma.Schema):
    """The version a reconnecting EventSource saw last."""

    last_event_id = fields.Integer(data_key="Last-Event-ID", validate=VERSION,
                                   metadata={"description": "Resume after this version"})
