"""Players (docs/players.md): seats' player ids, the integration key acting for a player's
seat, and the per-player inbox kept in Redis."""
import pytest

from tests.integration.api_client import HUMANS, PROBLEM, app, bearer, client  # noqa: F401
from tests.integration.players_fixtures import (INTEGRATION_KEY, as_player, service,  # noqa: F401
                                                token)
from tests.conftest import ADMIN_KEY

KEY = {"X-Integration-Key": INTEGRATION_KEY}


def seats(*players):
    """Four human seats, the n-th with player id players[n] (None: no player id)."""
    return [{**HUMANS[n], **({"player_id": p} if p is not None else {})} for n, p in enumerate(players)]


def create(client, players, headers=KEY, **extra):
    return client.post("/v1/games", json={"seats": seats(*players), **extra}, headers=headers)


@pytest.mark.parametrize("bad", ["", "a b", "x" * 129, "{tag}", "é", "a\nb", 7])
def test_a_player_id_that_is_not_one_is_a_422_naming_the_field(client, bad):
    response = create(client, [bad, None, None, None])
    assert response.status_code == 422 and response.mimetype == PROBLEM
    assert "player_id" in response.get_data(as_text=True)


def test_a_bot_seat_has_no_player_id(client):
    body = {"seats": [{"kind": "bot", "player_id": "ann"}, *HUMANS[1:]]}
    response = client.post("/v1/games", json=body, headers=KEY)
    assert response.status_code == 422 and "only a human seat" in response.get_json()["detail"]


def test_player_ids_need_the_integration_or_admin_key(client, redis_client):
    assert create(client, ["ann", None, None, None], headers={}).status_code == 403
    wrong = {"X-Integration-Key": "not-the-key-0123456789"}
    assert create(client, ["ann", None, None, None], headers=wrong).status_code == 401
    assert not redis_client.keys("rummy:{player:ann}*")
    assert create(client, ["ann", None, None, None]).status_code == 201
    admin = {"X-Admin-Key": ADMIN_KEY}
    assert create(client, ["ann", None, None, None], headers=admin).status_code == 201
    assert redis_client.zcard("rummy:{player:ann}:games") == 2


def test_the_public_never_sees_a_player_id(client):
    game = create(client, ["ann", "bob", None, None]).get_json()
    assert game["seats"][0]["player_id"] == "ann"  # the creator's answer
    for path in ("", "/events?after=0"):
        text = client.get(f"/v1/games/{game['id']}{path}").get_data(as_text=True)
        assert "ann" not in text and "bob" not in text


def test_the_integration_key_acts_as_the_players_seat(client):
    game = create(client, ["ann", "bob", "cy", "dee"], seed=3).get_json()
    gid = game["id"]
    turn = client.get(f"/v1/games/{gid}").get_json()["turn"]
    player = ["ann", "bob", "cy", "dee"][turn]
    own = client.get(f"/v1/games/{gid}/view", headers=bearer(game["seats"][turn]["token"]))
    view = client.get(f"/v1/games/{gid}/view", headers=as_player(player))
    assert view.status_code == 200 and view.get_json() == own.get_json()
    acted = client.post(f"/v1/games/{gid}/actions", json={"type": "draw", "from": "discard"},
                        headers={**as_player(player), "Idempotency-Key": "k1"})
    assert acted.status_code == 200 and acted.get_json()["view"]["seat"] == turn
    other = ["ann", "bob", "cy", "dee"][(turn + 1) % 4]
    refused = client.post(f"/v1/games/{gid}/actions", json={"type": "discard", "card": "JK"},
                          headers=as_player(other))
    assert refused.status_code == 422 and refused.get_json()["rule"]  # not its turn: a rule
    assert client.get(f"/v1/games/{gid}/view", headers=as_player("zed")).status_code == 403
    assert client.get(f"/v1/games/{gid}/view", headers=KEY).status_code == 401
    wrong = {**as_player(player), "X-Integration-Key": "x" * 31}
    assert client.get(f"/v1/games/{gid}/view", headers=wrong).status_code == 401


def test_a_player_with_two_seats_names_the_seat(client):
    game = create(client, ["ann", None, "ann", None]).get_json()
    gid = game["id"]
    ambiguous = client.get(f"/v1/games/{gid}/view", headers=as_player("ann"))
    assert ambiguous.status_code == 422 and "X-Seat" in ambiguous.get_json()["detail"]
    assert client.get(f"/v1/games/{gid}/view", headers=as_player("ann", 2)).get_json()["seat"] == 2
    assert client.get(f"/v1/games/{gid}/view", headers=as_player("ann", 1)).status_code == 403
    for odd in ("x", "02", "-2", "2.0"):   # one seat number, written one way
        answer = client.get(f"/v1/games/{gid}/view", headers={**as_player("ann"), "X-Seat": odd})
        assert answer.status_code == 422, odd


