"""Seat control: reclaim a seat taken over, resign a seat, abort a game (docs/clock.md)."""
from api.resources.control.routes import blp  # noqa: F401
