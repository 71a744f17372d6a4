"""The hidden-information leak walk over the channels and credentials issue 8 added
(test_authorization.py walks the classic endpoints with every caller): on a lobby game joined
by code and started, every read a joined seat's token, a joined player (integration key and
own JWT), the host, a spectator, a stream ticket and nobody can make (table, view, events,
stream, replays, the lobby listings, the inbox) shows no other seat's hand and no stock order,
and neither does any webhook payload the game's appends recorded."""
import re

import pytest

from api import create_app
from service.bootstrap import wire
from service.config import Settings
from tests.conftest import ADMIN_KEY, SECRET
from tests.integration.api_client import bearer
from tests.integration.players_fixtures import as_player, integration_settings, token
from tests.integration.test_authorization import bodies, leaks
from tests.integration.test_webhook_projection import WEBHOOK_SECRET, payloads

SERVER = {"X-Admin-Key": ADMIN_KEY}
CARD = re.compile(r"\b(?:10|[2-9JQKA])[HDSC]\b|\bJK\b")
READS = ("/v1/games/{id}", "/v1/games/{id}/view", "/v1/games/{id}/events?after=0",
         "/v1/games/{id}/stream?after=0", "/v1/games/{id}/replay?version={now}",
         "/v1/games/{id}/replay?at=2100-01-01T00:00:00.000Z", "/v1/games?status=waiting",
         "/v1/games?status=playing", "/v1/players/ann/games?status=playing")


@pytest.fixture
def client(redis_url, redis_client):
    settings = Settings(redis_url=redis_url, admin_key=ADMIN_KEY, secret=SECRET, max_wait_s=5.0,
                        integration=integration_settings(webhook_url="http://127.0.0.1:9/hooks",
                                                         webhook_secret=WEBHOOK_SECRET))
    return create_app({"RUMMY_SERVICE": wire(settings).service, "TESTING": True,
                       "RUMMY_RATE_LIMITS": "off", "RUMMY_SSE_MAX_S": 0.2,
                       "RUMMY_SSE_HEARTBEAT_S": 0.05}).test_client()


@pytest.fixture
def lobby(client):
    """A started lobby game: the host (player "host"), Ann joined as player "ann", Bob joined
    and Cy anonymously; then a stock draw and its offer answered (a hidden card moving). Its
    callers and the full states."""
    seats = [{"kind": "human", "name": "Host", "player_id": "host"}, {"kind": "open"},
             {"kind": "open"}, {"kind": "open"}]
    game = client.post("/v1/games", json={"seats": seats, "seed": 5, "clock": {
        "turn_s": None}}, headers={**SERVER, **as_player("integrator")}).get_json()
    gid, code = game["id"], game["join_code"]
    client.post("/v1/games/join", json={"code": code, "name": "Ann"}, headers=as_player("ann"))
    bob, cy = (client.post("/v1/games/join", json={"code": code, "name": name}).get_json()[
        "token"] for name in ("Bob", "Cy"))
    spectator = client.post(f"/v1/games/{gid}/spectators",
                            headers=bearer(game["admin_token"])).get_json()["token"]
    dealt = client.post(f"/v1/games/{gid}/start", headers=bearer(game["admin_token"]))
    tokens = {0: bearer(game["seats"][0]["token"]), 1: as_player("ann"), 2: bearer(bob),
              3: bearer(cy)}
    act(client, gid, tokens[dealt.get_json()["table"]["turn"]], {"type": "draw", "from": "stock"})
    while (table := client.get(f"/v1/games/{gid}").get_json())["phase"] == "buying":
        act(client, gid, tokens[table["awaiting"]["seats"][0]], {"type": "pass"})
    now = client.get(f"/v1/games/{gid}").get_json()["version"]
    full = [client.get(f"/v1/games/{gid}/replay?version={v}", headers=SERVER).get_json()
            for v in (dealt.get_json()["version"], now)]
    ticket = client.post(f"/v1/games/{gid}/stream-tickets", headers=bearer(bob)).get_json()
    callers = {"nobody": ({}, None), "host": (tokens[0], 0), "joined player key": (tokens[1], 1),
               "joined player jwt": (bearer(token("ann")), 1), "joined token": (tokens[2], 2),
               "admin": (bearer(game["admin_token"]), None), "spectator": (bearer(spectator), None),
               "ticket": ({"ticket": ticket["ticket"]}, 2)}
    return {"id": gid, "now": now, "full": full, "callers": callers}


def expected(caller, seat, url):
    """The status a caller gets: a seat's view needs a seat (401 anonymous, 403 a seatless
    token), the inbox a credential of its player (401 otherwise); anything else is public."""
    if "/view" in url:
        return 200 if seat is not None else 401 if caller == "nobody" else 403
    if url.startswith("/v1/players/"):
        return 200 if caller.startswith("joined player") else 401
    return 200


def act(client, game_id, headers, action):
    answer = client.post(f"/v1/games/{game_id}/actions", json=action, headers=headers)
    assert answer.status_code == 200, answer.get_json()


@pytest.mark.parametrize("path", READS)
def test_no_caller_of_a_joined_lobby_game_sees_another_hand_or_the_stock(client, lobby, path):
    url = path.format(id=lobby["id"], now=lobby["now"])
    for caller, (headers, seat) in lobby["callers"].items():
        if "ticket" in headers:  # a stream ticket is a query parameter of the feeds only
            if "/events" not in url and "/stream" not in url:
                continue
            response = client.get(f"{url}&ticket={headers['ticket']}")
        else:
            response = client.get(url, headers=headers)
        assert response.status_code == expected(caller, seat, url), (caller, url)
        if response.status_code >= 300:
            continue
        for document in bodies(response):
            assert not leaks(document, seat, lobby["full"]), (caller, url, document)


def test_the_webhook_payloads_of_a_joined_lobby_game_hold_no_card(client, redis_client, lobby):
    found = payloads(redis_client, lobby["id"])
    assert {p["type"] for p in found.values()} >= {"game.started"}
    for payload in found.values():
        assert not leaks(payload, None, lobby["full"]) and not CARD.search(str(payload)), payload
