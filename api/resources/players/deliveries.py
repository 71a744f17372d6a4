"""Routes of the webhook deliveries (docs/players.md "Webhooks"), a game's and the server's
newest: the server admin's view of what was sent where, how often, and what comes next."""
import marshmallow as ma
from marshmallow import fields, validate

from api.auth import ADMIN_KEY, admin_key, bearer_token, service
from api.caching import PRIVATE_HEADERS
from api.resources import Blueprint
from api.resources.games.tables import RFC3339_MS
from service.errors import Forbidden, Unauthorized
from service.tokens import is_admin_key
from service.webhook_events import EVENT_TYPES
from service.webhooks import DELIVERY_STATUSES

blp = Blueprint("webhooks", __name__, url_prefix="/v1",
                description="Webhook deliveries (server admin)")


class DeliveryArgsSchema(ma.Schema):
    """How many deliveries, newest first."""

    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000))


class RecentArgsSchema(DeliveryArgsSchema):
    """How many of the server's newest deliveries, and of which status."""

    status = fields.String(validate=validate.OneOf(DELIVERY_STATUSES), metadata={
        "description": "Only the deliveries of this status (`failed`: no retry is left)"})


class DeliverySchema(ma.Schema):
    """One delivery of one webhook event to one receiver."""

    game_id = fields.String(required=True)
    delivery_id = fields.String(required=True)
    webhook_id = fields.String(required=True, metadata={
        "description": "The `webhook-id` header: the same for every attempt and target"})
    type = fields.String(required=True, validate=validate.OneOf(EVENT_TYPES))
    target_url = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(DELIVERY_STATUSES))
    attempts = fields.Integer(required=True)
    last_status_code = fields.Integer(required=True, allow_none=True)
    last_error = fields.String(required=True, allow_none=True)
    created = fields.String(required=True, metadata=RFC3339_MS)
    last_attempt = fields.String(required=True, allow_none=True, metadata=RFC3339_MS)
    next_retry = fields.String(required=True, allow_none=True, metadata=RFC3339_MS)
    delivered = fields.String(required=True, allow_none=True, metadata=RFC3339_MS)


class DeliveriesSchema(ma.Schema):
    """A game's webhook deliveries, newest first."""

    deliveries = fields.List(fields.Nested(DeliverySchema), required=True)


@blp.route("/games/<game_id>/webhook-deliveries", methods=["GET"])
@blp.operation("list_game_webhook_deliveries")
@blp.arguments(DeliveryArgsSchema, location="query")
@blp.response(200, DeliveriesSchema, headers=PRIVATE_HEADERS)
@blp.problems(401, 403, 404, 503)
@blp.doc(security=[ADMIN_KEY])
def webhook_deliveries(args, game_id):
    """The game's webhook deliveries: attempts, status codes, next retry (server admin key)"""
    _server_admin()
    service().record(game_id)  # 404 for an unknown game
    return {"deliveries": service().webhooks.deliveries(game_id, args["limit"])}


@blp.route("/webhooks/deliveries", methods=["GET"])
@blp.operation("list_webhook_deliveries")
@blp.arguments(RecentArgsSchema, location="query")
@blp.response(200, DeliveriesSchema, headers=PRIVATE_HEADERS)
@blp.problems(401, 403, 503)
@blp.doc(security=[ADMIN_KEY])
def recent_deliveries(args):
    """The server's newest webhook deliveries and failures, of every game (server admin key)

    Of the last 1,000 deliveries, newest first; `?status=failed` lists those whose 24 h of
    retries are spent.
    """
    _server_admin()
    return {"deliveries": service().webhooks.recent(args["limit"], args.get("status"))}


def _server_admin() -> None:
    """Raises Unauthorized without a credential, Forbidden with another than the server admin
    key (X-Admin-Key or bearer)."""
    if not is_admin_key(admin_key() or bearer_token(), service().admin_key):
        if admin_key() is None and bearer_token() is None:
            raise Unauthorized("Webhook deliveries need the server admin key.")
        raise Forbidden("Only the server admin key reads webhook deliveries.")
