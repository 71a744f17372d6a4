"""Routes of the event feeds: a long poll and a Server-Sent Events stream."""
import logging
import time

from flask import current_app, json
from werkzeug.wrappers import Response

from api.caching import PRIVATE_HEADERS
from api.auth import BEARER, principal, service
from api.resources import Blueprint
from service.store import StoreError
from api.resources.events.schemas import (EventArgsSchema, EventPageSchema,
                                          ServerSentEventSchema, StreamArgsSchema,
                                          StreamHeadersSchema)

log = logging.getLogger(__name__)
blp = Blueprint("events", __name__, url_prefix="/v1/games", description="Event feeds")


@blp.route("/<game_id>/events", methods=["GET"])
@blp.arguments(EventArgsSchema, location="query")
@blp.response(200, EventPageSchema, headers=PRIVATE_HEADERS)
@blp.problems(401, 404, 503)
@blp.doc(security=[{}, BEARER])
def events(args, game_id):
    """The caller's events after version N, waiting up to S seconds for one

    Redacted for the caller's seat, or for the public without a token; whole for the admin.
    """
    wait_s = min(args["wait"], current_app.config["RUMMY_MAX_WAIT_S"])
    return {"events": service().events(game_id, principal(game_id), after=args["after"],
                                       wait_s=wait_s)}


@blp.route("/<game_id>/stream", methods=["GET"])
@blp.arguments(StreamArgsSchema, location="query")
@blp.arguments(StreamHeadersSchema, location="headers")
@blp.doc(security=[{}, BEARER])
@blp.response(200, ServerSentEventSchema, content_type="text/event-stream",
              headers=PRIVATE_HEADERS,
              description="One event per version (schema: each event); comment heartbeats; "
                          "ends when the game is finished or after a while")
@blp.problems(401, 404, 503)
def stream(args, headers, game_id):
    """The caller's events as Server-Sent Events, resumable with Last-Event-ID"""
    svc, who = service(), principal(game_id)
    after = headers.get("last_event_id", args["after"])
    cfg = current_app.config
    until = time.monotonic() + cfg["RUMMY_SSE_MAX_S"]
    feed = _feed(svc, game_id, who, after, cfg["RUMMY_SSE_HEARTBEAT_S"], until)
    return Response(feed, mimetype="text/event-stream",
                    headers={"X-Accel-Buffering": "no"})  # Cache-Control: api.caching


def _feed(svc, game_id, who, after, heartbeat_s, until):
    yield "retry: 2000\n\n"
    try:
        while (left := until - time.monotonic()) > 0:
            batch = svc.events(game_id, who, after=after, wait_s=min(heartbeat_s, left))
            for event in batch:
                after = event["version"]
                yield f"id: {after}\nevent: {event['type']}\ndata: {json.dumps(event)}\n\n"
            if not batch:
                if svc.public_view(game_id)[1]["status"] == "finished":
                    return
                yield ": heartbeat\n\n"
    except StoreError:  # the stream just ends; the client reconnects with Last-Event-ID
        log.exception("event stream of game=%s ends after version=%s", game_id, after)
