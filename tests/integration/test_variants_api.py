"""The §11 variants through the HTTP API: presets listed, 3-8 seats, a profile refused naming
its option and rule, the cut awaited from its seat, hidden cards of variant events redacted."""
import pytest

from api import create_app
from domain.profile import PRESETS
from tests.integration.api_client import bearer

SIX = [{"kind": "human", "name": f"p{n}"} for n in range(6)]


@pytest.fixture
def client(service):
    app = create_app({"RUMMY_SERVICE": service, "TESTING": True, "RUMMY_RATE_LIMITS": "off"})
    return app.test_client()


def test_the_presets_are_listed_with_every_option_and_one_is_read_by_name(client):
    listed = client.get("/v1/profiles").get_json()["items"]
    assert [p["name"] for p in listed] == list(PRESETS)
    shanghai = client.get("/v1/profiles/shanghai").get_json()
    assert shanghai == next(p for p in listed if p["name"] == "shanghai")
    assert shanghai["options"]["deal_sizes"] == [11] * 7 and shanghai["options"]["jokers"] == 4
    assert shanghai["source"] and shanghai["description"]
    missing = client.get("/v1/profiles/progressive")
    assert missing.status_code == 404 and missing.mimetype == "application/problem+json"


def test_a_six_seat_shanghai_game_deals_eleven_and_hides_other_hands(client):
    made = client.post("/v1/games", json={"seats": SIX, "profile": "shanghai"})
    assert made.status_code == 201, made.get_json()
    game = made.get_json()
    table = client.get(f"/v1/games/{game['id']}").get_json()
    assert table["hand_sizes"] == [11] * 6 and table["profile"]["players"] == 6
    token = game["seats"][2]["token"]
    view = client.get(f"/v1/games/{game['id']}/view", headers=bearer(token)).get_json()
    dealt = next(e for e in client.get(f"/v1/games/{game['id']}/events",
                                       headers=bearer(token)).get_json()["events"]
                 if e["type"] == "RoundDealt")
    assert dealt["data"]["hand"] == view["hand"] and dealt["data"]["hand_sizes"] == [11] * 6
    assert "deck" not in dealt["data"]


def test_a_refused_profile_is_a_422_naming_option_and_rule(client):
    answer = client.post("/v1/games", json={"seats": SIX[:4], "profile": {
        "preset": "shanghai", "deal_sizes": [3] * 7}})
    problem = answer.get_json()
    assert answer.status_code == 422 and problem["type"] == "/docs/problems#unsupported-profile"
    assert (problem["option"], problem["rule"]) == ("deal_sizes", "R11.4")


@pytest.mark.parametrize("preset", [{"preset": "standard"}, ["standard"], 5, None])
def test_a_preset_that_is_no_name_is_a_422_not_a_500(client, preset):
    """The newcomer tester's: a preset given as an object or a list was a 500 (unhashable)."""
    answer = client.post("/v1/games", json={"seats": SIX[:4], "profile": {"preset": preset}})
    problem = answer.get_json()
    assert answer.status_code == 422 and problem["type"] == "/docs/problems#unsupported-profile"
    assert (problem["option"], problem["rule"]) == ("preset", "R11.20")
    assert client.get("/v1/games").get_json()["items"] == []


@pytest.mark.parametrize("option,value,rule", [
    ("cut_bonus", 10**12 + 1, "R11.19"),
    ("cut_bonus", int("9" * 4200), "R11.19"),   # the newcomer tester's: it was a 201
    ("stock_rebuilds", 2**53, "R11.17"),
    ("purchases_per_player_per_round", 2**53, "R11.9"),
    ("max_turns_per_round", 2**53, "R10.4"),
])
def test_a_count_past_what_every_json_client_holds_is_a_422(client, option, value, rule):
    """Options are in every view: a value no JavaScript number holds exactly is refused."""
    answer = client.post("/v1/games", json={"seats": SIX[:4], "profile": {
        "preset": "liverpool", option: value}})
    problem = answer.get_json()
    assert answer.status_code == 422 and problem["type"] == "/docs/problems#unsupported-profile"
    assert (problem["option"], problem["rule"]) == (option, rule)
    assert client.get("/v1/games").get_json()["items"] == []


