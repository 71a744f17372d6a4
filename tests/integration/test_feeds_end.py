"""Feeds that end (issue 9): a stream closes after the game's last event and a reconnect then
gets 204; a long poll on a finished or aborted game answers at once; /events pages with
`limit`, `more` and `next_after`; JSON over 1 KB is gzip-compressed and its rewritten ETag
still satisfies If-Match and If-None-Match."""
import gzip
import json
import threading
import time

import pytest

from api import create_app
from tests.integration.records import finished_record

HUMANS = [{"kind": "human", "name": n} for n in ("ann", "bob", "cy", "di")]


@pytest.fixture
def app(service):
    return create_app({"RUMMY_SERVICE": service, "TESTING": True, "RUMMY_RATE_LIMITS": "off",
                       "RUMMY_SSE_MAX_S": 30, "RUMMY_SSE_HEARTBEAT_S": 0.2})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def finished(client, admin_key):
    return client.post("/v1/games/import", json=finished_record(seed=5),
                       headers={"X-Admin-Key": admin_key}).get_json()


@pytest.fixture
def live(client):
    return client.post("/v1/games", json={"seats": HUMANS, "seed": 3}).get_json()


def messages(body: str) -> list[dict]:
    """The SSE messages of a stream body with data (the retry hint and heartbeats left out)."""
    return [dict(line.split(": ", 1) for line in block.splitlines())
            for block in body.split("\n\n") if "data: " in block]


def test_a_stream_sends_the_aborted_games_last_event_and_closes(client, live):
    response = client.get(f"/v1/games/{live['id']}/stream", buffered=False)
    body: list[str] = []
    reader = threading.Thread(target=lambda: body.extend(c.decode() for c in response.response))
    reader.start()
    time.sleep(0.5)
    aborted = client.post(f"/v1/games/{live['id']}/abort",
                          headers={"Authorization": f"Bearer {live['admin_token']}"})
    assert aborted.status_code == 200
    reader.join(5)  # well before RUMMY_SSE_MAX_S (30 s): the stream ended by itself
    assert not reader.is_alive()
    sent = messages("".join(body))
    assert sent[-1]["event"] == "GameAborted" and sent[-1]["id"] == str(aborted.json["version"])


def test_a_reconnect_with_the_last_event_of_a_finished_game_gets_204(client, finished):
    game = f"/v1/games/{finished['id']}/stream"
    whole = client.get(game)
    sent = messages(whole.get_data(as_text=True))
    assert [m["id"] for m in sent] == [str(v) for v in range(1, finished["version"] + 1)]
    assert sent[-1]["event"] == "GameEnded"
    again = client.get(game, headers={"Last-Event-ID": sent[-1]["id"]})
    assert again.status_code == 204 and again.get_data() == b""
    assert client.get(f"{game}?after={finished['version']}").status_code == 204
    rest = client.get(game, headers={"Last-Event-ID": str(finished["version"] - 2)})
    assert [m["id"] for m in messages(rest.get_data(as_text=True))] == [
        str(finished["version"] - 1), str(finished["version"])]


def test_past_the_end_of_a_finished_game_the_stream_and_the_long_poll_both_answer_422(
        client, finished):
    """The newcomer tester's: the stream answered 204 and the long poll 422 for the same
    position past a finished game's last version."""
    past = finished["version"] + 2
    for answer in (client.get(f"/v1/games/{finished['id']}/stream",
                              headers={"Last-Event-ID": str(past)}),
                   client.get(f"/v1/games/{finished['id']}/stream?after={past}"),
                   client.get(f"/v1/games/{finished['id']}/events?after={past}&wait=5")):
        assert answer.status_code == 422, answer.status_code
        assert f"after={past} is past the game's last version" in answer.get_json()["detail"]


@pytest.mark.parametrize("over", ["finished", "aborted"])
def test_a_long_poll_on_a_game_that_is_over_answers_at_once(client, finished, live, over):
    if over == "aborted":
        client.post(f"/v1/games/{live['id']}/abort",
                    headers={"Authorization": f"Bearer {live['admin_token']}"})
    game_id = finished["id"] if over == "finished" else live["id"]
    version = client.get(f"/v1/games/{game_id}").get_json()["version"]
    started = time.monotonic()
    page = client.get(f"/v1/games/{game_id}/events?after={version}&wait=20").get_json()
    assert time.monotonic() - started < 2
    assert page == {"events": [], "more": False, "next_after": version}


