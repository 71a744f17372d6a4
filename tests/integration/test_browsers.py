"""Browsers (issue 9): CORS for the allow-listed origins (RUMMY_CORS_ORIGINS) and stream
tickets, which stand for their caller on one game for 60 s, where an EventSource cannot send
Authorization."""
import re
import time

import pytest

from api import create_app
from api.cors import origins
from service import tickets
from service.clock import parse_rfc3339
from service.errors import Unauthorized
from service.principal import Principal

HUMANS = [{"kind": "human", "name": n} for n in ("ann", "bob", "cy", "di")]
ALLOWED = "https://table.example"


@pytest.fixture
def client(service):
    return create_app({"RUMMY_SERVICE": service, "TESTING": True, "RUMMY_RATE_LIMITS": "off",
                       "RUMMY_SSE_MAX_S": 0.2, "RUMMY_SSE_HEARTBEAT_S": 0.05,
                       "RUMMY_CORS_ORIGINS": f"{ALLOWED}, http://localhost:5173"}).test_client()


@pytest.fixture
def game(client):
    return client.post("/v1/games", json={"seats": HUMANS, "seed": 3}).get_json()


def test_a_preflight_from_an_allowed_origin_may_send_the_apis_headers(client, game):
    preflight = client.options(f"/v1/games/{game['id']}/actions", headers={
        "Origin": ALLOWED, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, if-match, idempotency-key, "
                                          "content-type"})
    assert preflight.status_code == 204 and preflight.headers["Allow"] == "OPTIONS, POST"
    assert preflight.headers["Access-Control-Allow-Origin"] == ALLOWED
    allowed = {h.strip().lower() for h in
               preflight.headers["Access-Control-Allow-Headers"].split(",")}
    assert {"authorization", "if-match", "idempotency-key", "content-type"} <= allowed
    assert "POST" in preflight.headers["Access-Control-Allow-Methods"]


@pytest.mark.parametrize("cors", [True, False])
@pytest.mark.parametrize(("path", "allow"), [("/v1/games/{id}/actions", "OPTIONS, POST"),
                                             ("/v1/games/{id}", "GET, HEAD, OPTIONS"),
                                             ("/v1/games", "GET, HEAD, OPTIONS, POST"),
                                             ("/health", "GET, HEAD, OPTIONS")])
def test_options_answer_204_with_allow_and_cors_headers_for_an_allowed_origin_only(
        client, service, game, cors, path, allow):
    if not cors:
        client = create_app({"RUMMY_SERVICE": service, "TESTING": True,
                             "RUMMY_RATE_LIMITS": "off", "RUMMY_CORS_ORIGINS": ""}).test_client()
    url = path.format(id=game["id"])
    for origin in (None, ALLOWED, "https://evil.example"):
        headers = {} if origin is None else {"Origin": origin,
                                             "Access-Control-Request-Method": "GET"}
        answer = client.options(url, headers=headers)
        assert (answer.status_code, answer.headers["Allow"], answer.data) == (204, allow, b"")
        assert "Content-Type" not in answer.headers
        granted = answer.headers.get("Access-Control-Allow-Origin")
        api = path.startswith("/v1")  # CORS covers the API, not the probes
        assert granted == (ALLOWED if cors and api and origin == ALLOWED else None), origin
    assert client.options("/v1/nothing").status_code == 404  # no such path, as for any method


