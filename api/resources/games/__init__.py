"""Games: create, list, the public and seat views, replay, export and import."""
from api.resources.games.routes import blp  # noqa: F401
