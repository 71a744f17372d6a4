"""Table events (service.table_events) through the API on a real Redis: every fact of a table
that the rules never read is an event of the game's stream (issue 8): a player seated by a
join, a spectator let in, a rematch made (in both games), a rematch seat's token issued. They
move the version, never the state; a seat, the public and the game admin never see a player
id in them; an exported record with them imports with the same versions."""
from __future__ import annotations

import pytest

from tests.conftest import ADMIN_KEY
from tests.integration.api_client import HUMANS, app, bearer, client  # noqa: F401
from tests.integration.players_fixtures import INTEGRATION_KEY, as_player, service  # noqa: F401
from tests.integration.records import finished_record

SERVER = {"X-Admin-Key": ADMIN_KEY}
LOBBY = [{"kind": "human", "name": "Host"}, {"kind": "open"}, {"kind": "open"},
         {"kind": "bot", "name": "B", "level": "basic"}]


def events(client, gid, headers=None):
    """Every event of the game's feed as `headers` see it, page after page."""
    found, after = [], 0
    while True:
        response = client.get(f"/v1/games/{gid}/events?after={after}&limit=5000",
                              headers=headers or {})
        assert response.status_code == 200, response.get_json()
        page = response.get_json()
        found += page["events"]
        if not page["more"]:
            return found
        after = page["next_after"]


def state_of(client, gid, version):
    """The whole table at `version` (server admin replay), without the version's own fields."""
    table = client.get(f"/v1/games/{gid}/replay?version={version}", headers=SERVER).get_json()
    return {k: v for k, v in table.items() if k not in ("version", "recorded_at")}


@pytest.fixture
def finished(client):
    """A finished game (an imported record of four human seats) and its tokens."""
    reply = client.post("/v1/games/import", json=finished_record(), headers=SERVER)
    assert reply.status_code == 201
    return reply.get_json()


def test_a_players_join_is_seat_joined_and_player_seated_in_one_append(client):
    game = client.post("/v1/games", json={"seats": LOBBY}).get_json()
    gid, before = game["id"], game["version"]
    headers = {**as_player("ann"), "Idempotency-Key": "join-ann-0001-key"}
    joined = client.post("/v1/games/join", json={"code": game["join_code"], "name": "Ann"},
                         headers=headers)
    assert joined.status_code == 201
    whole = events(client, gid, SERVER)[before:]
    assert [(e["type"], e["data"]) for e in whole] == [
        ("SeatJoined", {"seat": 1, "name": "Ann"}),
        ("PlayerSeated", {"seat": 1, "player_id": "ann"})]
    assert whole[0]["recorded_at"] == whole[1]["recorded_at"]  # one append
    again = client.post("/v1/games/join", json={"code": game["join_code"], "name": "Ann"},
                        headers=headers)
    assert again.get_json() == joined.get_json()
    assert len(events(client, gid, SERVER)) == before + 2  # the retry appended nothing
    anonymous = client.post("/v1/games/join", json={"code": game["join_code"], "name": "Bob"})
    assert anonymous.status_code == 201
    assert [e["type"] for e in events(client, gid, SERVER)[before + 2:]] == ["SeatJoined"]


def test_only_the_server_admin_key_sees_a_seated_players_id(client):
    game = client.post("/v1/games", json={"seats": LOBBY}).get_json()
    gid = game["id"]
    ann = client.post("/v1/games/join", json={"code": game["join_code"], "name": "Ann"},
                      headers=as_player("ann")).get_json()
    spectator = client.post(f"/v1/games/{gid}/spectators",
                            headers=bearer(game["admin_token"])).get_json()["token"]
    for headers in ({}, bearer(ann["token"]), bearer(game["seats"][0]["token"]),
                    bearer(game["admin_token"]), bearer(spectator)):
        seated = [e for e in events(client, gid, headers) if e["type"] == "PlayerSeated"]
        assert [e["data"] for e in seated] == [{"seat": 1, "player_id": None}], headers
        assert "ann" not in str(events(client, gid, headers))
    assert [e["data"]["player_id"] for e in events(client, gid, SERVER)
            if e["type"] == "PlayerSeated"] == ["ann"]


