"""Private games (docs/lobby.md "Visibility"): before any route of a game (`game_id` in its
path: the API's and the web pages'), a private game answers a caller without a token of it
exactly as an unknown game (service.visibility.require_visible). One hook, so no route can
forget it."""
from flask import Flask, abort, request

from api.auth import admin_key, bearer_token, holds_ticket, service
from api.player_auth import acts_in_game
from service.errors import GameNotFound
from service.visibility import require_visible


def init_app(app: Flask) -> None:
    """Check every request with a `game_id` path argument (OPTIONS aside: CORS and Allow
    reveal nothing of a game)."""

    @app.before_request
    def _private_games_hide():
        game_id = (request.view_args or {}).get("game_id")
        if game_id is None or request.method == "OPTIONS" or holds_ticket(game_id):
            return  # a stream ticket was issued to a caller holding a token of the game
        if acts_in_game(game_id, bearer_token()):  # a player of the game (docs/players.md)
            return
        try:
            require_visible(service(), game_id, bearer_token(), admin_key())
        except GameNotFound:
            if request.blueprint == "web":
                abort(404)  # the pages' own 404 for an unknown game
            raise
