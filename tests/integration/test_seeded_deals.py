"""Seeded deals are unknowable to the players (issue 7 item 1, docs/threat-model.md): without
the server admin key a `seed` is mixed with the game id, so no two games share a deal and the
seed search of the adversarial run (create games with seeds 0, 1, 2, ..., read each one's
replay, compare with a live seat's hand) finds nothing; with the server admin key the same seed
deals the same game. Views show the game's `origin`."""
from __future__ import annotations

from service.keys import meta_key
from tests.integration.api_client import HUMANS, bearer, client, app  # noqa: F401 (fixtures)
from tests.integration.records import finished_record

SEARCHED_SEEDS = 120  # the live game's seed is among them


def create(client, seed, headers=None):
    response = client.post("/v1/games", json={"seats": HUMANS, "seed": seed}, headers=headers)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def dealt_hands(client, game, admin_key):
    """Every hand right after the deal of `game`, as the server admin key sees them."""
    url = f"/v1/games/{game['id']}/replay?version={game['version']}"
    return client.get(url, headers={"X-Admin-Key": admin_key}).get_json()["hands"]


def test_two_games_created_with_the_same_seed_deal_different_cards(client, admin_key):
    one, two = create(client, 250), create(client, 250)
    assert dealt_hands(client, one, admin_key) != dealt_hands(client, two, admin_key)


def test_with_the_server_admin_key_the_same_seed_deals_the_same_game(client, admin_key):
    server = {"X-Admin-Key": admin_key}
    one, two = create(client, 250, server), create(client, 250, server)
    assert dealt_hands(client, one, admin_key) == dealt_hands(client, two, admin_key)
    assert dealt_hands(client, one, admin_key) != dealt_hands(client, create(client, 250), admin_key)


def test_the_seed_search_of_a_live_seats_hand_finds_nothing(client, admin_key):
    """The attack: a seat of a live seeded game creates games with seeds 0..N and compares each
    one's dealt hands with its own. Read with each game's admin token (what an attacker holds)
    it sees no hand at all; even read whole (as if each were finished) no deal matches."""
    live = create(client, SEARCHED_SEEDS // 2)
    own = client.get(f"/v1/games/{live['id']}/view", headers=bearer(live["seats"][0]["token"]))
    own_hand = sorted(own.get_json()["hand"])
    assert len(own_hand) == 10  # round 1 deals ten cards (R3.1)
    found = []
    for seed in range(SEARCHED_SEEDS):
        probe = create(client, seed)
        url = f"/v1/games/{probe['id']}/replay?version={probe['version']}"
        as_attacker = client.get(url, headers=bearer(probe["admin_token"])).get_json()
        assert "hands" not in as_attacker and "stock" not in as_attacker
        if any(sorted(hand) == own_hand for hand in dealt_hands(client, probe, admin_key)):
            found.append(seed)
    assert found == []


def test_views_show_the_games_origin(client, admin_key):
    server = {"X-Admin-Key": admin_key}
    random_game = client.post("/v1/games", json={"seats": HUMANS}).get_json()
    seeded, admin_seeded = create(client, 3), create(client, 3, server)
    imported = client.post("/v1/games/import", json=finished_record(), headers=server).get_json()
    position = client.post("/v1/games", headers=server, json={
        "seats": HUMANS, "position": {"deal": {"round": 1, "dealer": 0}}}).get_json()
    for game, origin in ((random_game, "random"), (seeded, "seeded"), (admin_seeded, "seeded"),
                         (imported, "import"), (position, "position")):
        url = f"/v1/games/{game['id']}"
        token = bearer(game["seats"][0]["token"])
        assert client.get(url).get_json()["origin"] == origin
        assert client.get(f"{url}/view", headers=token).get_json()["origin"] == origin
        assert client.get(f"{url}/replay?version=1").get_json()["origin"] == origin


def test_a_record_written_before_origins_reads_as_random_or_seeded(make_service):
    """Records of old stored "new" for both kinds of game; the decision seed tells them apart."""
    writer = make_service()
    random_game, seeded = writer.create_game(HUMANS), writer.create_game(HUMANS, seed=9)
    for game in (random_game, seeded):
        writer.records._client.hset(meta_key(game["id"]), "origin", "new")
    reader = make_service()  # its own record cache, like another process
    assert reader.public_view(random_game["id"])[1]["origin"] == "random"
    assert reader.public_view(seeded["id"])[1]["origin"] == "seeded"


def test_a_finished_games_decision_seed_is_shown_only_to_whom_its_export_is(client, admin_key):
    """Games seeded with the server admin key share their decision seed, which tells every
    random choice of each of them at any version: the anonymous full replay of a finished
    game leaves it out; a token of the game and the server admin key see it, as in the export."""
    record = finished_record(seed=3)
    record["events"][0]["data"]["seed"] = "5eed" * 8  # as a service-played game's record has
    game = client.post("/v1/games/import", json=record,
                       headers={"X-Admin-Key": admin_key}).get_json()
    url = f"/v1/games/{game['id']}/replay?version=5"
    seat = bearer(game["seats"][0]["token"])
    exported = client.get(f"/v1/games/{game['id']}/export", headers=seat).get_json()
    seed = exported["events"][0]["data"]["seed"]
    assert seed == "5eed" * 8
    anonymous = client.get(url).get_json()
    assert anonymous["seed"] is None and anonymous["stock"], anonymous.keys()  # the full table
    assert client.get(url, headers=seat).get_json()["seed"] == seed
    assert client.get(url, headers={"X-Admin-Key": admin_key}).get_json()["seed"] == seed