def test_events_come_in_pages_of_limit_that_add_up_to_the_whole_feed(client, finished):
    feed = f"/v1/games/{finished['id']}/events"
    first = client.get(feed).get_json()
    assert len(first["events"]) == 500 and first["more"] is True
    assert first["next_after"] == first["events"][-1]["version"] == 500
    after, pages, read = 0, 0, []
    while True:
        page = client.get(f"{feed}?after={after}&limit=400").get_json()
        read += page["events"]
        pages += 1
        after = page["next_after"]
        if not page["more"]:
            break
    whole = client.get(f"{feed}?limit=5000").get_json()
    assert finished["version"] < 5000 and whole["more"] is False
    assert read == whole["events"] and len(read) == finished["version"]
    assert pages == -(-finished["version"] // 400)
    for bad in (0, 5001, "x"):
        assert client.get(f"{feed}?limit={bad}").status_code == 422


def test_json_over_1_kb_is_gzipped_and_small_answers_are_not(client, finished):
    feed = client.get(f"/v1/games/{finished['id']}/events?limit=5000",
                      headers={"Accept-Encoding": "gzip"})
    assert feed.headers["Content-Encoding"] == "gzip"
    body = gzip.decompress(feed.get_data())
    assert len(feed.get_data()) * 5 < len(body)
    assert len(json.loads(body)["events"]) == finished["version"]
    assert "Content-Encoding" not in client.get("/health",
                                                headers={"Accept-Encoding": "gzip"}).headers
    assert "Content-Encoding" not in client.get(f"/v1/games/{finished['id']}/events").headers


@pytest.mark.parametrize("refusal", ["gzip;q=0", "gzip; q=0.000", "GZIP;Q=0, br;q=0.5",
                                     "gzip;q=0, *;q=0"])
def test_a_client_refusing_gzip_gets_none(client, finished, refusal):
    """RFC 9110 §12.4.2: q=0 is "not acceptable" (the newcomer tester's: gzip;q=0 got gzip)."""
    feed = client.get(f"/v1/games/{finished['id']}/events?limit=5000",
                      headers={"Accept-Encoding": refusal})
    assert feed.status_code == 200 and "Content-Encoding" not in feed.headers
    assert len(json.loads(feed.get_data())["events"]) == finished["version"]
    again = client.get(f"/v1/games/{finished['id']}/events?limit=5000",
                       headers={"Accept-Encoding": "identity;q=0.5, gzip;q=0.9"})
    assert again.headers["Content-Encoding"] == "gzip"


def test_a_gzipped_etag_still_satisfies_if_none_match_and_if_match(service):
    # A view at the start of a game is under 1 KB: compress from 100 bytes here.
    client = create_app({"RUMMY_SERVICE": service, "TESTING": True, "RUMMY_RATE_LIMITS": "off",
                         "COMPRESS_MIN_SIZE": 100}).test_client()
    live = client.post("/v1/games", json={"seats": HUMANS, "seed": 3}).get_json()
    seat = next(s for s in live["seats"]
                if s["seat"] == client.get(f"/v1/games/{live['id']}").json["turn"])
    auth = {"Authorization": f"Bearer {seat['token']}", "Accept-Encoding": "gzip"}
    view = client.get(f"/v1/games/{live['id']}/view", headers=auth)
    assert view.headers["Content-Encoding"] == "gzip"
    tag = view.headers["ETag"]
    assert tag == f'"{live["version"]}:gzip"'
    unchanged = client.get(f"/v1/games/{live['id']}/view", headers={**auth, "If-None-Match": tag})
    assert unchanged.status_code == 304
    plain = client.get(f"/v1/games/{live['id']}/view",
                       headers={"Authorization": auth["Authorization"], "If-None-Match": tag})
    assert plain.status_code == 304
    acted = client.post(f"/v1/games/{live['id']}/actions", json={"type": "draw", "from": "stock"},
                        headers={**auth, "If-Match": tag})
    assert acted.status_code == 200, acted.get_data()
    stale = client.post(f"/v1/games/{live['id']}/actions", json={"type": "draw", "from": "stock"},
                        headers={**auth, "If-Match": tag})
    assert stale.status_code == 409
