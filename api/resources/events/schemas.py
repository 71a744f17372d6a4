"""Schemas of the event feeds."""
import marshmallow as ma
from marshmallow import fields, validate

VERSION = validate.Range(min=0, max=2**53 - 1)  # versions stay exact in every JSON client


class EventSchema(ma.Schema):
    """One event as the caller may see it (hidden cards redacted)."""

    version = fields.Integer(required=True)
    type = fields.String(required=True, metadata={"example": "CardDiscarded"})
    schema = fields.Integer(required=True)
    data = fields.Dict(required=True)


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
