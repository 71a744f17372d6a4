"""The lobby through the API on a real Redis (docs/lobby.md): open seats, joins by code, the
host's start, auto_start, expiry, Idempotency-Key, concurrent joins, rematch."""
from __future__ import annotations

import threading

import pytest

from service.lobby import CODE_LENGTH, CROCKFORD, normal_code
from tests.integration.api_client import HUMANS, PROBLEM, app, bearer, client  # noqa: F401

LOBBY = [{"kind": "human", "name": "Host"}, {"kind": "open", "level": "strong"},
         {"kind": "open"}, {"kind": "bot", "name": "B", "level": "basic"}]


def create(client, seats=LOBBY, **options):
    response = client.post("/v1/games", json={"seats": seats, **options})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def join(client, code, name, key=None):
    headers = {"Idempotency-Key": key} if key else {}
    return client.post("/v1/games/join", json={"code": code, "name": name}, headers=headers)


def test_a_game_with_open_seats_waits_with_a_join_code_and_deals_nothing(client):
    game = create(client)
    code = game["join_code"]
    assert len(code) == CODE_LENGTH and set(code) <= set(CROCKFORD)
    assert game["expires_at"].endswith("Z")
    table = client.get(f"/v1/games/{game['id']}").get_json()
    assert table["status"] == "waiting" and table["round"] is None
    assert table["hand_sizes"] == [0, 0, 0, 0] and table["stock_size"] == 0
    assert table["lobby"] == {"open": [None, "strong", "basic", None],
                              "joined": [None, None, None, None], "auto_start": False}
    host = game["seats"][0]["token"]
    view = client.get(f"/v1/games/{game['id']}/view", headers=bearer(host)).get_json()
    assert view["hand"] == [] and view["legal_actions"] == []
    refused = client.post(f"/v1/games/{game['id']}/actions", headers=bearer(host),
                          json={"type": "draw", "from": "stock"})
    assert refused.status_code == 422 and refused.get_json()["rule"] == "L3"


def test_joins_take_the_open_seats_in_order_and_the_host_starts(client):
    game = create(client)
    gid, code = game["id"], game["join_code"]
    first = join(client, code.lower(), "Ann")
    assert first.status_code == 201
    assert first.get_json()["game_id"] == gid and first.get_json()["seat"] == 1
    second = join(client, "-".join([code[:5], code[5:]]), "Bob").get_json()
    assert second["seat"] == 2
    full = join(client, code, "Cy")
    assert full.status_code == 409 and full.mimetype == PROBLEM
    assert full.get_json()["rule"] == "L2"
    view = client.get(f"/v1/games/{gid}/view", headers=bearer(first.get_json()["token"]))
    assert view.status_code == 200 and view.get_json()["seat"] == 1
    # only the host starts
    assert client.post(f"/v1/games/{gid}/start",
                       headers=bearer(second["token"])).status_code == 403
    assert client.post(f"/v1/games/{gid}/start").status_code == 401
    started = client.post(f"/v1/games/{gid}/start", headers=bearer(game["admin_token"]))
    assert started.status_code == 200
    table = started.get_json()["table"]
    assert table["status"] == "playing" and table["round"] == 1
    assert table["lobby"]["joined"] == [None, "Ann", "Bob", None]
    again = client.post(f"/v1/games/{gid}/start", headers=bearer(game["admin_token"]))
    assert again.status_code == 409 and again.get_json()["rule"] == "L1"
    late = join(client, code, "Dee")
    assert late.status_code == 409 and late.get_json()["rule"] == "L1"
    assert late.get_json()["rule_url"] == "/docs/rules#l1"   # as every problem citing a rule
    events = client.get(f"/v1/games/{gid}/events?after=0").get_json()["events"]
    assert [e["type"] for e in events] == ["GameCreated", "ClockSet", "SeatsOpened", "SeatJoined",
                                           "SeatJoined", "GameStarted", "RoundDealt"]


def test_an_open_seat_nobody_joined_is_played_by_its_bot(client, service):
    game = create(client, seats=[{"kind": "human"}, {"kind": "open", "level": "strong"},
                                 {"kind": "human"}, {"kind": "human"}])
    client.post(f"/v1/games/{game['id']}/start", headers=bearer(game["admin_token"]))
    version, state = service.load(game["id"])
    assert service.bot_seats(game["id"], state) == (1,)
    seats = service.records.get(game["id"]).public_seats(state)
    assert seats[1]["kind"] == "bot" and seats[1]["level"] == "strong"


