"""The lobby: join a game by its code, start it, rematch it, add spectators (docs/lobby.md)."""
from api.resources.lobby.routes import blp  # noqa: F401
