"""Event feeds: long poll and Server-Sent Events, redacted for the caller."""
from api.resources.events.routes import blp  # noqa: F401