def test_the_inbox_lists_the_players_games_and_which_await_it(client):
    games = [create(client, ["ann", "bob", None, None], seed=s).get_json() for s in range(4)]
    aborted = games[0]["id"]
    assert client.post(f"/v1/games/{aborted}/abort",
                       headers=bearer(games[0]["admin_token"])).status_code == 200
    everything = client.get("/v1/players/ann/games", headers=KEY).get_json()
    assert [item["game_id"] for item in everything["items"]] == [g["id"] for g in games[::-1]]
    playing = client.get("/v1/players/ann/games?status=playing", headers=KEY).get_json()["items"]
    assert {item["game_id"] for item in playing} == {g["id"] for g in games[1:]}
    turns = {g["id"]: client.get(f"/v1/games/{g['id']}").get_json() for g in games[1:]}
    awaited = {gid for gid, table in turns.items() if 0 in table["awaiting"]["seats"]}
    mine = client.get("/v1/players/ann/games?status=playing&awaiting=me", headers=KEY).get_json()
    assert {item["game_id"] for item in mine["items"]} == awaited
    for item in mine["items"]:
        assert item["seat"] == 0 and item["awaiting_me"] is True
        assert item["deadline"] == turns[item["game_id"]]["awaiting"]["deadline"] is not None
    aborted_only = client.get("/v1/players/ann/games?status=aborted", headers=KEY).get_json()
    assert [(i["game_id"], i["status"]) for i in aborted_only["items"]] == [(aborted, "aborted")]


def test_the_inbox_pages_with_a_cursor_and_a_link(client):
    created = [create(client, ["ann", None, None, None]).get_json()["id"] for _ in range(5)]
    seen, url = [], "/v1/players/ann/games?limit=2"
    while url:
        response = client.get(url, headers=KEY)
        page = response.get_json()
        assert len(page["items"]) <= 2
        seen += [item["game_id"] for item in page["items"]]
        url = response.headers.get("Link", "").partition(">")[0][1:] or None
        assert (url is None) == (page["next_cursor"] is None)
    assert seen == created[::-1]
    bad = client.get("/v1/players/ann/games?cursor=bm90LWEtY3Vyc29y", headers=KEY)
    assert bad.status_code == 422


def test_the_inbox_needs_a_credential_for_that_player(client):
    game = create(client, ["ann", None, None, None]).get_json()
    assert client.get("/v1/players/ann/games").status_code == 401
    token = game["seats"][0]["token"]
    assert client.get("/v1/players/ann/games", headers=bearer(token)).status_code == 401
    assert client.get("/v1/players/ann/games",
                      headers={"X-Admin-Key": ADMIN_KEY}).status_code == 200
    assert client.get("/v1/players/a%20b/games", headers=KEY).status_code == 422


def test_a_private_games_player_sees_it_and_nobody_else_does(client):
    game = create(client, ["ann", None, None, None], visibility="private").get_json()
    gid = game["id"]
    assert client.get(f"/v1/games/{gid}/view", headers=as_player("ann")).status_code == 200
    assert client.get(f"/v1/games/{gid}", headers=as_player("ann")).status_code == 200
    assert client.get(f"/v1/games/{gid}", headers=as_player("bob")).status_code == 404
    assert client.get(f"/v1/games/{gid}").status_code == 404


def test_a_player_who_joins_by_code_is_that_seats_player(client):
    seats = [{"kind": "human", "name": "Host", "player_id": "host"}, {"kind": "open"},
             {"kind": "open"}, {"kind": "bot"}]
    game = client.post("/v1/games", json={"seats": seats}, headers=KEY).get_json()
    gid, code = game["id"], game["join_code"]
    wrong = client.post("/v1/games/join", json={"code": code, "name": "Ann"},
                        headers={"X-Integration-Key": "x" * 31})
    assert wrong.status_code == 401
    assert client.get(f"/v1/games/{gid}").get_json()["lobby"]["joined"] == [None] * 4
    ann = client.post("/v1/games/join", json={"code": code, "name": "Ann"},
                      headers=as_player("ann")).get_json()
    bob = client.post("/v1/games/join", json={"code": code, "name": "Bob"},
                      headers=bearer(token("bob"))).get_json()
    assert (ann["seat"], bob["seat"]) == (1, 2)
    waiting = client.get("/v1/players/ann/games", headers=KEY).get_json()["items"]
    assert [(i["game_id"], i["seat"], i["status"]) for i in waiting] == [(gid, 1, "waiting")]
    assert client.post(f"/v1/games/{gid}/start",
                       headers=bearer(game["admin_token"])).status_code == 200
    for player, seat in (("ann", 1), ("bob", 2), ("host", 0)):
        playing = client.get(f"/v1/players/{player}/games?status=playing",
                             headers=KEY).get_json()["items"]
        assert [(i["game_id"], i["seat"]) for i in playing] == [(gid, seat)], player
    assert client.get("/v1/players/ann/games?status=waiting", headers=KEY).get_json()["items"] == []
    assert client.get(f"/v1/games/{gid}/view", headers=as_player("ann")).get_json()["seat"] == 1
    assert client.get(f"/v1/games/{gid}/view", headers=bearer(token("bob"))).get_json()["seat"] == 2