def test_responses_expose_the_headers_a_client_reads_to_allowed_origins_only(client, game):
    table = client.get(f"/v1/games/{game['id']}", headers={"Origin": ALLOWED})
    assert table.headers["Access-Control-Allow-Origin"] == ALLOWED
    exposed = {h.strip() for h in table.headers["Access-Control-Expose-Headers"].split(",")}
    assert {"ETag", "Server-Time", "Retry-After", "RateLimit-Limit", "RateLimit-Remaining",
            "RateLimit-Reset"} <= exposed
    other = client.get(f"/v1/games/{game['id']}", headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in other.headers
    problem = client.get("/v1/games/nope", headers={"Origin": ALLOWED})
    assert problem.status_code == 404
    assert problem.headers["Access-Control-Allow-Origin"] == ALLOWED


def test_without_rummy_cors_origins_no_origin_is_allowed(service, game):
    bare = create_app({"RUMMY_SERVICE": service, "TESTING": True, "RUMMY_RATE_LIMITS": "off",
                       "RUMMY_CORS_ORIGINS": ""}).test_client()
    assert "Access-Control-Allow-Origin" not in bare.get(
        f"/v1/games/{game['id']}", headers={"Origin": ALLOWED}).headers
    with pytest.raises(ValueError):
        origins("table.example")
    with pytest.raises(ValueError):
        origins("https://table.example/path")


def test_a_seats_ticket_reads_its_seats_feed_and_only_on_its_game(client, game):
    seat = game["seats"][1]
    issued = client.post(f"/v1/games/{game['id']}/stream-tickets",
                         headers={"Authorization": f"Bearer {seat['token']}"})
    assert issued.status_code == 201
    body = issued.get_json()
    assert body["expires_in"] == 60
    assert abs(parse_rfc3339(body["expires_at"]) - (time.time() + 60) * 1000) < 5000
    # RFC 3339 UTC with ms, as every time of the API (it was Unix ms)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", body["expires_at"])
    mine = client.get(f"/v1/games/{game['id']}/events?ticket={body['ticket']}").get_json()
    dealt = next(e for e in mine["events"] if e["type"] == "RoundDealt")
    assert dealt["data"]["hand"], "the ticket stands for the seat: its own hand is shown"
    other = client.post("/v1/games", json={"seats": HUMANS, "seed": 4}).get_json()
    refused = client.get(f"/v1/games/{other['id']}/events?ticket={body['ticket']}")
    assert refused.status_code == 401
    forged = body["ticket"].replace(".s1.", ".s2.")
    assert client.get(f"/v1/games/{game['id']}/stream?ticket={forged}").status_code == 401
    # Only the feeds take a ticket: the seat's view still needs its token.
    assert client.get(f"/v1/games/{game['id']}/view?ticket={body['ticket']}").status_code in (
        401, 422)


def test_a_ticket_expires_after_60_seconds():
    ticket, expiry_ms = tickets.issue("secret", "g1", Principal(seat=2), now_s=1000.0)
    assert expiry_ms == 1_060_000
    assert tickets.redeem("secret", "g1", ticket, now_s=1059.9) == Principal(seat=2)
    with pytest.raises(Unauthorized, match="expired"):
        tickets.redeem("secret", "g1", ticket, now_s=1060.1)
    with pytest.raises(Unauthorized):
        tickets.redeem("another secret", "g1", ticket, now_s=1000.0)
    later = ticket.replace("1060000", "9060000", 1)
    with pytest.raises(Unauthorized):
        tickets.redeem("secret", "g1", later, now_s=1000.0)


def test_the_public_needs_no_ticket_and_gets_none(client, game):
    refused = client.post(f"/v1/games/{game['id']}/stream-tickets")
    assert refused.status_code == 401


@pytest.mark.parametrize("configured", [ALLOWED, f"{ALLOWED}, http://localhost:5173"])
def test_every_api_response_varies_on_origin_with_one_origin_or_more(service, configured):
    """A shared cache must not serve a response stored for one Origin (or none) to another:
    with a single origin too, every API response says Vary: Origin, once."""
    client = create_app({"RUMMY_SERVICE": service, "TESTING": True, "RUMMY_RATE_LIMITS": "off",
                         "RUMMY_CORS_ORIGINS": configured}).test_client()
    game = client.post("/v1/games", json={"seats": HUMANS, "seed": 3}).get_json()
    for path in (f"/v1/games/{game['id']}", "/v1/games/nope", "/openapi.json"):
        for origin in (None, ALLOWED, "https://evil.example"):
            headers = {} if origin is None else {"Origin": origin}
            for answer in (client.get(path, headers=headers),
                           client.options(path, headers={**headers,
                                                         "Access-Control-Request-Method": "GET"})):
                varies = [v.strip().lower() for value in answer.headers.get_all("Vary")
                          for v in value.split(",")]
                assert varies.count("origin") == 1, (path, origin, answer.headers)
    assert "Origin" not in client.get("/health").vary  # not a CORS path: no Origin in Vary
