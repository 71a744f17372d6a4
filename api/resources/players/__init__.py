"""Players: a player's games (the inbox), for the integration key and player JWTs."""
from api.resources.players.routes import blp  # noqa: F401
