"""Stream tickets (issue 9): a browser's EventSource cannot send `Authorization`, so a caller
with a token trades it for a ticket that stands for that caller, on that game, for
`TICKET_S` seconds, and passes it as `?ticket=` to the event stream and feed (reconnects
included).

A ticket is stateless: ``<expiry ms>.<who>.<mac>``, the MAC being HMAC-SHA256 of the server
secret (RUMMY_SECRET) over the game id, the caller and the expiry, so every API process checks
it without Redis and nobody can forge or widen one (another game, another seat, a later
expiry). `who` is ``s<seat>`` for a seat, ``a`` for the game's admin, ``x`` for the server
admin key. Tickets are never logged: the access log records paths without query strings.
"""
from __future__ import annotations

import hashlib
import hmac
import time

from service.errors import Unauthorized
from service.principal import Principal

TICKET_S = 60


def _who(principal: Principal) -> str:
    if principal.server:
        return "x"
    if principal.admin:
        return "a"
    if principal.seat is not None:
        return f"s{principal.seat}"
    if principal.spectator:
        return "v"
    raise Unauthorized("A stream ticket stands for a token: send a seat's, a spectator's or "
                       "the game's admin token (the public stream needs none).")


def _principal(who: str) -> Principal:
    if who == "x":
        return Principal(admin=True, server=True)
    if who == "a":
        return Principal(admin=True)
    if who == "v":
        return Principal(spectator=True)
    return Principal(seat=int(who[1:]))


def _mac(secret: str, game_id: str, who: str, expiry_ms: int) -> str:
    message = f"stream-ticket:{game_id}:{who}:{expiry_ms}".encode()
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def issue(secret: str, game_id: str, principal: Principal,
          now_s: float | None = None) -> tuple[str, int]:
    """(ticket, its expiry in Unix ms) for `principal` on `game_id`, valid TICKET_S seconds.
    Raises Unauthorized for the public (no token: it needs no ticket)."""
    who = _who(principal)
    expiry_ms = int(((time.time() if now_s is None else now_s) + TICKET_S) * 1000)
    return f"{expiry_ms}.{who}.{_mac(secret, game_id, who, expiry_ms)}", expiry_ms


def redeem(secret: str, game_id: str, ticket: str, now_s: float | None = None) -> Principal:
    """The principal `ticket` stands for on `game_id`. Raises Unauthorized when it is not a
    ticket of this server for this game, or it expired."""
    expiry, _, rest = ticket.partition(".")
    who, _, mac = rest.partition(".")
    valid = (expiry.isdigit() and (who in ("a", "x", "v") or (who[:1] == "s" and who[1:].isdigit()))
             and hmac.compare_digest(mac, _mac(secret, game_id, who, int(expiry))))
    if not valid:
        raise Unauthorized("The stream ticket is not valid for this game.")
    if int(expiry) < (time.time() if now_s is None else now_s) * 1000:
        raise Unauthorized("The stream ticket expired: ask POST .../stream-tickets for another.")
    return _principal(who)
