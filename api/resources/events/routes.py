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
from api.resources.events.hangup import HangupWatch
from service.notify import behind_other_work
from service.store import StoreError
from service.table_events import is_table_event
from api.resources.events.schemas import (EventArgsSchema, EventPageSchema,
                                          ServerSentEventSchema, StreamArgsSchema,
                                          StreamHeadersSchema)

log = logging.getLogger(__name__)
blp = Blueprint("events", __name__, url_prefix="/v1/games", description="Event feeds")
RETRY_MS = 2000  # the reconnect delay a stream asks for (SSE `retry:`)
# No play follows them; a feed ends there (only table events may follow: a spectator let in,
# a rematch made, which a later read of the feed shows).
FINAL_EVENTS = ("GameEnded", "GameAborted", "LobbyExpired")
WAIT_SPREAD = 0.1  # a long poll's wait ends within its last tenth (at random)
DRAIN_RETRY_MS = (1000, 3000)  # at shutdown: spread so that clients do not all come back at once


@blp.route("/<game_id>/events", methods=["GET"])
@blp.operation("list_events")
@blp.arguments(EventArgsSchema, location="query")
@blp.response(200, EventPageSchema, headers=PRIVATE_HEADERS)
@blp.problems(401, 404, 422, 429, 503)
@blp.doc(security=[{}, *SEAT, ADMIN_KEY])
def events(args, game_id):
    """The caller's events after version N, at most `limit`, waiting up to S seconds for one

    Redacted for the caller's seat, or for the public without a token and for a live game's
    admin token; whole for the server admin key and, once the game is finished, the admin token.

    A page holds at most `limit` events (default 500): when `more` is true, ask again with
    `after=next_after`. A waiting call (`wait` > 0) counts against the caller's cap of streams
    (429 beyond it); on a finished or aborted game, or at a server shutdown, it answers at once.
    """
    svc, who = service(), principal(game_id)
    after, limit = args["after"], args["limit"]
    wait_s = min(args["wait"], current_app.config["RUMMY_MAX_WAIT_S"])
    if wait_s <= 0:
        found = svc.events(game_id, who, after=after, limit=limit + 1)
        if not found:
            _refuse_past_end(after, svc.store.version(game_id))
        return _page(found, after, limit)
    # Long polls come back by the thousand after a burst of wakes: each waits for a moment
    # when nothing else is ready (service.notify), and their waits end spread over the last
    # tenth of `wait`, so that the ones sent again together do not all time out together.
    behind_other_work()
    wait_s *= random.uniform(1 - WAIT_SPREAD, 1)
    found, last = _after_last_seen(svc, game_id, who, after, limit)
    if not found and last is None:  # no event at `after`: 0, or past the game's last event
        _refuse_past_end(after, svc.store.version(game_id))
    # The event at `after` tells whether the game is over, unless it is a table event (one may
    # follow the game's last event): then the table is read, as when `after` is unknown.
    if found or (last["type"] in FINAL_EVENTS if last and not is_table_event(last["type"])
                 else _over(svc, game_id) is not None):
        return _page(found, after, limit)
    slot = take_slot()
    watch = HangupWatch(slot.release)  # the place is given back as soon as the client leaves
    try:
        return _page(svc.events(game_id, who, after=after, wait_s=wait_s, limit=limit + 1),
                     after, limit)
    finally:
        watch.stop()
        slot.release()


def _after_last_seen(svc, game_id, who, after: int, limit: int) -> tuple[list[dict], dict | None]:
    """(the events after `after`, at most `limit` + 1; the event at `after` itself or None),
    in one read: a waiting long poll answers at once when the event it has already ended the
    game (FINAL_EVENTS), without loading the game's state for it. None also when `after` is
    past the game's last event."""
    seen = svc.events(game_id, who, after=max(after - 1, 0), limit=limit + 2)
    if after > 0 and seen and seen[0]["version"] == after:
        return seen[1:], seen[0]
    return seen[:limit + 1], None


def _refuse_past_end(after: int, version: int) -> None:
    """Raise ValueError (422) when `after` is past the game's last `version`: no event will
    ever follow it there (versions never go back), so a wait would only hang."""
    if after > version:
        raise ValueError(f"after={after} is past the game's last version, {version}: read from "
                         f"after={version} or less")


