"""Rate limits (issue 12): flask-limiter on a real Redis, through the Flask app. Budgets are per
credential (a seat or admin token valid for the game, the server admin key) and per client IP
only for anonymous calls; X-Forwarded-For counts only from trusted proxies; probes, metrics and
documents are never limited; a limiter Redis that is down never turns into errors."""
from __future__ import annotations

import time

import pytest
from prometheus_client import REGISTRY

from api import create_app
from bench.stack import free_port
from service.config import RateLimits, Settings
from service.embedded import EmbeddedRedis
from tests.integration.api_client import HUMANS, PROBLEM, bearer

PEER = {"REMOTE_ADDR": "192.0.2.10"}


@pytest.fixture
def limited(service, redis_url):
    """`limited(limits, storage=redis_url, trusted="", delay_s=0)`: a test client of the API
    with RUMMY_RATE_LIMITS `limits` counted in the Redis at `storage`, its 429s held
    `delay_s`."""
    def build(limits: str, storage: str = redis_url, trusted: str = "", delay_s: float = 0):
        app = create_app({"RUMMY_SERVICE": service, "TESTING": True, "RUMMY_RATE_LIMITS": limits,
                          "RUMMY_RATE_LIMIT_STORAGE": storage, "RUMMY_TRUSTED_PROXIES": trusted,
                          "RUMMY_RATE_LIMIT_DELAY_S": delay_s})
        return app.test_client()
    return build


