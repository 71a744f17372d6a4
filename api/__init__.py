"""The Flask REST API of the Contract Rummy service (gunicorn target ``api:create_app()``)."""
import os

from flask import Flask

from api import (admin_keys, caching, compression, contract, cors, docs_site, errors, metrics,
                 parsing, ratelimits, server_time, visibility, web)
from api.auth import SECURITY_SCHEMES
from api.options import App
from api.parsing import BoundedRequest
from api.resources import (actions, control, events, games, lobby, players, profiles, system,
                           tickets)
from api.typed_spec import TypedPlugin
from service.bootstrap import build_service
from service.config import RateLimits, Settings, trusted_networks

# The largest request body (413 beyond): a finished game's export record, the largest body the API
# takes, is 0.1-0.5 MB (measured over 120 bot games); 4 MiB leaves room for a game at the turn cap.
MAX_BODY_BYTES = 4 * 1024 * 1024
DEFAULTS = {
    "API_TITLE": "Contract Rummy",
    "API_VERSION": "1.0.0",
    "OPENAPI_VERSION": "3.0.3",
    "MAX_CONTENT_LENGTH": MAX_BODY_BYTES,
    "OPENAPI_URL_PREFIX": "/",
    "OPENAPI_JSON_PATH": "openapi.json",
    "OPENAPI_SWAGGER_UI_PATH": "/docs",
    "OPENAPI_SWAGGER_UI_URL": docs_site.SWAGGER_UI_URL,  # pinned package, served offline
    "API_SPEC_OPTIONS": {
        "info": {"description": "Contract Rummy as an event-sourced service. Errors are "
                                "application/problem+json (RFC 9457), each `type` a link to "
                                "its entry on /docs/problems; rule violations carry the rule "
                                "id and `rule_url`, its entry on the rules page /docs/rules "
                                "(T1-T5: the table rules of the clock and seat control). "
                                "Every response carries a "
                                "`Server-Time` header: the server's time, RFC 3339 UTC with "
                                "ms, the clock of `awaiting.deadline` and `recorded_at`. Any "
                                "request may also get 414 (request line over 4094 bytes), 431 "
                                "(a header field over 8190 bytes or more than 100 fields) or "
                                "400 (unreadable HTTP) from the HTTP server, as problem+json "
                                "too. A request with an `X-Admin-Key` that is not the server "
                                "admin key gets 403 `forbidden`, whatever it asks (without the "
                                "header it is a caller without the key). OPTIONS on a path "
                                "answers 204 with `Allow` (and, for an origin of "
                                "RUMMY_CORS_ORIGINS, the CORS preflight headers)."},
        "components": {"securitySchemes": SECURITY_SCHEMES},
    },
}


def create_app(test_config: dict | None = None) -> Flask:
    """Build the API application.

    ``test_config`` overrides the configuration. Its ``RUMMY_SERVICE`` key, when present, is
    the GameService to use (tests inject one; None builds an app that only documents itself,
    for ``rummy openapi``); otherwise the service is built by ``service.bootstrap`` from the
    environment. ``RUMMY_MAX_WAIT_S``, ``RUMMY_SSE_MAX_S``, ``RUMMY_SSE_HEARTBEAT_S``, the
    stream caps ``RUMMY_MAX_STREAMS_PER_CREDENTIAL`` / ``RUMMY_MAX_STREAMS_PER_IP``,
    ``RUMMY_RATE_LIMITS`` (a string as the variable takes it, "off" for none),
    ``RUMMY_RATE_LIMIT_STORAGE`` (the limiter's Redis URL, default REDIS_URL; none: no limit),
    ``RUMMY_RATE_LIMIT_DELAY_S`` (how long a 429 is held; 0 in tests),
    ``RUMMY_TRUSTED_PROXIES`` (a comma list of IPs/CIDRs) and ``RUMMY_CORS_ORIGINS`` (a
    comma list of browser origins, api.cors) come from
    ``service.config.Settings`` (the environment) unless ``test_config`` sets them. The
    service is ``app.extensions["rummy"]``. Raises ValueError for a bad setting.
    """
    settings = Settings.from_env(os.environ)
    app = App(__name__)
    app.request_class = BoundedRequest
    # `/v1/games//view` is no game's path: a 404 problem, not werkzeug's 308 HTML redirect to
    # `/v1/games/view` (which would name a game "view").
    app.url_map.merge_slashes = False
    app.config.update(DEFAULTS)
    app.config.update({"RUMMY_MAX_WAIT_S": settings.max_wait_s,
                       "RUMMY_SSE_MAX_S": settings.sse_max_s,
                       "RUMMY_SSE_HEARTBEAT_S": settings.sse_heartbeat_s,
                       "RUMMY_MAX_STREAMS_PER_CREDENTIAL": settings.max_streams_per_credential,
                       "RUMMY_MAX_STREAMS_PER_IP": settings.max_streams_per_ip,
                       "RUMMY_RATE_LIMITS": settings.rate_limits,
                       "RUMMY_RATE_LIMIT_STORAGE": settings.redis_url,
                       "RUMMY_RATE_LIMIT_DELAY_S": settings.rate_limit_delay_s,
                       "RUMMY_TRUSTED_PROXIES": settings.trusted_proxies,
                       "RUMMY_CORS_ORIGINS": settings.cors_origins})
    app.config.update(test_config or {})
    app.json.sort_keys = False
    compression.init_app(app)  # first: its after_request hook runs last
    if "RUMMY_SERVICE" in app.config:
        app.extensions["rummy"] = app.config.pop("RUMMY_SERVICE")
    else:
        app.extensions["rummy"] = build_service(settings=settings)
    api = errors.ProblemApi(app, spec_kwargs={"extra_plugins": [ratelimits.RateLimitDoc(),
                                                                 admin_keys.AdminKeyDoc()],
                                              "marshmallow_plugin": TypedPlugin()})
    contract.register_components(api.spec)
    for resource in (games, lobby, actions, control, events, tickets, players, profiles, system):
        api.register_blueprint(resource.blp)
    api.register_blueprint(players.deliveries.blp)
    app.register_blueprint(docs_site.blp)
    app.register_blueprint(web.blp)
    errors.register_error_handlers(app)
    metrics.init_app(app)  # before every hook but compression's rewrite: each request is timed
    admin_keys.init_app(app)  # before visibility: a wrong key is a 403 even on a private game
    visibility.init_app(app)
    parsing.init_app(app)  # a body that is not JSON: 400 before any route acts
    caching.init_app(app)
    server_time.init_app(app)
    cors.init_app(app)
    budgets, trusted = app.config["RUMMY_RATE_LIMITS"], app.config["RUMMY_TRUSTED_PROXIES"]
    ratelimits.init_app(app, RateLimits.parse(budgets) if isinstance(budgets, str) else budgets,
                        app.config["RUMMY_RATE_LIMIT_STORAGE"],
                        trusted_networks(trusted) if isinstance(trusted, str) else trusted)
    return app
