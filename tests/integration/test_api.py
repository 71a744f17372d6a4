"""The REST API over HTTP (Flask test client) on a real Redis."""
import json
import re
import threading
import time
from pathlib import Path

import pytest

from api import create_app
from tests.integration.api_client import (  # noqa: F401 (fixtures)
    HUMANS, PROBLEM, active_token, app, bearer, client, game)
from service.bootstrap import wire
from service.config import Settings
from tests.integration.records import finished_record

CASES = Path(__file__).resolve().parents[1] / "conformance" / "cases"



def draw(client, game, token=None, **headers):
    token = token or active_token(client, game)
    return client.post(f"/v1/games/{game['id']}/actions", json={"type": "draw", "from": "discard"},
                       headers={**bearer(token), **headers})


def test_a_created_game_shows_a_token_for_each_human_seat_only(client):
    seats = HUMANS[:3] + [{"kind": "bot", "level": "basic", "name": "bot"}]
    response = client.post("/v1/games", json={"seats": seats, "seed": 1})
    assert response.status_code == 201
    body = response.get_json()
    assert response.headers["Location"].endswith(f"/v1/games/{body['id']}")
    assert body["version"] >= 1 and body["admin_token"]
    assert [("token" in s) for s in body["seats"]] == [True, True, True, False]
    assert body["seats"][3]["level"] == "basic"


def test_a_game_needs_three_to_eight_seats(client):
    for count in (2, 9):
        response = client.post("/v1/games", json={"seats": (HUMANS * 3)[:count]})
        assert response.status_code == 422 and response.content_type == PROBLEM
        assert "seats" in response.get_json()["errors"]["json"]


def test_a_starting_position_needs_the_server_admin_key(client, admin_key):
    position = json.loads((CASES / "r2.4-out-of-turn.json").read_text())["position"]
    body = {"seats": HUMANS, "position": position}
    refused = client.post("/v1/games", json=body)
    assert refused.status_code == 403 and refused.content_type == PROBLEM
    created = client.post("/v1/games", json=body, headers={"X-Admin-Key": admin_key})
    assert created.status_code == 201
    table = client.get(f"/v1/games/{created.get_json()['id']}").get_json()
    assert (table["turn"], table["phase"], table["discard_top"]) == (0, "draw", "4C")


