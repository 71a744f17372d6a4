"""Rate limits (issue 12, docs/threat-model.md "Rate limits"): flask-limiter on the app's Redis,
keyed by credential first and by client IP only for anonymous calls.

A mobile backend sends everyone's requests from one address, so a valid credential (a seat or
admin token of the game in the path, the server admin key) is its own budget; only a call
without one (or with a token that is not valid for the game) counts against its client IP.
X-Forwarded-For names the client only when the peer is a trusted proxy
(RUMMY_TRUSTED_PROXIES). The limiter's storage errors fail open: a Redis blip falls back to
per-process counters in memory, never to a 500.
"""
from __future__ import annotations

import hashlib
import ipaddress
import logging
import random
import time

from apispec import BasePlugin
from flask import Flask, current_app, g, request
from flask_limiter import HeaderNames, Limiter, RateLimitExceeded

from api.auth import authenticated, bearer_token, server_admin_key
from api.player_auth import rate_credential
from api.errors import PROBLEM_JSON, ProblemSchema, problem
from api.problems import listing
from service.config import RateLimits
from service.errors import ServiceError
from service.store import StoreError

log = logging.getLogger(__name__)

# Never limited: probes, metrics, the API's documents, static files (and every OPTIONS).
EXEMPT_BLUEPRINTS = ("system", "api-docs", "docs_site")
EXEMPT_PATHS = ("/health", "/ready", "/metrics")  # the documented ones of EXEMPT_BLUEPRINTS
CREATE_ENDPOINTS = ("games.create_game", "games.import_game")
ACTION_ENDPOINTS = ("actions.act",)
REFUSAL_BUDGET = "rummy_refusal_budget"  # app.extensions: spend_on_refusal's limited callable
STORAGE_TIMEOUT_S = 0.5  # a Redis that does not answer costs a request this much, then fails open
# flask-limiter writes its Retry-After on every limited response; the API sends it on 429 only.
LIMITER_RETRY_AFTER = "X-Rummy-Limiter-Retry-After"
# A held 429 ends at a random point of the last half of its hold: held alike, the answers to a
# flood's connections all ended together, and their next requests then came in one burst that
# every other client's requests queued behind (bench.rate_limit_fairness).
HOLD_SPREAD = 0.5
HEADERS = {HeaderNames.LIMIT: "RateLimit-Limit", HeaderNames.REMAINING: "RateLimit-Remaining",
           HeaderNames.RESET: "RateLimit-Reset", HeaderNames.RETRY_AFTER: LIMITER_RETRY_AFTER}


def init_app(app: Flask, budgets: RateLimits | None, storage_url: str | None,
             trusted: tuple = ()) -> Limiter | None:
    """Limit every route of `app` but the exempt ones with `budgets` (None: no limit), counted
    in the Redis at `storage_url` (None: no limit, e.g. the app that only documents itself).
    `trusted`: the networks whose X-Forwarded-For is believed. Call after the blueprints are
    registered. Returns the Limiter (None when off)."""
    app.config["RUMMY_TRUSTED_PROXIES"] = trusted
    if budgets is None or not storage_url:
        return None
    app.after_request(_standard_headers)  # before the limiter's: runs after it (Flask order)
    limiter = Limiter(
        key_func=rate_key, request_identifier=_endpoint, app=app, storage_uri=storage_url, key_prefix="rummy-rate",
        storage_options={"socket_timeout": STORAGE_TIMEOUT_S,
                         "socket_connect_timeout": STORAGE_TIMEOUT_S},
        strategy="sliding-window-counter", headers_enabled=True, header_name_mapping=HEADERS,
        swallow_errors=True, in_memory_fallback_enabled=True)
    limiter.request_filter(lambda: request.method == "OPTIONS")
    app.extensions[REFUSAL_BUDGET] = limiter.shared_limit(budgets.general,
                                                          scope="general")(_refusal)
    for endpoint, view in list(app.view_functions.items()):
        if endpoint.split(".")[-1] == "static" or endpoint.split(".")[0] in EXEMPT_BLUEPRINTS:
            continue
        view = limiter.shared_limit(budgets.general, scope="general")(view)
        if endpoint in CREATE_ENDPOINTS:
            view = limiter.shared_limit(budgets.create, scope="create")(view)
        if endpoint in ACTION_ENDPOINTS:
            view = limiter.limit(budgets.action)(view)
        app.view_functions[endpoint] = view
    app.register_error_handler(RateLimitExceeded, _too_many_requests)
    return limiter


def spend_on_refusal() -> None:
    """Count a request that a before_request check is about to refuse (a wrong X-Admin-Key,
    api.admin_keys) against its caller's general budget (`rate_key`), on any path, exempt ones
    and paths of no route included: the view, whose limits count a request, never runs for it.
    Raises RateLimitExceeded (429) when the budget is spent. Nothing when the limiter is off."""
    counted = current_app.extensions.get(REFUSAL_BUDGET)
    if counted is not None:
        counted()


def _refusal() -> None:
    """The callable the general budget decorates for `spend_on_refusal` (does nothing)."""


def _endpoint() -> str:
    """The limiter's name of a request: its endpoint, "unmatched" for a path of no route (the
    limiter's default, "", exempts the request from every limit, `spend_on_refusal`'s too)."""
    return request.endpoint or "unmatched"


