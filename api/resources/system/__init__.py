"""System endpoints: liveness, readiness, metrics."""
from api.resources.system.routes import blp  # noqa: F401
