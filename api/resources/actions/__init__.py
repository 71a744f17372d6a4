"""Actions: the one endpoint through which a seat plays."""
from api.resources.actions.routes import blp  # noqa: F401
