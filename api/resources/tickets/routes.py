"""Route of POST /v1/games/{game_id}/stream-tickets (service.tickets): a caller with a token
gets a ticket to pass as `?ticket=` to /stream and /events, where a browser's EventSource
cannot send `Authorization`."""
import marshmallow as ma
from marshmallow import fields

from api.auth import ADMIN_KEY, BEARER, principal, service
from api.caching import PRIVATE_HEADERS
from api.resources import Blueprint
from api.resources.games.tables import RFC3339_MS
from service import tickets
from service.clock import rfc3339

blp = Blueprint("tickets", __name__, url_prefix="/v1/games", description="Stream tickets")


class StreamTicketSchema(ma.Schema):
    """A stream ticket and when it expires."""

    ticket = fields.String(required=True, metadata={
        "description": "Pass as `?ticket=` to GET .../stream and .../events: it stands for "
                       "the caller that asked for it, on this game only"})
    expires_in = fields.Integer(required=True, metadata={
        "description": f"Seconds it stays valid ({tickets.TICKET_S})"})
    expires_at = fields.String(required=True, metadata={
        **RFC3339_MS, "description": "When it expires (RFC 3339 UTC with ms, the clock of "
                                     "`Server-Time`)"})


@blp.route("/<game_id>/stream-tickets", methods=["POST"])
@blp.operation("create_stream_ticket")
@blp.response(201, StreamTicketSchema, headers=PRIVATE_HEADERS)
@blp.problems(401, 404, 503)
@blp.doc(security=[BEARER, ADMIN_KEY])
def create_stream_ticket(game_id):
    """A ticket standing for the caller on the event stream and feed, for 60 s

    With a seat token, the game's admin token or the server admin key. A browser's
    EventSource sends no `Authorization`: it opens `.../stream?ticket=<ticket>` instead, and
    its reconnects within the ticket's 60 s reuse it. No Idempotency-Key: asking again only
    issues another ticket.
    """
    ticket, expires_ms = tickets.issue(service().secret, game_id, principal(game_id))
    return {"ticket": ticket, "expires_in": tickets.TICKET_S,
            "expires_at": rfc3339(expires_ms)}, 201
