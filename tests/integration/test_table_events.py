"""Table events (service.table_events) through the API on a real Redis: every fact of a table
that the rules never read is an event of the game's stream (issue 8): a player seated by a
join, a spectator let in, a rematch made (in both games), a rematch seat's token issued. They
move the version, never the state; a seat, the public and the game admin never see a player
id in them; an exported record with them imports with the same versions."""
from __future__ import annotations

import time

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


def test_a_record_whose_first_event_is_a_table_event_is_a_422(client, finished):
    record = client.get(f"/v1/games/{finished['id']}/export", headers=SERVER).get_json()
    first = {"version": 1, "type": "RematchOf", "schema": 1, "data": {"game_id": "0" * 16}}
    events = [first, *({**e, "version": e["version"] + 1} for e in record["events"])]
    refused = client.post("/v1/games/import", json={**record, "events": events}, headers=SERVER)
    assert refused.status_code == 422, refused.get_json()
    assert "first event must be GameCreated or PositionLoaded" in refused.get_json()["detail"]


@pytest.mark.parametrize("bad", [
    {"type": "PlayerSeated", "data": {"seat": "x", "player_id": "ann"}},
    {"type": "PlayerSeated", "data": {"seat": 1, "player_id": {"a": 1}}},
    {"type": "PlayerSeated", "data": {"seat": 5, "player_id": "ann"}},  # a 4-seat table
    {"type": "PlayerSeated", "data": {"seat": -1, "player_id": "ann"}},
    {"type": "SeatTokenIssued", "data": {"seat": 1, "reason": ["x"]}},
    {"type": "RematchCreated", "data": {"game_id": 5}},
    {"type": "SpectatorAdded", "data": {"extra": 1}},
])
def test_a_table_event_with_values_its_fields_do_not_hold_is_a_422(client, finished, bad):
    record = client.get(f"/v1/games/{finished['id']}/export", headers=SERVER).get_json()
    appended = {**bad, "schema": 1, "version": len(record["events"]) + 1}
    refused = client.post("/v1/games/import", headers=SERVER,
                          json={**record, "events": [*record["events"], appended]})
    assert refused.status_code == 422, refused.get_json()
    assert f"event {appended['version']} ({bad['type']})" in refused.get_json()["detail"]


def test_an_imported_player_seated_fills_no_inbox(client, finished):
    record = client.get(f"/v1/games/{finished['id']}/export", headers=SERVER).get_json()
    seated = {"version": len(record["events"]) + 1, "type": "PlayerSeated", "schema": 1,
              "data": {"seat": 1, "player_id": "victim"}}
    imported = client.post("/v1/games/import", headers=SERVER,
                           json={**record, "events": [*record["events"], seated],
                                 "version": seated["version"]})
    assert imported.status_code == 201, imported.get_json()
    inbox = client.get("/v1/players/victim/games", headers={"X-Integration-Key": INTEGRATION_KEY})
    assert inbox.status_code == 200 and inbox.get_json()["items"] == []


def test_a_long_poll_after_a_table_event_of_a_finished_game_answers_at_once(client, finished):
    gid = finished["id"]
    client.post(f"/v1/games/{gid}/spectators", headers=bearer(finished["admin_token"]))
    last = len(events(client, gid))
    assert events(client, gid)[-1]["type"] == "SpectatorAdded"
    started = time.monotonic()
    page = client.get(f"/v1/games/{gid}/events?after={last}&wait=3")
    assert page.status_code == 200 and page.get_json()["events"] == []
    assert time.monotonic() - started < 1.5


def test_nothing_is_added_to_an_aborted_game(client):
    game = client.post("/v1/games", json={"seats": HUMANS}).get_json()
    gid, admin = game["id"], bearer(game["admin_token"])
    assert client.post(f"/v1/games/{gid}/abort", headers=admin).status_code == 200
    version = len(events(client, gid))
    refused = client.post(f"/v1/games/{gid}/spectators", headers=admin)
    assert refused.status_code == 422 and refused.get_json()["rule"] == "T1"
    assert len(events(client, gid)) == version


def test_a_rematch_whose_link_failed_to_append_is_told_by_the_next_call(client, finished,
                                                                        monkeypatch):
    import service.rematch
    from service.store import StoreUnavailable
    gid, token = finished["id"], finished["seats"][0]["token"]
    real = service.rematch.record_table_events

    def down(*args, **kwargs):
        raise StoreUnavailable("down for the test")
    monkeypatch.setattr(service.rematch, "record_table_events", down)
    assert client.post(f"/v1/games/{gid}/rematch", headers=bearer(token)).status_code == 503
    monkeypatch.setattr(service.rematch, "record_table_events", real)
    again = [client.post(f"/v1/games/{gid}/rematch", headers=bearer(token)) for _ in range(2)]
    assert [a.status_code for a in again] == [201, 201]
    follow_up = again[0].get_json()["id"]
    assert again[1].get_json()["id"] == follow_up
    told = [e["data"] for e in events(client, gid) if e["type"] == "RematchCreated"]
    assert told == [{"game_id": follow_up}]  # one follow-up, told once