def _page(found: list[dict], after: int, limit: int) -> dict:
    """The page of the first `limit` events of `found` (read with one more, to tell `more`)."""
    page = found[:limit]
    return {"events": page, "more": len(found) > limit,
            "next_after": page[-1]["version"] if page else after}


@blp.route("/<game_id>/stream", methods=["GET"])
@blp.operation("stream_events")
@blp.arguments(StreamArgsSchema, location="query")
@blp.arguments(StreamHeadersSchema, location="headers")
@blp.doc(security=[{}, *SEAT, ADMIN_KEY])
@blp.response(200, ServerSentEventSchema, content_type="text/event-stream",
              headers=PRIVATE_HEADERS,
              description="One event per version (schema: each event); comment heartbeats; "
                          "ends after the game's last event (GameEnded, GameAborted), after a "
                          "while, or at a server shutdown (after a `retry:` hint)")
@blp.alt_response(204, description="The game is over and the caller has its last event "
                                   "(`Last-Event-ID` or `after`): nothing more will come, so an "
                                   "EventSource stops reconnecting")
@blp.problems(401, 404, 422, 429, 503)
def stream(args, headers, game_id):
    """The caller's events as Server-Sent Events, resumable with Last-Event-ID

    Counts against the caller's cap of open streams and long polls (429 beyond it). After the
    game's last event the stream closes; a reconnect then gets 204 (HTML: an EventSource
    stops reconnecting on 204).
    """
    svc, who = service(), principal(game_id)
    after = headers.get("last_event_id", args["after"])
    last = _over(svc, game_id)
    if last is not None:
        _refuse_past_end(after, last)  # past the end is a 422, as on the long poll
        if after == last:
            return Response(status=204)
    elif after > 0:
        _refuse_past_end(after, svc.store.version(game_id))
    cfg = current_app.config
    until = time.monotonic() + cfg["RUMMY_SSE_MAX_S"]
    slot = take_slot()
    feed = _feed(svc, game_id, who, after, cfg["RUMMY_SSE_HEARTBEAT_S"], until, slot,
                 finished=last is not None)
    response = Response(feed, mimetype="text/event-stream",
                        headers={"X-Accel-Buffering": "no"})  # Cache-Control: api.caching
    watch = HangupWatch(slot.release)  # the place is given back as soon as the client leaves
    # Also when the client left before the first event; the watch stops before gunicorn closes
    # the socket (its file number is then reused).
    response.call_on_close(lambda: (watch.stop(), slot.release()))
    return response


def _feed(svc, game_id, who, after, heartbeat_s, until, slot: Slot, finished: bool):
    """The stream's lines. An idle stream costs no Redis command: its waits are woken by the
    notifier, a heartbeat is a comment. A game over at the start (`finished`) gets what is
    left; otherwise the stream ends with the game's last event (FINAL_EVENTS): no state read
    per stream."""
    yield f"retry: {RETRY_MS}\n\n"
    try:
        while (left := until - time.monotonic()) > 0 and not svc.draining:
            wait_s = 0 if finished else min(heartbeat_s, left)
            batch = svc.events(game_id, who, after=after, wait_s=wait_s)
            for event in batch:
                after = event["version"]
                yield f"id: {after}\nevent: {event['type']}\ndata: {json.dumps(event)}\n\n"
            if finished or any(event["type"] in FINAL_EVENTS for event in batch):
                return  # the game's last event is sent: nothing more will come
            if not batch and not svc.draining:
                yield ": heartbeat\n\n"
            slot.renew_if_due()
        if svc.draining:  # the server is stopping: come back (to another process) shortly
            yield f"retry: {random.randint(*DRAIN_RETRY_MS)}\n\n"
    except StoreError as e:  # the stream just ends; the client reconnects with Last-Event-ID
        # One line, no traceback: an outage ends every open stream at once, and the cause is the
        # same for all of them (and /ready reports the store as down).
        log.warning("event stream of game=%s ends after version=%s: %s", game_id, after, e)


def _over(svc, game_id) -> int | None:
    """The last version of a finished, aborted or expired game (nothing will follow it); None
    while the game waits or goes on."""
    version, table = svc.public_view(game_id)
    return version if table["status"] in ("finished", "aborted", "expired") else None
