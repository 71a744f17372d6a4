"""Schemas of the event feeds."""
import marshmallow as ma
from marshmallow import fields, validate

from api.resources.fields import MAX_VERSION
from api.typed_spec import Ref
from api.resources.events.union import EVENT_TYPES

VERSION = validate.Range(min=0, max=MAX_VERSION)
PAGE_LIMIT, MAX_PAGE_LIMIT = 500, 5000  # events per page of /events: default and most
EVENT_NAMES = tuple(EVENT_TYPES)


class EventPageSchema(ma.Schema):
    """The events after the requested version, oldest first (empty when the wait ran out),
    at most `limit` of them."""

    events = fields.List(Ref("Event"), required=True)
    more = fields.Boolean(required=True, metadata={
        "description": "More events follow this page: ask again with `after=next_after`"})
    next_after = fields.Integer(required=True, metadata={
        "description": "The `after` of the next request: the last version of this page, or "
                       "the `after` asked when the page is empty"})


class ServerSentEventSchema(ma.Schema):
    """One Server-Sent Event of the stream (comment heartbeats are not events)."""

    id = fields.String(required=True, metadata={"description": "The event's version"})
    event = fields.String(required=True, validate=validate.OneOf(EVENT_NAMES),
                          metadata={"description": "The event's type"})
    data = fields.String(required=True, metadata={
        "description": "The event, an `Event` (x-contentSchema), as JSON on one `data:` line",
        "x-contentMediaType": "application/json",
        "x-contentSchema": {"$ref": "#/components/schemas/Event"}})


def ticket() -> fields.String:
    """The ``?ticket=`` of a stream ticket (service.tickets), for an EventSource."""
    return fields.String(validate=validate.Length(min=1, max=200), metadata={
        "description": "A stream ticket (POST .../stream-tickets): stands for the caller it was "
                       "issued to, for 60 s, where no Authorization header can be sent (a "
                       "browser's EventSource)"})


class EventArgsSchema(ma.Schema):
    """Where to start, how long to wait for a new event, and a stream ticket."""

    after = fields.Integer(load_default=0, validate=VERSION)
    wait = fields.Float(load_default=0, validate=validate.Range(min=0, max=30),
                        metadata={"description": "Seconds to wait when there is nothing yet "
                                                 "(none on a finished or aborted game)"})
    limit = fields.Integer(load_default=PAGE_LIMIT, validate=validate.Range(min=1,
                                                                          max=MAX_PAGE_LIMIT),
                           metadata={"description": "The most events in the page"})
    ticket = ticket()


class StreamArgsSchema(ma.Schema):
    """Where the stream starts (``Last-Event-ID`` wins when sent), and a stream ticket."""

    after = fields.Integer(load_default=0, validate=VERSION)
    ticket = ticket()


class StreamHeadersSchema(ma.Schema):
    """The version a reconnecting EventSource saw last."""

    last_event_id = fields.Integer(data_key="Last-Event-ID", validate=VERSION,
                                   metadata={"description": "Resume after this version"})