def test_a_table_event_does_not_change_what_a_seeded_lobby_deals(client):
    """Two lobby games of one server-admin seed: a player's join (SeatJoined + PlayerSeated)
    in one, an anonymous join (SeatJoined) in the other; started, they deal the same cards
    (the decisions' RNG counts the domain events only)."""
    seats = [{"kind": "human", "name": "Host"}, {"kind": "open"}, {"kind": "bot"},
             {"kind": "bot"}]
    games = [client.post("/v1/games", json={"seats": seats, "seed": 11}, headers=SERVER).get_json()
             for _ in range(2)]
    joins = ({**as_player("ann")}, {})
    for game, headers in zip(games, joins):
        joined = client.post("/v1/games/join", json={"code": game["join_code"], "name": "Ann"},
                             headers=headers)
        assert joined.status_code == 201
        started = client.post(f"/v1/games/{game['id']}/start", headers=bearer(game["admin_token"]))
        assert started.status_code == 200
    dealt = [[e["data"] for e in events(client, g["id"], SERVER) if e["type"] == "RoundDealt"][0]
             for g in games]
    versions = [len(events(client, g["id"], SERVER)) for g in games]
    assert versions[0] == versions[1] + 1  # the PlayerSeated
    assert dealt[0] == dealt[1]


@pytest.mark.parametrize("event, change", [
    ("SeatsOpened", {"levels": "x"}), ("SeatsOpened", {"levels": [None] * 8}),
    ("SeatsOpened", {"dealer": 99}), ("SeatsOpened", {"levels": ["godlike"] * 4}),
    ("ClockSet", {"turn_s": -5}), ("ClockSet", {"takeover_level": "godlike"}),
])
def test_a_record_whose_lobby_or_clock_no_game_could_have_is_a_422(client, event, change):
    """A lobby game played to its end, exported, one event edited: refused at import, where it
    was taken and then broke the export and the rematch with a 500."""
    seats = [{"kind": "human", "name": "Host"}, {"kind": "open"}, {"kind": "bot"},
             {"kind": "bot"}]
    record = finished_record()
    lobby = client.post("/v1/games", json={"seats": seats}).get_json()
    opened = next(e for e in events(client, lobby["id"], SERVER) if e["type"] == "SeatsOpened")
    body = [{"type": e["type"], "schema": e["schema"], "data": e["data"]}
            for e in record["events"]]
    if event == "SeatsOpened":  # a lobby before the first deal, as a lobby game's record has
        body.insert(2, {"type": "SeatsOpened", "schema": 1,
                        "data": {**opened["data"], "levels": [None] * 4, **change}})
        body.insert(3, {"type": "GameStarted", "schema": 1, "data": {"by": "host"}})
    else:
        at = next(n for n, e in enumerate(body) if e["type"] == "ClockSet") if any(
            e["type"] == "ClockSet" for e in body) else None
        clock = {"turn_s": 60, "offer_s": 10, "timeouts_before_takeover": 2,
                 "takeover_level": "basic", **change}
        if at is None:
            body.insert(1, {"type": "ClockSet", "schema": 1, "data": clock})
        else:
            body[at]["data"] = clock
    numbered = [{**e, "version": n} for n, e in enumerate(body, 1)]
    refused = client.post("/v1/games/import", json={**record, "events": numbered},
                          headers=SERVER)
    assert refused.status_code == 422, refused.get_json()


def test_a_body_that_is_not_json_is_a_400_on_routes_that_read_none(client):
    game = client.post("/v1/games", json={"seats": HUMANS}).get_json()
    gid, admin = game["id"], bearer(game["admin_token"])
    before = len(events(client, gid))
    for path in ("spectators", "abort", "stream-tickets"):
        refused = client.post(f"/v1/games/{gid}/{path}", data="{junk",
                              headers={**admin, "Content-Type": "application/json"})
        assert refused.status_code == 400, (path, refused.get_json())
        assert refused.get_json()["type"].endswith("invalid-json")
    assert len(events(client, gid)) == before
    assert client.get(f"/v1/games/{gid}").get_json()["status"] == "playing"


def test_a_feed_asked_past_the_games_last_version_is_a_422_not_a_wait(client):
    game = client.post("/v1/games", json={"seats": HUMANS}).get_json()
    gid, version = game["id"], game["version"]
    started = time.monotonic()
    for query in (f"after={version + 5}", f"after={version + 5}&wait=3"):
        refused = client.get(f"/v1/games/{gid}/events?{query}")
        assert refused.status_code == 422, (query, refused.get_json())
        assert f"last version, {version}" in refused.get_json()["detail"]
    stream = client.get(f"/v1/games/{gid}/stream", headers={"Last-Event-ID": str(version + 5)})
    assert stream.status_code == 422
    assert time.monotonic() - started < 2
    assert client.get(f"/v1/games/{gid}/events?after={version}").status_code == 200
