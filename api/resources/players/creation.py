"""What a game's creator may ask for on behalf of players (docs/players.md): seats' player ids
need the integration key or the server admin key (a player JWT: its own `sub` only), and so
does a game's own `webhook_url` (a JWT may not set one)."""
from api.auth import bearer_token, server_admin_key, service
from api.player_auth import acting_player
from api.ratelimits import client_ip
from service.errors import Forbidden, Unauthorized
from service.players import check_assignment


def check_creator(body: dict) -> None:
    """Refuse a creation whose seats name players the caller may not name. Raises Forbidden;
    Unauthorized for a wrong integration key, an invalid JWT, or any other bearer token (a
    seat token, junk, a JWT where none are taken) without the integration key: a creation reads
    its caller (the Idempotency-Key's scope), so a bearer is never taken for anonymous
    (docs/threat-model.md)."""
    bearer = bearer_token()
    acting = acting_player(bearer)
    admin = server_admin_key() is not None
    if bearer is not None and acting is None and not admin:
        raise Unauthorized("The bearer token is not a credential of a game's creator: send a "
                           "player JWT, the server admin key, or none (an anonymous creation).")
    integrator = (acting is not None and acting.integrator) or admin
    own = acting.player if acting is not None and not acting.integrator else None
    check_assignment(body.get("seats"), integrator, own)
    if body.get("webhook_url") is not None and not integrator:
        raise Forbidden("A game's webhook_url needs the integration key or the server admin key.")


def creator_scope() -> str:
    """Whose Idempotency-Keys a creation's key is among (service.idempotent_creation): "admin"
    (the server admin key), "integration:<player>" (the integration key, X-Player-Id or
    none), "player:<sub>" (a player JWT), else "anonymous:<address>": an anonymous caller's
    address (api.ratelimits.client_ip), so that two anonymous clients who chose the same key
    and body elsewhere never read each other's tokens. Raises what acting_player raises."""
    if server_admin_key() is not None:
        return "admin"
    acting = acting_player(bearer_token())
    if acting is None:
        return f"anonymous:{client_ip()}"
    return f"integration:{acting.player or ''}" if acting.integrator else f"player:{acting.player}"