def test_the_public_table_hides_hands_and_answers_304_when_unchanged(client, game):
    response = client.get(f"/v1/games/{game['id']}")
    table = response.get_json()
    assert response.headers["ETag"] == f'"{table["version"]}"'
    assert table["status"] == "playing" and table["hand_sizes"] == [10, 10, 10, 10]
    assert not {"hand", "hands", "stock"} & set(table)
    again = client.get(f"/v1/games/{game['id']}", headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304 and again.headers["ETag"] == response.headers["ETag"]


def test_the_seat_view_needs_a_seat_token_and_lists_legal_actions(client, game):
    url = f"/v1/games/{game['id']}/view"
    anonymous = client.get(url)
    assert anonymous.status_code == 401 and anonymous.headers["WWW-Authenticate"].startswith("Bearer")
    assert client.get(url, headers=bearer(game["admin_token"])).status_code == 403
    view = client.get(url, headers=bearer(game["seats"][2]["token"]))
    assert view.status_code == 200 and view.get_json()["seat"] == 2
    assert len(view.get_json()["hand"]) == 10 and "legal_actions" in view.get_json()
    unchanged = client.get(url, headers={**bearer(game["seats"][2]["token"]),
                                         "If-None-Match": view.headers["ETag"]})
    assert unchanged.status_code == 304


def test_an_action_returns_the_new_version_and_the_seats_view(client, game):
    response = draw(client, game)
    assert response.status_code == 200
    body = response.get_json()
    assert body["version"] > game["version"] and response.headers["ETag"] == f'"{body["version"]}"'
    assert len(body["view"]["hand"]) == 11 and body["view"]["phase"] == "play"


def test_a_retry_with_the_same_idempotency_key_returns_the_first_response_and_appends_once(client, game):
    token = active_token(client, game)
    first = draw(client, game, token, **{"Idempotency-Key": "k-1"})
    retry = draw(client, game, token, **{"Idempotency-Key": "k-1"})
    assert retry.status_code == 200 and retry.get_json() == first.get_json()
    feed = client.get(f"/v1/games/{game['id']}/events?after={game['version']}").get_json()["events"]
    assert [e["version"] for e in feed] == [first.get_json()["version"]]


def test_an_idempotency_key_reused_for_another_action_is_refused(client, game):
    token = active_token(client, game)
    assert draw(client, game, token, **{"Idempotency-Key": "k-2"}).status_code == 200
    other = client.post(f"/v1/games/{game['id']}/actions", json={"type": "discard", "card": "AS"},
                        headers={**bearer(token), "Idempotency-Key": "k-2"})
    assert other.status_code == 422
    assert other.get_json()["type"] == "/docs/problems#idempotency-key-reused"


def test_a_stale_if_match_is_a_409_conflict_with_the_current_version(client, game):
    stale = draw(client, game, **{"If-Match": f'"{game["version"] - 1}"'})
    assert stale.status_code == 409 and stale.content_type == PROBLEM
    assert stale.get_json()["current_version"] == game["version"]
    assert draw(client, game, **{"If-Match": "not-a-version"}).status_code == 400
    assert draw(client, game, **{"If-Match": str(game["version"])}).status_code == 200


def test_a_rule_violation_is_422_with_the_rule_id(client, game):
    turn = client.get(f"/v1/games/{game['id']}").get_json()["turn"]
    response = draw(client, game, game["seats"][(turn + 1) % 4]["token"])
    assert response.status_code == 422 and response.content_type == PROBLEM
    problem = response.get_json()
    assert problem["rule"] == "R2.4" and problem["type"] == "/docs/problems#rule-violation"
    assert {"title", "status", "detail"} <= set(problem)


def test_an_action_outside_the_vocabulary_is_422_with_field_errors(client, game):
    response = client.post(f"/v1/games/{game['id']}/actions", json={"type": "draw"},
                           headers=bearer(active_token(client, game)))
    assert response.status_code == 422
    assert response.get_json()["errors"]["json"] == {"from": ["Required for draw."]}


def test_the_long_poll_returns_as_soon_as_an_event_is_appended(app, client, game):
    token = active_token(client, game)
    later = threading.Timer(0.3, lambda: draw(app.test_client(), game, token))
    later.start()
    started = time.monotonic()
    feed = client.get(f"/v1/games/{game['id']}/events?after={game['version']}&wait=10")
    later.join()
    assert time.monotonic() - started < 5
    assert [e["type"] for e in feed.get_json()["events"]] == ["CardDrawn"]


def test_the_event_stream_resumes_after_last_event_id(client, game):
    draw(client, game)
    response = client.get(f"/v1/games/{game['id']}/stream",
                          headers={"Last-Event-ID": str(game["version"])})
    assert response.status_code == 200 and response.mimetype == "text/event-stream"
    text = response.get_data(as_text=True)
    ids = [int(line[4:]) for line in text.splitlines() if line.startswith("id: ")]
    assert ids == [game["version"] + 1] and ": heartbeat" in text


def test_the_game_list_is_paged_with_a_cursor_and_a_link_header(client):
    for _ in range(3):
        client.post("/v1/games", json={"seats": HUMANS})
    first = client.get("/v1/games?limit=2")
    page = first.get_json()
    assert page["next_cursor"] and 'rel="next"' in first.headers["Link"]
    rest = client.get(f"/v1/games?limit=2&cursor={page['next_cursor']}").get_json()
    assert rest["next_cursor"] is None
    items = page["items"] + rest["items"]
    # newest first, then by id among games of the same millisecond
    assert items == sorted(items, key=lambda g: (g["created"], g["id"]), reverse=True)
    assert len({g["id"] for g in items}) == 3
    # RFC 3339 UTC with ms, as every other time of the API (it was isoformat's +00:00 and µs)
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", g["created"])
               for g in items), items
    assert client.get("/v1/games?status=finished").get_json()["items"] == []
    assert client.get("/v1/games?cursor=garbage!").status_code == 422


