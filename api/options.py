"""OPTIONS on any path of the app: 204 No Content with ``Allow`` (RFC 9110 §9.3.7), no body
and no Content-Type, where Flask answered an empty ``200 text/html``. With an origin of
RUMMY_CORS_ORIGINS, the same 204 carries the CORS preflight headers (api.cors); with another
origin or none, it carries none. OPTIONS are never rate-limited (api.ratelimits) and reveal
nothing of a game, even a private one (api.visibility). A path the app does not have is a 404
problem, as for any method."""
from flask import Flask, Response


class App(Flask):
    """The API's Flask application class: Flask with the OPTIONS answer above."""

    def make_default_options_response(self) -> Response:
        response = super().make_default_options_response()  # Allow: the rule's methods
        response.headers["Allow"] = ", ".join(sorted(response.allow))  # the same every time
        response.status_code = 204
        del response.headers["Content-Type"]
        return response
