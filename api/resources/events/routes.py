"""Routes of the event feeds: a long poll and a Server-Sent Events stream.

Both wait without a thread or a Redis connection of their own (docs/streams.md): the API runs
on gevent and a wait is woken by the process's notification subscriber. Each caller holds at
most its cap of them at once (api/resources/events/caps.py). On shutdown (SIGTERM) both end
at once: a long poll answers what it has, a stream sends a reconnect hint and closes.
"""
import logging
import random
import time

from flask import current_app, json
from werkzeug.wrappers import Response

from api.caching import PRIVATE_HEADERS
from api.auth import ADMIN_KEY, SEAT, principal, service
from api.resources import Blueprint
from api.resources.events.caps import Slot, take_slot
from service.store import StoreError
from api.resources.events.schemas import (EventArgsSchema, EventPageSchema,
                                          ServerSentEventSchema, StreamArgsSchema,
                                          StreamHeadersSchema)

log = logging.getLogger(__name__)
blp = Blueprint("events", __name__, url_prefix="/v1/games", description="Event feeds")
RETRY_MS = 2000  # the reconnect delay a stream asks for (SSE `retry:`)
FINAL_EVENTS = ("GameEnded", "GameAborted")  # nothing is appended after them
DRAIN_RETRY_MS = (1000, 3000)  # at shutdown: spread so that clients do not all come back at once


@blp.route("/<game_id>/events", methods=["GET"])
@blp.arguments(EventArgsSchema, location="query")
@blp.response(200, EventPageSchema, headers=PRIVATE_HEADERS)
@blp.problems(401, 404, 429, 503)
@blp.doc(security=[{}, *SEAT, ADMIN_KEY])
def events(args, game_id):
    """The caller's events after version N, waiting up to S seconds for one

    Redacted for the caller's seat, or for the public without a token and for a live game's
    admin token; whole for the server admin key and, once the game is finished, the admin token.

    A waiting call (`wait` > 0) counts against the caller's cap of streams (429 beyond it).

    At a server shutdown a waiting call answers at once with what there is.
    """
    svc, who = service(), principal(game_id)
    wait_s = min(args["wait"], current_app.config["RUMMY_MAX_WAIT_S"])
    if wait_s <= 0:
        return {"events": svc.events(game_id, who, after=args["after"])}
    slot = take_slot()
    try:
        return {"events": svc.events(game_id, who, after=args["after"], wait_s=wait_s)}
    finally:
        slot.release()


@blp.route("/<game_id>/stream", methods=["GET"])
@blp.arguments(StreamArgsSchema, location="query")
@blp.arguments(StreamHeadersSchema, location="headers")
@blp.doc(security=[{}, *SEAT, ADMIN_KEY])
@blp.response(200, ServerSentEventSchema, content_type="text/event-stream",
              headers=PRIVATE_HEADERS,
              description="One event per version (schema: each event); comment heartbeats; "
                          "ends when the game is finished, after a while, or at a server "
                          "shutdown (after a `retry:` hint)")
@blp.problems(401, 404, 429, 503)
def stream(args, headers, game_id):
    """The caller's events as Server-Sent Events, resumable with Last-Event-ID

    Counts against the caller's cap of open streams and long polls (429 beyond it).
    """
    svc, who = service(), principal(game_id)
    after = headers.get("last_event_id", args["after"])
    cfg = current_app.config
    until = time.monotonic() + cfg["RUMMY_SSE_MAX_S"]
    slot = take_slot()
    feed = _feed(svc, game_id, who, after, cfg["RUMMY_SSE_HEARTBEAT_S"], until, slot)
    response = Response(feed, mimetype="text/event-stream",
                        headers={"X-Accel-Buffering": "no"})  # Cache-Control: api.caching
    response.call_on_close(slot.release)  # also when the client left before the first event
    return response


def _feed(svc, game_id, who, after, heartbeat_s, until, slot: Slot):
    """The stream's lines. An idle stream costs no Redis command: its waits are woken by the
    notifier, a heartbeat is a comment, and whether the game is finished is read only at the
    start: after that, its final event (GameEnded, GameAborted) says so."""
    yield f"retry: {RETRY_MS}\n\n"
    try:
        finished = _finished(svc, game_id)
        while (left := until - time.monotonic()) > 0 and not svc.draining:
            wait_s = 0 if finished else min(heartbeat_s, left)
            batch = svc.events(game_id, who, after=after, wait_s=wait_s)
            for event in batch:
                after = event["version"]
                yield f"id: {after}\nevent: {event['type']}\ndata: {json.dumps(event)}\n\n"
            if finished:  # read after the game ended: nothing more will come
                return
            if batch:  # the last event of a game ends the stream (no state read per stream)
                finished = batch[-1]["type"] in FINAL_EVENTS
            elif not svc.draining:
                yield ": heartbeat\n\n"
            slot.renew_if_due()
        if svc.draining:  # the server is stopping: come back (to another process) shortly
            yield f"retry: {random.randint(*DRAIN_RETRY_MS)}\n\n"
    except StoreError:  # the stream just ends; the client reconnects with Last-Event-ID
        log.exception("event stream of game=%s ends after version=%s", game_id, after)


def _finished(svc, game_id) -> bool:
    return svc.public_view(game_id)[1]["status"] in ("finished", "aborted", "expired")
