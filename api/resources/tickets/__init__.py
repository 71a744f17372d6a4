"""Stream tickets: POST /v1/games/{game_id}/stream-tickets."""
from api.resources.tickets.routes import blp  # noqa: F401