def test_auto_start_deals_when_the_last_open_seat_is_taken(client):
    game = create(client, auto_start=True)
    join(client, game["join_code"], "Ann")
    assert client.get(f"/v1/games/{game['id']}").get_json()["status"] == "waiting"
    join(client, game["join_code"], "Bob")
    table = client.get(f"/v1/games/{game['id']}").get_json()
    assert table["status"] == "playing" and table["round"] == 1


def test_an_unknown_or_malformed_code_is_a_404(client):
    create(client)
    for code in ("0000000000", "short", "U" * 10, "!" * 10):
        response = join(client, code, "Ann")
        assert response.status_code == 404 and response.mimetype == PROBLEM, code


def test_a_join_retried_with_its_key_gets_the_first_answer_and_appends_nothing(client):
    game = create(client)
    first = join(client, game["join_code"], "Ann", key="join-key-0123456789").get_json()
    version = client.get(f"/v1/games/{game['id']}").get_json()["version"]
    again = join(client, game["join_code"], "Ann", key="join-key-0123456789")
    assert again.status_code == 201 and again.get_json() == first
    assert client.get(f"/v1/games/{game['id']}").get_json()["version"] == version
    other = join(client, game["join_code"], "Someone else", key="join-key-0123456789")
    assert other.status_code == 422
    token = first["token"]
    assert client.get(f"/v1/games/{game['id']}/view", headers=bearer(token)).status_code == 200


