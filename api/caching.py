"""Responses meant for one caller are never stored by a shared cache (RFC 9111 §5.2.2.3,
§5.2.2.7; RFC 9110 §12.5.5 Vary): a seat's view, replay, event feeds, action results and
exports carry ``Cache-Control: private, no-store`` and ``Vary: Authorization``. So do the
responses that show tokens (a created or imported game)."""
from flask import Flask, request

PRIVATE_ENDPOINTS = frozenset({
    "games.get_view", "games.replay", "games.export_game", "games.create_game",
    "games.import_game", "events.events", "events.stream", "actions.act",
    "control.reclaim", "control.resign", "control.abort", "lobby.join", "lobby.start",
    "lobby.create_rematch", "lobby.rematch_seat", "lobby.spectators",
    "players.player_games", "webhooks.webhook_deliveries",
    "webhooks.recent_deliveries", "tickets.create_stream_ticket",
})
CACHE_CONTROL = "private, no-store"
PRIVATE_HEADERS = {
    "Cache-Control": {"description": "`private, no-store`: the response is for this caller only "
                                     "(RFC 9111)", "schema": {"type": "string"}},
    "Vary": {"description": "`Authorization`: the response depends on the bearer token",
             "schema": {"type": "string"}},
}


def init_app(app: Flask) -> None:
    """Add the private-response headers to every response of PRIVATE_ENDPOINTS (errors too)."""

    @app.after_request
    def _private(response):
        if request.endpoint in PRIVATE_ENDPOINTS:
            response.headers["Cache-Control"] = CACHE_CONTROL
            response.vary.add("Authorization")
        return response
