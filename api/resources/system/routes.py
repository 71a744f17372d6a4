"""Routes of /health, /ready and /metrics."""
import marshmallow as ma
from werkzeug.wrappers import Response

from api import metrics
from api.auth import service
from api.errors import ApiProblem
from api.resources import Blueprint

blp = Blueprint("system", __name__, description="Health, readiness and metrics")


class StatusSchema(ma.Schema):
    """A liveness or readiness answer."""

    status = ma.fields.String(required=True, validate=ma.validate.OneOf(("ok", "ready")),
                              metadata={"description": "`ok` (/health) or `ready` (/ready)"})


@blp.route("/health", methods=["GET"])
@blp.operation("get_health")
@blp.response(200, StatusSchema)
def health():
    """Liveness: the process answers"""
    return {"status": "ok"}


@blp.route("/ready", methods=["GET"])
@blp.operation("get_readiness")
@blp.response(200, StatusSchema)
@blp.problems(503)
def ready():
    """Readiness: Redis answers a ping"""
    if not service().ping():
        raise ApiProblem(503, "unavailable", "Redis is not reachable.")
    return {"status": "ready"}


@blp.route("/metrics", methods=["GET"])
@blp.operation("get_metrics")
@blp.response(200, {"type": "string"}, content_type="text/plain",
              description="Prometheus text exposition format")
def prometheus():
    """Prometheus metrics: requests by endpoint and status, latency, actions"""
    body, content_type = metrics.exposition()
    return Response(body, content_type=content_type)