def new_game(client, **environ):
    response = client.post("/v1/games", json={"seats": HUMANS},
                           environ_base={**PEER, **environ})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def test_over_budget_a_429_problem_with_retry_after_and_ratelimit_headers(limited):
    client = limited("general=3/minute")
    game = new_game(client)
    seat = bearer(game["seats"][0]["token"])
    url = f"/v1/games/{game['id']}/view"
    answers = [client.get(url, headers=seat, environ_base=PEER) for _ in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    refused = answers[-1]
    assert refused.mimetype == PROBLEM and refused.get_json()["status"] == 429
    assert "budget" in refused.get_json()["detail"]
    assert 1 <= int(refused.headers["Retry-After"]) <= 61  # a minute, give or take rounding
    assert refused.headers["RateLimit-Limit"] == "3"
    assert refused.headers["RateLimit-Remaining"] == "0"
    assert 0 <= int(refused.headers["RateLimit-Reset"]) <= 61
    assert "Retry-After" not in answers[0].headers  # only a 429 says when to retry
    assert answers[0].headers["RateLimit-Remaining"] == "2"


def test_a_429_is_held_its_delay_but_never_past_the_budgets_window(limited):
    """A client flooding in a loop gets its 429s slowly (half to all of
    RUMMY_RATE_LIMIT_DELAY_S), so it cannot make the server spend itself on refusals; a request
    within budget is not held."""
    client = limited("general=2/second", delay_s=0.6)
    game = new_game(client)
    url, seat = f"/v1/games/{game['id']}/view", bearer(game["seats"][0]["token"])
    timed = []
    for _ in range(3):
        started = time.monotonic()
        timed.append((client.get(url, headers=seat, environ_base=PEER).status_code,
                      time.monotonic() - started))
    assert [status for status, _ in timed] == [200, 200, 429]
    assert all(took < 0.25 for _, took in timed[:2]) and 0.3 <= timed[2][1] < 1.0
    held_at_most_window = limited("general=1/second", delay_s=5)
    game = new_game(held_at_most_window)
    url, seat = f"/v1/games/{game['id']}/view", bearer(game["seats"][0]["token"])
    held_at_most_window.get(url, headers=seat, environ_base=PEER)
    started = time.monotonic()
    assert held_at_most_window.get(url, headers=seat, environ_base=PEER).status_code == 429
    assert time.monotonic() - started < 1.5  # the window is a second: never held 5 s


def test_another_credential_and_the_public_are_unaffected(limited):
    client = limited("general=2/minute")
    game = new_game(client, REMOTE_ADDR="192.0.2.99")  # the creation is another IP's budget
    url = f"/v1/games/{game['id']}/view"
    one, two = (bearer(game["seats"][n]["token"]) for n in (0, 1))
    assert [client.get(url, headers=one, environ_base=PEER).status_code
            for _ in range(3)] == [200, 200, 429]
    assert client.get(url, headers=two, environ_base=PEER).status_code == 200
    assert client.get(f"/v1/games/{game['id']}", environ_base=PEER).status_code == 200


def test_actions_have_their_own_budget_per_token(limited):
    client = limited("action=2/minute")
    game = new_game(client)
    url = f"/v1/games/{game['id']}/actions"
    token = bearer(game["seats"][0]["token"])
    statuses = [client.post(url, json={"type": "pass"}, headers=token, environ_base=PEER)
                .status_code for _ in range(3)]
    assert statuses[:2] != [429, 429] and statuses[2] == 429  # refused actions count too
    assert client.get(f"/v1/games/{game['id']}/view", headers=token,
                      environ_base=PEER).status_code == 200  # the general budget is apart


def test_anonymous_calls_are_keyed_by_client_ip(limited):
    client = limited("create=2/minute")
    new_game(client), new_game(client)
    refused = client.post("/v1/games", json={"seats": HUMANS}, environ_base=PEER)
    assert refused.status_code == 429 and refused.headers["Retry-After"]
    new_game(client, REMOTE_ADDR="192.0.2.11")


def test_a_token_not_valid_for_the_game_is_anonymous(limited):
    """Rotating made-up tokens must not buy new budgets: they count against the IP."""
    client = limited("general=2/minute")
    game = new_game(client, REMOTE_ADDR="192.0.2.99")
    url = f"/v1/games/{game['id']}"
    statuses = [client.get(url, headers=bearer(f"made-up-{n}"), environ_base=PEER).status_code
                for n in range(3)]
    assert statuses == [200, 200, 429]


def test_x_forwarded_for_is_ignored_from_an_untrusted_peer(limited):
    client = limited("create=2/minute")
    statuses = [client.post("/v1/games", json={"seats": HUMANS}, environ_base=PEER,
                            headers={"X-Forwarded-For": f"203.0.113.{n}"}).status_code
                for n in range(3)]
    assert statuses == [201, 201, 429]


def test_x_forwarded_for_names_the_client_behind_a_trusted_proxy(limited):
    client = limited("create=2/minute", trusted="192.0.2.0/24, 10.0.0.1")
    proxy = {"REMOTE_ADDR": "192.0.2.5"}

    def create(forwarded):
        return client.post("/v1/games", json={"seats": HUMANS}, environ_base=proxy,
                           headers={"X-Forwarded-For": forwarded}).status_code
    # The client is the rightmost address that is not a trusted proxy: what it put first
    # itself ("1.2.3.4, ...") cannot choose its budget.
    assert [create(f"{n}.2.3.4, 203.0.113.7, 10.0.0.1") for n in range(3)] == [201, 201, 429]
    assert create("203.0.113.8") == 201
    assert client.post("/v1/games", json={"seats": HUMANS},
                       environ_base=proxy).status_code == 201  # the proxy's own budget


def test_exempt_routes_are_never_limited(limited):
    client = limited("general=1/minute")
    for _ in range(3):
        for path in ("/health", "/ready", "/metrics", "/openapi.json", "/docs",
                     "/docs/rules", "/web/static/table.js"):
            assert client.get(path, environ_base=PEER).status_code == 200, path
        assert client.options("/v1/games", environ_base=PEER).status_code == 204


def test_the_server_admin_key_has_its_own_budget(limited, admin_key):
    client = limited("create=1/minute")
    new_game(client)
    assert client.post("/v1/games", json={"seats": HUMANS},
                       environ_base=PEER).status_code == 429
    server = {"X-Admin-Key": admin_key}
    assert client.post("/v1/games", json={"seats": HUMANS}, headers=server,
                       environ_base=PEER).status_code == 201


@pytest.mark.parametrize("path", ["/v1/games", "/health", "/v1/no-such-path"])
def test_wrong_admin_keys_spend_the_callers_budget_and_are_timed(limited, path):
    """Guessing the server admin key costs the guesser's budget like any request, on any
    path (an exempt probe's 403 against its 200, a 403 against a 404, would tell a right key
    too); each refusal is counted and timed by the request metrics."""
    client = limited("general=2/minute")
    labels = {"endpoint": {"/v1/games": "games.list_games", "/health": "system.health"}.get(
        path, "unmatched"), "method": "GET"}

    def sample(name, **more):
        return REGISTRY.get_sample_value(name, {**labels, **more}) or 0.0
    counted, timed = (sample("rummy_http_requests_total", status="403"),
                      sample("rummy_http_request_seconds_sum"))
    wrong = {"X-Admin-Key": "not-the-server-admin-key"}
    answers = [client.get(path, headers=wrong, environ_base=PEER) for _ in range(3)]
    assert [a.status_code for a in answers] == [403, 403, 429]
    assert answers[0].mimetype == PROBLEM
    assert answers[0].get_json()["type"] == "/docs/problems#forbidden"
    assert sample("rummy_http_requests_total", status="403") == counted + 2
    assert sample("rummy_http_request_seconds_sum") > timed  # the refusals' time, not < 0
    other_peer = {"REMOTE_ADDR": "192.0.2.77"}  # another caller's budget is untouched
    assert client.get(path, headers=wrong, environ_base=other_peer).status_code == 403


def test_a_limiter_redis_that_is_down_fails_open(limited):
    """The limiter's Redis stops (or never answers): requests are still served, never a 500."""
    with EmbeddedRedis() as limiter_redis:
        client = limited("general=1000/minute", storage=limiter_redis.url)
        game = new_game(client)
    url = f"/v1/games/{game['id']}/view"
    seat = bearer(game["seats"][0]["token"])
    assert [client.get(url, headers=seat, environ_base=PEER).status_code
            for _ in range(5)] == [200] * 5
    never = limited("general=1000/minute", storage=f"redis://127.0.0.1:{free_port()}/0")
    assert new_game(never)["id"]


def test_off_limits_nothing():
    app = create_app({"RUMMY_SERVICE": None, "RUMMY_RATE_LIMITS": "off"})
    assert "limiter" not in app.extensions


def test_rummy_rate_limits_and_trusted_proxies_are_read_by_settings():
    settings = Settings.from_env({"RUMMY_RATE_LIMITS": "create=5/minute; action=3/second,90/minute",
                                  "RUMMY_TRUSTED_PROXIES": "10.0.0.0/8, ::1"})
    assert settings.rate_limits == RateLimits(create="5/minute", action="3/second,90/minute")
    assert [str(n) for n in settings.trusted_proxies] == ["10.0.0.0/8", "::1/128"]
    assert Settings.from_env({"RUMMY_RATE_LIMITS": "OFF"}).rate_limits is None
    assert Settings.from_env({}).rate_limits == RateLimits()
    for bad in ("create=lots", "burst=5/second", "create"):
        with pytest.raises(ValueError, match="RUMMY_RATE_LIMITS"):
            Settings.from_env({"RUMMY_RATE_LIMITS": bad})
    with pytest.raises(ValueError, match="RUMMY_TRUSTED_PROXIES"):
        Settings.from_env({"RUMMY_TRUSTED_PROXIES": "proxy.example"})


def test_the_integration_key_creating_games_has_its_own_budget_not_its_addresss(redis_url,
                                                                                 redis_client):
    """An integrator's backend creates games from the address its users' anonymous calls may
    share: with the integration key (no player named) it counts as itself."""
    from service.bootstrap import wire
    from service.config import Settings
    from tests.conftest import ADMIN_KEY, SECRET
    from tests.integration.players_fixtures import INTEGRATION_KEY, integration_settings

    service = wire(Settings(redis_url=redis_url, admin_key=ADMIN_KEY, secret=SECRET,
                            integration=integration_settings())).service
    client = create_app({"RUMMY_SERVICE": service, "TESTING": True,
                         "RUMMY_RATE_LIMITS": "create=2/minute", "RUMMY_RATE_LIMIT_STORAGE":
                         redis_url, "RUMMY_RATE_LIMIT_DELAY_S": 0}).test_client()
    for _ in range(2):
        new_game(client)
    assert client.post("/v1/games", json={"seats": HUMANS},
                       environ_base=PEER).status_code == 429
    integrator = client.post("/v1/games", json={"seats": HUMANS},
                             headers={"X-Integration-Key": INTEGRATION_KEY}, environ_base=PEER)
    assert integrator.status_code == 201, integrator.get_json()


def test_a_held_429_says_the_budget_at_its_refusal(limited):
    """The hold comes after the RateLimit-* headers are written: held 1 s in a window of a
    second, a 429 that read the budget after its hold would say requests are left."""
    client = limited("general=3/second", delay_s=1)
    game = new_game(client)
    url, seat = f"/v1/games/{game['id']}/view", bearer(game["seats"][0]["token"])
    while not 0.5 <= time.time() % 1 <= 0.6:  # the burst late in a window: the next is near
        time.sleep(0.01)
    answers = [client.get(url, headers=seat, environ_base=PEER) for _ in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert answers[-1].headers["RateLimit-Remaining"] == "0"
    assert answers[-1].headers["Retry-After"] == "1"


def test_a_stream_caps_429_keeps_its_retry_after_under_rate_limits(service, redis_url):
    app = create_app({"RUMMY_SERVICE": service, "TESTING": True,
                      "RUMMY_RATE_LIMITS": "general=100/minute",
                      "RUMMY_RATE_LIMIT_STORAGE": redis_url, "RUMMY_RATE_LIMIT_DELAY_S": 0,
                      "RUMMY_SSE_HEARTBEAT_S": 0.2, "RUMMY_MAX_STREAMS_PER_IP": 1})
    client = app.test_client()
    game = new_game(client)
    url = f"/v1/games/{game['id']}/stream"
    held = client.get(url, buffered=False, environ_base=PEER)
    try:
        refused = client.get(url, buffered=False, environ_base=PEER)
        assert refused.status_code == 429 and refused.headers["Retry-After"] == "10"
        assert refused.get_json()["type"] == "/docs/problems#too-many-streams"
    finally:
        held.close()


def test_a_limited_request_authenticates_its_caller_once(limited, service, monkeypatch):
    """The budget's key and the route both need the caller: it is asked once a request (a
    token granted after creation, a joined seat's, costs a Redis read each time)."""
    client = limited("action=100/minute")
    game = new_game(client)
    asked = []
    authenticate = service.authenticate

    def counting(*args, **kwargs):
        asked.append(args[:2])
        return authenticate(*args, **kwargs)
    monkeypatch.setattr(service, "authenticate", counting)
    token = game["seats"][0]["token"]
    response = client.post(f"/v1/games/{game['id']}/actions", json={"type": "pass"},
                           headers=bearer(token), environ_base=PEER)
    assert response.status_code in (200, 409, 422), response.get_json()
    assert asked == [(game["id"], token)]