def test_concurrent_joins_never_give_one_seat_to_two_people(client, app):
    seats = [{"kind": "open"}] * 4
    game = create(client, seats=seats)
    answers, barrier = [], threading.Barrier(8)

    def joiner(n):
        local = app.test_client()
        barrier.wait()
        answers.append(join(local, game["join_code"], f"P{n}"))
    threads = [threading.Thread(target=joiner, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    taken = [a.get_json()["seat"] for a in answers if a.status_code == 201]
    assert sorted(taken) == [0, 1, 2, 3]
    assert sorted(a.status_code for a in answers) == [201] * 4 + [409] * 4
    table = client.get(f"/v1/games/{game['id']}").get_json()
    assert all(table["lobby"]["joined"]) and table["lobby"]["open"] == [None] * 4
    tokens = [a.get_json()["token"] for a in answers if a.status_code == 201]
    seen = {client.get(f"/v1/games/{game['id']}/view", headers=bearer(t)).get_json()["seat"]
            for t in tokens}
    assert seen == {0, 1, 2, 3}


def test_the_sweeper_expires_a_lobby_nobody_started(client, service):
    game = create(client)
    playing = create(client)
    client.post(f"/v1/games/{playing['id']}/start", headers=bearer(playing["admin_token"]))
    later = service.records.get(game["id"]).created_ms + int(service.lobby.ttl_s * 1000) + 1
    assert service.lobby.expire_due(later) == [game["id"]]
    assert client.get(f"/v1/games/{game['id']}").get_json()["status"] == "expired"
    assert client.get(f"/v1/games/{playing['id']}").get_json()["status"] == "playing"
    assert service.lobby.expire_due(later) == []
    refused = client.post(f"/v1/games/{game['id']}/start", headers=bearer(game["admin_token"]))
    assert refused.status_code == 409
    aborted = client.post(f"/v1/games/{game['id']}/abort", headers=bearer(game["admin_token"]))
    assert aborted.status_code == 422 and aborted.get_json()["rule"] == "L1"
    assert client.get(f"/v1/games/{game['id']}").get_json()["status"] == "expired"


def test_an_expired_code_is_a_404(client, service, redis_client):
    game = create(client)
    later = service.records.get(game["id"]).created_ms + int(service.lobby.ttl_s * 1000) + 1
    service.lobby.expire_due(later)
    assert join(client, game["join_code"], "Ann").status_code == 404


def test_join_and_import_are_not_game_ids(client):
    for path in ("/v1/games/join", "/v1/games/import"):
        assert client.get(path).status_code == 405
        options = client.open(path, method="OPTIONS")
        assert "POST" in options.headers["Allow"] and "GET" not in options.headers["Allow"]


@pytest.mark.parametrize("code", ["abcdefghjk", "ABCDEFGHJK", "abcde-fghjk", " ABCDEFGHJK "])
def test_codes_read_case_and_hyphens_alike(code):
    assert normal_code(code) == "ABCDEFGHJK"


def test_crockford_reads_i_l_as_one_and_o_as_zero():
    assert normal_code("ILO0000000") == "1100000000"


@pytest.fixture
def finished(client, admin_key):
    """A finished game (an imported record of four human seats) and its tokens."""
    from tests.integration.records import finished_record
    reply = client.post("/v1/games/import", json=finished_record(),
                        headers={"X-Admin-Key": admin_key})
    assert reply.status_code == 201
    return reply.get_json()


def test_racing_rematch_requests_get_one_follow_up(client, app, finished):
    gid, answers = finished["id"], []
    tokens = [seat["token"] for seat in finished["seats"]] + [finished["admin_token"]]
    barrier = threading.Barrier(len(tokens))

    def ask(token):
        local = app.test_client()
        barrier.wait()
        answers.append(local.post(f"/v1/games/{gid}/rematch", headers=bearer(token)))
    threads = [threading.Thread(target=ask, args=(token,)) for token in tokens]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [a.status_code for a in answers] == [201] * len(tokens)
    assert len({a.get_json()["id"] for a in answers}) == 1


def test_a_rematch_seat_token_is_minted_per_call_and_revokes_the_one_before(client, finished):
    gid, old = finished["id"], finished["seats"][2]["token"]
    assert client.get(f"/v1/games/{gid}/rematch", headers=bearer(old)).status_code == 404
    new_id = client.post(f"/v1/games/{gid}/rematch", headers=bearer(old)).get_json()["id"]
    follow_up = client.get(f"/v1/games/{new_id}").get_json()
    assert follow_up["status"] == "playing" and follow_up["origin"] == "rematch"
    first = client.get(f"/v1/games/{gid}/rematch", headers=bearer(old)).get_json()
    second = client.get(f"/v1/games/{gid}/rematch", headers=bearer(old)).get_json()
    assert (first["game_id"], first["seat"]) == (second["game_id"], second["seat"]) == (new_id, 2)
    assert client.get(f"/v1/games/{new_id}/view",
                      headers=bearer(first["token"])).status_code == 401
    assert client.get(f"/v1/games/{new_id}/view",
                      headers=bearer(second["token"])).get_json()["seat"] == 2
    # the old token is not a token of the follow-up; the host's admin token is
    assert client.get(f"/v1/games/{new_id}/view", headers=bearer(old)).status_code == 401
    assert client.post(f"/v1/games/{new_id}/spectators",
                       headers=bearer(finished["admin_token"])).status_code == 201


def test_a_lobby_game_lists_under_waiting_then_playing(client):
    game = create(client)
    waiting = client.get("/v1/games?status=waiting").get_json()["items"]
    assert game["id"] in {item["id"] for item in waiting}
    client.post(f"/v1/games/{game['id']}/start", headers=bearer(game["admin_token"]))
    def listed(status):
        return {i["id"] for i in client.get(f"/v1/games?status={status}").get_json()["items"]}
    assert game["id"] not in listed("waiting") and game["id"] in listed("playing")


def test_a_spectator_token_retried_with_its_key_is_the_same_token(client):
    game = create(client)
    headers = {**bearer(game["admin_token"]), "Idempotency-Key": "spectate-key-0123456789"}
    first = client.post(f"/v1/games/{game['id']}/spectators", headers=headers).get_json()
    again = client.post(f"/v1/games/{game['id']}/spectators", headers=headers).get_json()
    assert first == again
    seen = client.get(f"/v1/games/{game['id']}/view", headers=bearer(first["token"]))
    assert seen.status_code == 403


def test_a_start_retried_with_its_key_answers_the_table_the_start_made(client):
    game = create(client)
    headers = {**bearer(game["admin_token"]), "Idempotency-Key": "start-0123456789abc"}
    first = client.post(f"/v1/games/{game['id']}/start", headers=headers)
    assert first.status_code == 200
    table = client.get(f"/v1/games/{game['id']}").get_json()
    while table["version"] == first.get_json()["version"]:  # the bots move on, or a spectator
        client.post(f"/v1/games/{game['id']}/spectators", headers=bearer(game["admin_token"]))
        table = client.get(f"/v1/games/{game['id']}").get_json()
    again = client.post(f"/v1/games/{game['id']}/start", headers=headers)
    assert again.status_code == 200 and again.get_json() == first.get_json()


def test_a_rematch_seat_of_an_aborted_game_is_refused_as_its_rematch_is(client):
    """An aborted game never gets a follow-up (R9.4): asking for its rematch seat says so, as
    the POST does, instead of 404 "no rematch yet, POST creates it"."""
    game = client.post("/v1/games", json={"seats": HUMANS}).get_json()
    aborted = client.post(f"/v1/games/{game['id']}/abort", headers=bearer(game["admin_token"]))
    assert aborted.status_code == 200, aborted.get_json()
    seat = bearer(game["seats"][0]["token"])
    for method in (client.get, client.post):
        refused = method(f"/v1/games/{game['id']}/rematch", headers=seat)
        assert refused.status_code == 422 and refused.get_json()["rule"] == "R9.4", method