def test_replay_export_and_import(client, game, admin_key):
    seat = client.get(f"/v1/games/{game['id']}/replay?version=2",
                      headers=bearer(game["seats"][0]["token"]))
    assert seat.status_code == 200 and seat.get_json()["version"] == 2
    url = f"/v1/games/{game['id']}/export"
    for token in (game["seats"][0]["token"], game["admin_token"]):  # a live game
        assert client.get(url, headers=bearer(token)).status_code == 403
    record = client.get(url, headers={"X-Admin-Key": admin_key}).get_json()
    assert [e["version"] for e in record["events"]] == list(range(1, game["version"] + 1))
    assert client.post("/v1/games/import", json=finished_record()).status_code == 403
    admin = {"X-Admin-Key": admin_key}
    finished = client.post("/v1/games/import", json=finished_record(), headers=admin).get_json()
    record = client.get(f"/v1/games/{finished['id']}/export",
                        headers=bearer(finished["seats"][0]["token"])).get_json()
    imported = client.post("/v1/games/import", json=record, headers=admin)
    assert imported.status_code == 201 and imported.get_json()["id"] != finished["id"]


def test_health_ready_and_metrics(client, game):
    assert client.get("/health").get_json() == {"status": "ok"}
    assert client.get("/ready").status_code == 200
    metrics = client.get("/metrics").get_data(as_text=True)
    assert 'rummy_http_requests_total{endpoint="games.create_game",method="POST",status="201"}' in metrics
    assert "rummy_http_request_seconds_bucket" in metrics


def test_ready_is_a_503_problem_when_redis_is_unreachable():
    service = wire(Settings(redis_url="redis://127.0.0.1:1/0")).service
    response = create_app({"RUMMY_SERVICE": service}).test_client().get("/ready")
    assert response.status_code == 503 and response.content_type == PROBLEM


def test_unknown_routes_methods_and_bodies_are_problems(client, game):
    assert client.get("/v2/nothing").content_type == PROBLEM
    wrong = client.delete(f"/v1/games/{game['id']}")
    assert wrong.status_code == 405 and "GET" in wrong.headers["Allow"]
    bad = client.post("/v1/games", data="{", content_type="application/json")
    assert bad.status_code == 400 and bad.content_type == PROBLEM
    assert client.get("/v1/games/nope").get_json()["type"] == "/docs/problems#game-not-found"


def test_the_openapi_document_and_docs_page_are_served(client):
    assert client.get("/openapi.json").get_json()["info"]["title"] == "Contract Rummy"
    assert client.get("/docs").status_code == 200


def test_the_request_log_names_the_game_and_version_but_no_card(client, game, caplog):
    token = game["seats"][0]["token"]
    with caplog.at_level("INFO", logger="api.requests"):
        view = client.get(f"/v1/games/{game['id']}/view", headers=bearer(token)).get_json()
    line = caplog.records[-1].getMessage()
    assert f"game={game['id']}" in line and f"version={view['version']}" in line
    assert not any(card in line.split() for card in view["hand"])


def test_r6_1_a_buy_naming_another_card_than_the_one_on_offer_is_a_422(client, game):
    turn = client.get(f"/v1/games/{game['id']}").get_json()["turn"]
    draw_stock = client.post(f"/v1/games/{game['id']}/actions", json={"type": "draw", "from": "stock"},
                             headers=bearer(game["seats"][turn]["token"]))
    offer = draw_stock.get_json()["view"]["offer"]
    other = "2C" if offer["card"] != "2C" else "3C"
    late = client.post(f"/v1/games/{game['id']}/actions", json={"type": "buy", "card": other},
                       headers=bearer(game["seats"][(turn + 1) % 4]["token"]))
    assert late.status_code == 422 and late.content_type == PROBLEM
    assert late.get_json()["rule"] == "R6.1" and f"now {offer['card']}" in late.get_json()["detail"]
    ok = client.post(f"/v1/games/{game['id']}/actions", json={"type": "pass", "card": offer["card"]},
                     headers=bearer(game["seats"][(turn + 1) % 4]["token"]))
    assert ok.status_code == 200


