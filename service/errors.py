"""Game-level errors of the application layer (docs/architecture.md §2). The API maps each to
an HTTP problem (RFC 9457): GameNotFound 404, Unauthorized 401, Forbidden 403."""


class ServiceError(Exception):
    """Base of the application layer's own errors."""


class GameNotFound(ServiceError):
    """No game has this id."""

    def __init__(self, game_id: str) -> None:
        shown = game_id if len(game_id) <= 64 else game_id[:64] + "…"  # never echo a flood
        super().__init__(f"No game {shown!r}.")
        self.game_id = game_id


class Unauthorized(ServiceError):
    """The request needs a valid token and has none, or one this game does not know."""


class Forbidden(ServiceError):
    """The caller is known but may not do this (another seat's action, an admin-only read)."""
