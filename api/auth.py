"""Who is calling: the bearer token decides the seat, never the request body."""
from flask import current_app, g, request

from api import player_auth
from service import tickets
from service.errors import Forbidden, Unauthorized
from service.tokens import is_admin_key

BEARER = {"bearerAuth": []}
# The endpoints that take a stream ticket (`?ticket=`) instead of a bearer token.
TICKET_ENDPOINTS = frozenset({"events.events", "events.stream"})
ADMIN_KEY = {"adminKey": []}
SECURITY_SCHEMES = {
    **player_auth.SECURITY_SCHEMES,
    "bearerAuth": {
        "type": "http",
        "scheme": "bearer",
        "description": "A seat token (acts for that seat of that game) or the game's admin token "
                       "(manages the game; sees only the public view until the game is "
                       "finished), both returned once by POST /v1/games.",
    },
    "adminKey": {
        "type": "apiKey",
        "in": "header",
        "name": "X-Admin-Key",
        "description": "The server admin key (configuration RUMMY_ADMIN_KEY): starting positions, "
                       "imports, reproducible seeds, and the hidden cards of a live game. Any "
                       "other value is refused with 403 on every request (api.admin_keys).",
    },
}


# A seat's credentials: its token, or acting for its player (docs/players.md).
SEAT = [BEARER, player_auth.INTEGRATION_KEY, player_auth.PLAYER_JWT]


def service():
    """Return the application's GameService (``app.extensions["rummy"]``)."""
    return current_app.extensions["rummy"]


def bearer_token() -> str | None:
    """Return the token of an ``Authorization: Bearer <token>`` header, or None."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None


def principal(game_id: str):
    """Authenticate the caller for ``game_id``: a Principal with its seat or admin flag.

    The server admin key counts as bearer or as ``X-Admin-Key`` (docs/threat-model.md); the
    integration key (with ``X-Player-Id``) or a player JWT acts for that player's seat
    (api.player_auth). On the event feeds (TICKET_ENDPOINTS), a ``?ticket=`` stands for the
    caller it was issued to (service.tickets).
    Raises the service's ``Unauthorized`` for a missing or unknown token or ticket and
    ``GameNotFound`` for an unknown game.
    """
    acting = player_auth.player_principal(game_id, bearer_token())  # docs/players.md
    if acting is not None:
        return acting
    found = authenticated(game_id, bearer_token(), admin_key())
    ticket = request.args.get("ticket")
    if ticket is not None and request.endpoint in TICKET_ENDPOINTS:
        return tickets.redeem(service().secret, game_id, ticket)
    return found


def authenticated(game_id: str, bearer: str | None, given_key: str | None = None):
    """`service().authenticate(game_id, bearer, given_key)`, asked once per request: the rate
    limiter's key (api.ratelimits) and the route both need the caller, and a token granted
    after creation (a joined seat) costs a Redis read each time. A refusal is not kept (it
    raises again). Raises the service's ``Unauthorized`` and ``GameNotFound``."""
    asked = g.setdefault("principals", {})
    key = (game_id, bearer, given_key)
    if key not in asked:
        asked[key] = service().authenticate(game_id, bearer, given_key)
    return asked[key]


def holds_ticket(game_id: str) -> bool:
    """Whether the request carries a valid stream ticket of ``game_id`` where tickets are
    taken (a private game is visible to it: api.visibility)."""
    ticket = request.args.get("ticket")
    if ticket is None or request.endpoint not in TICKET_ENDPOINTS:
        return False
    try:
        tickets.redeem(service().secret, game_id, ticket)
    except Unauthorized:
        return False
    return True


def admin_key() -> str | None:
    """Return the ``X-Admin-Key`` header, or None."""
    return request.headers.get("X-Admin-Key") or None


def server_admin_key() -> str | None:
    """The server admin key when the request carries it, as ``X-Admin-Key`` or as the bearer
    (docs/threat-model.md), else None (a wrong ``X-Admin-Key`` is refused before any route:
    api.admin_keys)."""
    configured = service().admin_key
    return next((given for given in (admin_key(), bearer_token())
                 if is_admin_key(given, configured)), None)


def checked_admin_key() -> str | None:
    """The ``X-Admin-Key`` header when it is the server admin key; None without the header.
    Raises the service's ``Forbidden`` (403) for any other key, so that a mistyped key is not
    taken silently for none (a game created without the key's powers: a seed that is not
    reproducible, docs/threat-model.md)."""
    given = admin_key()
    if given is not None and not is_admin_key(given, service().admin_key):
        raise Forbidden("The X-Admin-Key header is not the server admin key (omit the header "
                        "to act without it).")
    return given