MALFORMED_POSITIONS = [
    {"dealer": 3, "turn": 0, "hands": [[], [], [], []]},  # no round
    {"deal": "x"}, {"deal": {"scores": "abc"}}, {"deal": {"scores": [1, 2]}},
    {"deal": {"round": 9}}, {"deal": {"dealer": "north"}},
]


@pytest.mark.parametrize("position", MALFORMED_POSITIONS)
def test_r1_4_a_malformed_position_is_a_422_problem_and_creates_nothing(client, admin_key, position):
    response = client.post("/v1/games", json={"seats": HUMANS, "position": position},
                           headers={"X-Admin-Key": admin_key})
    assert response.status_code == 422 and response.content_type == PROBLEM
    assert client.get("/v1/games").get_json()["items"] == []


def test_r1_4_an_import_with_an_event_that_does_not_fold_is_a_422_and_creates_nothing(client, game,
                                                                                      admin_key):
    record = finished_record()
    discard = next(e for e in record["events"] if e["type"] == "CardDiscarded")
    discard["data"].update(seat=9)
    response = client.post("/v1/games/import", json=record, headers={"X-Admin-Key": admin_key})
    assert response.status_code == 422 and response.content_type == PROBLEM
    assert [g["id"] for g in client.get("/v1/games").get_json()["items"]] == [game["id"]]


def test_r1_4_an_import_that_loses_cards_of_the_deck_is_a_422_and_creates_nothing(client, game,
                                                                                 admin_key):
    record = finished_record()
    dealt = next(e for e in record["events"] if e["type"] == "RoundDealt")
    dealt["data"]["deck"] = dealt["data"]["deck"][:3]
    response = client.post("/v1/games/import", json=record, headers={"X-Admin-Key": admin_key})
    assert response.status_code == 422 and response.content_type == PROBLEM
    assert [g["id"] for g in client.get("/v1/games").get_json()["items"]] == [game["id"]]


def test_two_seats_may_send_the_same_idempotency_key(client, game):
    turn = client.get(f"/v1/games/{game['id']}").get_json()["turn"]
    client.post(f"/v1/games/{game['id']}/actions", json={"type": "draw", "from": "stock"},
                headers=bearer(game["seats"][turn]["token"]))
    answers = [client.post(f"/v1/games/{game['id']}/actions", json={"type": "pass"},
                           headers={**bearer(game["seats"][(turn + n) % 4]["token"]),
                                    "Idempotency-Key": "same"}) for n in (1, 2)]
    assert [a.status_code for a in answers] == [200, 200]
    assert answers[1].get_json()["version"] == answers[0].get_json()["version"] + 1


def private(response):
    return (response.headers.get("Cache-Control") == "private, no-store"
            and "Authorization" in response.headers.get("Vary", ""))


def test_rfc_9111_seat_specific_responses_are_private_and_vary_by_authorization(client, game):
    token = bearer(game["seats"][0]["token"])
    url = f"/v1/games/{game['id']}"
    responses = [client.get(f"{url}/view", headers=token),
                 client.get(f"{url}/replay?version=1", headers=token),
                 client.get(f"{url}/events?after=0", headers=token),
                 client.get(f"{url}/stream?after=0", headers=token),
                 draw(client, game),
                 client.get(f"{url}/export", headers=bearer(game["admin_token"])),
                 client.get(f"{url}/view")]  # an error of a private route too
    assert all(private(r) for r in responses), [dict(r.headers) for r in responses]
    assert not private(client.get(url))  # the public table may be cached
