"""Players: a player's games (the inbox), for the integration key and player JWTs."""
from api.resources.players import deliveries  # noqa: F401
from api.resources.players.routes import blp  # noqa: F401