def test_the_largest_cut_bonus_is_played(client):
    made = client.post("/v1/games", json={"seats": SIX[:4], "profile": {
        "preset": "liverpool", "cut_bonus": 10**12}})
    assert made.status_code == 201, made.get_json()


def test_a_liverpool_deal_awaits_the_cut_from_the_dealers_right_then_deals(client):
    game = client.post("/v1/games", json={"seats": SIX[:4], "profile": "liverpool"}).get_json()
    table = client.get(f"/v1/games/{game['id']}").get_json()
    cutter = (table["dealer"] - 1) % 4
    assert table["awaiting"] == {**table["awaiting"], "phase": "cut", "seats": [cutter]}
    shuffled = client.get(f"/v1/games/{game['id']}/events").get_json()["events"][-1]
    assert shuffled["type"] == "DeckShuffled" and shuffled["data"]["deck"] is None
    token = game["seats"][cutter]["token"]
    view = client.get(f"/v1/games/{game['id']}/view", headers=bearer(token)).get_json()
    assert {"type": "cut", "count": 40} in view["legal_actions"]
    cut = client.post(f"/v1/games/{game['id']}/actions", json={"type": "cut", "count": 40},
                      headers=bearer(token))
    assert cut.status_code == 200, cut.get_json()
    assert cut.get_json()["view"]["hand_sizes"] == [10] * 4


def test_a_finished_variant_record_is_imported_and_replays_to_its_end(client, admin_key):
    from domain.profile import resolve
    from tests.integration.records import finished_record
    profile = resolve({"preset": "shanghai", "players": 5, "max_turns_per_round": 40})
    record = finished_record(seed=4, levels=("basic",) * 5, profile=profile)
    reply = client.post("/v1/games/import", json=record, headers={"X-Admin-Key": admin_key})
    assert reply.status_code == 201, reply.get_json()
    table = client.get(f"/v1/games/{reply.get_json()['id']}").get_json()
    ended = record["events"][-1]["data"]
    assert table["status"] == "finished" and table["scores"] == ended["totals"]
    assert table["profile"] == profile.to_json() and len(table["hand_sizes"]) == 5


def test_a_capped_seats_pass_is_accepted_and_appends_nothing(client, admin_key):
    import json
    from pathlib import Path
    case = json.loads((Path(__file__).parents[1] / "conformance" / "variants"
                       / "v-r11.9-purchase-cap.json").read_text())
    game = client.post("/v1/games", json={"seats": SIX[:4], "position": case["position"]},
                       headers={"X-Admin-Key": admin_key}).get_json()
    tokens = [seat["token"] for seat in game["seats"]]
    drawn = client.post(f"/v1/games/{game['id']}/actions", json={"type": "draw", "from": "stock"},
                        headers=bearer(tokens[0]))
    assert drawn.status_code == 200, drawn.get_json()
    before = client.get(f"/v1/games/{game['id']}").get_json()["version"]
    passed = client.post(f"/v1/games/{game['id']}/actions", json={"type": "pass"},
                         headers=bearer(tokens[2]))  # seat 2 made its two purchases (R11.9)
    assert passed.status_code == 200, passed.get_json()
    assert client.get(f"/v1/games/{game['id']}").get_json()["version"] == before


def test_players_other_than_the_seats_is_an_unsupported_profile_naming_r11_1(client):
    """The newcomer tester's: it was an invalid-request with the rule only in its text."""
    answer = client.post("/v1/games", json={"seats": SIX[:4], "profile": {
        "preset": "standard", "players": 5}})
    problem = answer.get_json()
    assert answer.status_code == 422 and problem["type"] == "/docs/problems#unsupported-profile"
    assert (problem["option"], problem["rule"]) == ("players", "R11.1")
    assert "players is 5 but the game has 4 seats" in problem["detail"]
