"""Who may find a game (docs/lobby.md "Visibility"): a private game answers every caller
without a token of that game exactly as an unknown game does; spectators hold a token that
sees what the public sees, of any game, private ones too."""
from __future__ import annotations

from service.errors import Forbidden, GameNotFound, Unauthorized
from service.principal import Principal
from service.sealed_answers import key_name
from service.table_events import SpectatorAdded, record_table_events, refuse_when_closed
from service.tokens import new_token


def require_visible(games, game_id: str, bearer: str | None, given_key: str | None) -> None:
    """Raise GameNotFound (the unknown game's error) when `game_id` is private and the caller
    (`bearer` token, `given_key` an X-Admin-Key header) holds no credential of it, or a token
    it does not know; a public or unlisted game, or an unknown one (GameNotFound), is left to
    the route."""
    if games.records.get(game_id).visibility != "private":
        return
    try:
        principal = games.authenticate(game_id, bearer, given_key)
    except Unauthorized:
        raise GameNotFound(game_id) from None
    if not principal.holds_token:
        raise GameNotFound(game_id)


def add_spectator(games, game_id: str, principal: Principal,
                  idempotency_key: str | None = None) -> dict:
    """A new spectator token of `game_id`: `{"game_id", "token"}` (shown once; a retry with
    the same `idempotency_key` gets the same token). It sees the public table, events and
    stream of the game, live, private or not. Raises GameNotFound,
    Unauthorized (no token), Forbidden (not the game's admin token nor the server admin
    key), RuleViolation (an aborted game or an expired lobby: refuse_when_closed)."""
    if not principal.admin:
        if not principal.holds_token:
            raise Unauthorized("A spectator token needs the game's admin token.")
        raise Forbidden("Only the game's admin token or the server admin key may add a "
                        "spectator.")
    refuse_when_closed(games.load(game_id)[1])  # before a token is granted
    token = games.grants.grant_spectator(game_id, new_token(), idempotency_key)
    # Told once the token is granted: a token the caller never got (an append that failed)
    # is of use to nobody, while every token handed out has its event.
    record_table_events(games, game_id, [SpectatorAdded()],
                        None if idempotency_key is None
                        else f"spectator:{key_name(idempotency_key)}")  # the key seals the token
    return {"game_id": game_id, "token": token}