def rate_key() -> str:
    """The budget's owner of this request: "server-admin" for the server admin key (bearer or
    X-Admin-Key), "player:<SHA-256 prefix>" for a request acting for a player (api.player_auth),
    "token:<SHA-256 prefix>" for a seat or admin token valid for the game in the path, else
    "ip:<client IP>". Never raises: an unknown game or token is anonymous."""
    if "rate_key" not in g:
        g.rate_key = _credential() or f"ip:{client_ip()}"
    return g.rate_key


def _credential() -> str | None:
    bearer = bearer_token()
    if server_admin_key() is not None:
        return "server-admin"
    player = rate_credential(bearer)  # a player acted for: counted per player
    if player is not None:
        return player
    game_id = (request.view_args or {}).get("game_id")
    if bearer is None or game_id is None:
        return None
    try:
        authenticated(game_id, bearer)
    except (ServiceError, StoreError):  # no credential of this game (or no answer): anonymous
        return None
    return "token:" + hashlib.sha256(bearer.encode()).hexdigest()[:32]


def client_ip() -> str:
    """The client's address: the peer's, unless the peer is a trusted proxy; then the last
    X-Forwarded-For entry (walking from the right) that is not a trusted proxy itself."""
    trusted = current_app.config.get("RUMMY_TRUSTED_PROXIES", ())
    peer = request.remote_addr or "unknown"
    if not _is_trusted(peer, trusted):
        return peer
    hops = [hop.strip() for hop in request.headers.get("X-Forwarded-For", "").split(",")]
    for hop in reversed([h for h in hops if h]):
        if not _is_trusted(hop, trusted):
            return hop
        peer = hop
    return peer


def _is_trusted(address: str, trusted: tuple) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:  # not an address (a forged header): never a proxy
        return False
    return any(ip in network for network in trusted)


def _too_many_requests(error: RateLimitExceeded):
    """429 problem+json (RFC 9457; RFC 6585 §4); Retry-After and RateLimit-* come from
    _standard_headers, as they are at the refusal, and the answer is then held
    RUMMY_RATE_LIMIT_DELAY_S (at most until the budget allows a request again): a client that
    floods in a loop, answered at once, would make the server spend all it has on 429s and
    slow every other client; held, it sends one request per connection per delay. On gevent
    the wait holds a greenlet, not a thread."""
    retry_after = error.limit.limit.get_expiry() if error.limit is not None else 1
    g.rate_limit_hold_s = min(current_app.config.get("RUMMY_RATE_LIMIT_DELAY_S", 0), retry_after)
    return problem(429, "too-many-requests",
                   f"Too many requests: the budget of {error.description} for this credential "
                   "(or, without one, this client address) is spent; retry after Retry-After "
                   "seconds.")


def _standard_headers(response):
    """Retry-After on the limiter's 429 only (another 429, a stream cap's, keeps its own);
    RateLimit-Reset in seconds from now (the IETF draft's delta-seconds; flask-limiter writes a
    timestamp). Runs after the limiter has written its headers: the hold of a 429
    (`_too_many_requests`) comes after them, so they say the budget at the refusal
    (RateLimit-Remaining 0), not a window that moved during the hold."""
    retry_after = response.headers.pop(LIMITER_RETRY_AFTER, None)
    hold_s = g.pop("rate_limit_hold_s", None)
    if hold_s is not None and response.status_code == 429 and retry_after is not None:
        response.headers["Retry-After"] = str(max(int(retry_after), 1))
    reset = response.headers.get("RateLimit-Reset")
    if reset is not None and reset.isdigit():
        response.headers["RateLimit-Reset"] = str(max(int(reset) - int(time.time()), 0))
    if hold_s:
        time.sleep(hold_s * random.uniform(1 - HOLD_SPREAD, 1))
    return response


class RateLimitDoc(BasePlugin):
    """apispec plugin: the 429 problem, with Retry-After and RateLimit-* headers, on every
    operation the limiter limits (all but EXEMPT_PATHS)."""

    RESPONSE = "TooManyRequests"

    def init_spec(self, spec) -> None:
        super().init_spec(spec)
        def integer():  # a new dict each time: no YAML anchors in openapi.yaml
            return {"schema": {"type": "integer"}}

        spec.components.response(self.RESPONSE, {
            "description": "Too many requests: the caller's rate budget (per credential, or "
                           "per client IP without one; RUMMY_RATE_LIMITS) is spent, or, for "
                           "streams and long polls, its cap of open streams is reached"
                           + listing(429),
            "content": {PROBLEM_JSON: {"schema": ProblemSchema}},
            "headers": {
                "Retry-After": {**integer(), "description": "Seconds until the budget allows "
                                                         "this request again"},
                "RateLimit-Limit": {**integer(), "description": "Requests the budget allows "
                                                             "per window"},
                "RateLimit-Remaining": {**integer(), "description": "Requests left in the window"},
                "RateLimit-Reset": {**integer(), "description": "Seconds until the window resets"},
            }})

    def operation_helper(self, path=None, operations=None, **kwargs) -> None:
        if path in EXEMPT_PATHS:
            return
        for operation in (operations or {}).values():
            operation.setdefault("responses", {})["429"] = self.RESPONSE
