"""Rule profiles: GET /v1/profiles and /v1/profiles/{name} (RULES.md R11.20)."""
from api.resources.profiles.routes import blp  # noqa: F401
