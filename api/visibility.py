"""Private games (docs/lobby.md "Visibility"): before any route of a game (`game_id` in its
path: the API's and the web's), a private game answers a caller without a token of it
exactly as an unknown game (service.visibility.require_visible). One hook, so no route can
forget it. The web pages' shells (api.web.SHELLS) read no game and are the same for every
id: the browser sends no token with a page load, so the page's own API calls decide."""
from flask import Flask, request

from api.auth import admin_key, bearer_token, holds_ticket, service
from api.player_auth import acts_in_game
from api.web import SHELLS
from service.visibility import require_visible


def init_app(app: Flask) -> None:
    """Check every request with a `game_id` path argument (OPTIONS aside: CORS and Allow
    reveal nothing of a game; the web shells aside: they read no game)."""

    @app.before_request
    def _private_games_hide():
        game_id = (request.view_args or {}).get("game_id")
        if game_id is None or request.method == "OPTIONS" or request.endpoint in SHELLS:
            return
        if holds_ticket(game_id):
            return  # a stream ticket was issued to a caller holding a token of the game
        if acts_in_game(game_id, bearer_token()):  # a player of the game (docs/players.md)
            return
        require_visible(service(), game_id, bearer_token(), admin_key())  # GameNotFound: 404