def test_a_spectator_added_is_an_event_once_per_idempotency_key(client):
    game = client.post("/v1/games", json={"seats": HUMANS, "seed": 5}).get_json()
    gid, version = game["id"], game["version"]
    headers = {**bearer(game["admin_token"]), "Idempotency-Key": "spectate-0001-key"}
    first = client.post(f"/v1/games/{gid}/spectators", headers=headers).get_json()
    assert client.post(f"/v1/games/{gid}/spectators", headers=headers).get_json() == first
    client.post(f"/v1/games/{gid}/spectators", headers=bearer(game["admin_token"]))
    feed = events(client, gid)
    assert [e["type"] for e in feed[version:]] == ["SpectatorAdded", "SpectatorAdded"]
    assert all(e["data"] == {} for e in feed[version:])
    assert first["token"] not in str(events(client, gid, SERVER))
    # the version moved, the table did not
    assert state_of(client, gid, version) == state_of(client, gid, version + 2)


def test_a_rematch_is_told_in_both_games_and_each_seat_token_issued(client, finished):
    gid, old = finished["id"], finished["seats"][2]["token"]
    ended = len(events(client, gid))
    new_id = client.post(f"/v1/games/{gid}/rematch", headers=bearer(old)).get_json()["id"]
    assert client.post(f"/v1/games/{gid}/rematch", headers=bearer(old)).get_json()["id"] == new_id
    tail = events(client, gid)[ended:]
    assert [(e["type"], e["data"]) for e in tail] == [("RematchCreated", {"game_id": new_id})]
    follow_up = events(client, new_id)
    assert ("RematchOf", {"game_id": gid}) in [(e["type"], e["data"]) for e in follow_up]
    created = len(follow_up)
    for _ in range(2):
        client.get(f"/v1/games/{gid}/rematch", headers=bearer(old))
    issued = events(client, new_id)[created:]
    assert [(e["type"], e["data"]) for e in issued] == [
        ("SeatTokenIssued", {"seat": 2, "reason": "rematch"})] * 2
    assert client.get(f"/v1/games/{gid}").get_json()["status"] == "finished"


def test_an_export_with_table_events_imports_with_the_same_versions(client, finished):
    gid = finished["id"]
    client.post(f"/v1/games/{gid}/spectators", headers=bearer(finished["admin_token"]))
    client.post(f"/v1/games/{gid}/rematch", headers=bearer(finished["admin_token"]))
    record = client.get(f"/v1/games/{gid}/export", headers=SERVER).get_json()
    assert [e["type"] for e in record["events"][-2:]] == ["SpectatorAdded", "RematchCreated"]
    imported = client.post("/v1/games/import", json=record, headers=SERVER)
    assert imported.status_code == 201, imported.get_json()
    again = imported.get_json()["id"]
    assert [(e["type"], e["data"]) for e in events(client, again, SERVER)] == \
           [(e["type"], e["data"]) for e in record["events"]]
    assert client.get(f"/v1/games/{again}").get_json()["status"] == "finished"


def test_a_malformed_table_event_in_a_record_is_a_422_naming_it(client, finished):
    record = client.get(f"/v1/games/{finished['id']}/export", headers=SERVER).get_json()
    bad = {"version": len(record["events"]) + 1, "type": "RematchCreated", "schema": 1,
           "data": {"game": "x"}}
    refused = client.post("/v1/games/import", json={**record, "events": [*record["events"], bad]},
                          headers=SERVER)
    assert refused.status_code == 422, refused.get_json()
    assert f"event {bad['version']} (RematchCreated)" in refused.get_json()["detail"]
