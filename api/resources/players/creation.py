"""What a game's creator may ask for on behalf of players (docs/players.md): seats' player ids
need the integration key or the server admin key (a player JWT: its own `sub` only)."""
from api.auth import admin_key, bearer_token, service
from api.player_auth import acting_player
from service.players import check_assignment
from service.tokens import is_admin_key


def check_creator(body: dict) -> None:
    """Refuse a creation whose seats name players the caller may not name. Raises Forbidden;
    Unauthorized for a wrong integration key or an invalid JWT."""
    acting = acting_player(bearer_token())
    integrator = (acting is not None and acting.integrator) or is_admin_key(admin_key(),
                                                                            service().admin_key)
    own = acting.player if acting is not None and not acting.integrator else None
    check_assignment(body.get("seats"), integrator, own)
