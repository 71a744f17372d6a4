"""What the API refuses at its door, over HTTP (Flask test client) on a real Redis: bodies too
deep or too large, numbers and headers outside the document, records that are not finished
games. Every refusal is a problem+json with type/title/status/detail and changes nothing."""
import json

import pytest

from tests.integration.api_client import (  # noqa: F401 (fixtures)
    HUMANS, PROBLEM, active_token, app, bearer, client, game)


def assert_problem(response, status):
    assert response.status_code == status, response.get_data(as_text=True)[:300]
    assert response.content_type == PROBLEM
    body = response.get_json()
    assert {"type", "title", "status", "detail"} <= set(body) and body["status"] == status
    assert "Traceback" not in body["detail"] and "Error" not in body["detail"]
    return body


def assert_unchanged(client, game):
    """The game is still at its first version and it is the only game."""
    assert client.get(f"/v1/games/{game['id']}").get_json()["version"] == game["version"]
    assert [g["id"] for g in client.get("/v1/games").get_json()["items"]] == [game["id"]]


def post_json(client, url, text, **headers):
    return client.post(url, data=text, content_type="application/json", headers=headers)


@pytest.mark.parametrize("with_token", [False, True])
def test_a_deeply_nested_action_body_is_a_400_problem(client, game, with_token):
    body = '{"type":"open","melds":' + "[" * 1000 + "]" * 1000 + "}"
    headers = bearer(active_token(client, game)) if with_token else {}
    problem = assert_problem(post_json(client, f"/v1/games/{game['id']}/actions", body,
                                       **headers), 400)
    assert problem["type"] == "/docs/problems#invalid-json" and "nested" in problem["detail"]
    assert_unchanged(client, game)


@pytest.mark.parametrize("depth", [40, 900, 5000])
def test_a_deeply_nested_new_game_body_is_a_400_problem(client, game, depth):
    body = '{"seats": ' + "[" * depth + "]" * depth + "}"
    assert_problem(post_json(client, "/v1/games", body), 400)
    assert_unchanged(client, game)


@pytest.mark.parametrize("text", ['{"seats": NaN}', '{"seats": Infinity}', '{"seed": 1e999}'])
def test_json_that_rfc_8259_does_not_allow_is_a_400_problem(client, game, text):
    assert_problem(post_json(client, "/v1/games", text), 400)
    assert_unchanged(client, game)


def too_large():
    from api import MAX_BODY_BYTES
    return '{"seats": "' + "x" * MAX_BODY_BYTES + '"}'


def test_a_finished_games_record_fits_well_under_the_body_limit():
    import json
    import random

    from api import MAX_BODY_BYTES
    from domain import event_to_dict
    from domain.simulation import play_game
    events = play_game(("random",) * 4, random.Random(2)).events
    record = json.dumps([{**event_to_dict(e), "version": n} for n, e in enumerate(events, 1)])
    assert len(record) * 4 < MAX_BODY_BYTES


@pytest.mark.parametrize("path", ["/v1/games", "/v1/games/import", "/v1/games/{id}/actions"])
def test_a_body_over_the_limit_is_a_413_problem(client, game, admin_key, path):
    headers = {"X-Admin-Key": admin_key, **bearer(active_token(client, game))}
    response = post_json(client, path.format(id=game["id"]), too_large(), **headers)
    problem = assert_problem(response, 413)
    assert "larger than" in problem["detail"]
    assert_unchanged(client, game)


def test_the_body_limit_is_documented_on_every_operation_with_a_body():
    from api.cli import openapi_document
    for path, item in openapi_document()["paths"].items():
        for method, operation in item.items():
            if isinstance(operation, dict) and "requestBody" in operation:
                assert "413" in operation["responses"], (method, path)


def act(client, game, body, **headers):
    return client.post(f"/v1/games/{game['id']}/actions", json=body,
                       headers={**bearer(active_token(client, game)), **headers})


def test_a_meld_index_of_5000_digits_is_a_422_naming_the_field_without_python_internals(client,
                                                                                          game):
    text = '{"type": "lay_off", "meld": ' + "9" * 5000 + ', "card": "2C"}'
    response = post_json(client, f"/v1/games/{game['id']}/actions", text,
                         **bearer(active_token(client, game)))
    problem = assert_problem(response, 422)
    assert list(problem["errors"]["json"]) == ["meld"]
    assert "sys." not in problem["detail"] and "4300 digits)" in problem["detail"]
    assert_unchanged(client, game)


@pytest.mark.parametrize("profile", ["progressive", "{}", "x" * 500])
def test_a_profile_name_other_than_a_preset_is_a_422_naming_it(client, game, profile):
    problem = assert_problem(client.post("/v1/games", json={"seats": HUMANS, "profile": profile}),
                             422)
    assert problem["errors"]["json"]["profile"] == [
        f"profile {profile[:40] + ('…' if len(profile) > 40 else '')!r} is not a preset; "
        "presets are standard, first_game, shanghai, liverpool, eight_deals."]
    assert "JSON" not in problem["detail"] and "Expecting" not in problem["detail"]
    assert_unchanged(client, game)


@pytest.mark.parametrize("profile", [5, ["standard"], True])
def test_a_profile_that_is_neither_a_name_nor_an_object_is_a_422(client, game, profile):
    problem = assert_problem(client.post("/v1/games", json={"seats": HUMANS, "profile": profile}),
                             422)
    assert "profile" in problem["errors"]["json"]
    assert_unchanged(client, game)


@pytest.mark.parametrize("meld", ["0", 1.5, True, -1, 1000])
def test_a_meld_index_is_a_json_integer_from_0_to_999(client, game, meld):
    problem = assert_problem(act(client, game, {"type": "lay_off", "meld": meld, "card": "2C"}),
                             422)
    assert problem["errors"]["json"] == {"meld": ["Must be an integer from 0 to 999."]}
    assert_unchanged(client, game)


@pytest.mark.parametrize("seed", ["7", 1.5, False, -1, 2**63])
def test_a_seed_is_a_json_integer_from_0_to_2_63_minus_1(client, game, seed):
    problem = assert_problem(client.post("/v1/games", json={"seats": HUMANS, "seed": seed}), 422)
    assert problem["errors"]["json"] == {"seed": [f"Must be an integer from 0 to {2**63 - 1}."]}
    assert_unchanged(client, game)


def test_the_largest_seed_is_accepted(client):
    assert client.post("/v1/games", json={"seats": HUMANS, "seed": 2**63 - 1}).status_code == 201


@pytest.mark.parametrize("key", ["", "k" * 201])
def test_an_idempotency_key_is_1_to_200_characters(client, game, key):
    response = act(client, game, {"type": "draw", "from": "discard"}, **{"Idempotency-Key": key})
    problem = assert_problem(response, 422)
    assert list(problem["errors"]["headers"]) == ["Idempotency-Key"]
    assert_unchanged(client, game)
    ok = act(client, game, {"type": "draw", "from": "discard"}, **{"Idempotency-Key": "k" * 200})
    assert ok.status_code == 200


@pytest.mark.parametrize("cursor", ["MTIz", "garbage!", "", "OjEyMw==", "MTI6YSBi",
                                    "MDAxMjphYmNk", "MTI6YWJjZA"])
def test_every_cursor_that_the_list_did_not_give_is_a_422(client, game, cursor):
    assert_problem(client.get(f"/v1/games?cursor={cursor}"), 422)


def test_a_cursor_the_list_gave_pages_on(client, game):
    client.post("/v1/games", json={"seats": HUMANS})
    first = client.get("/v1/games?limit=1").get_json()
    rest = client.get(f"/v1/games?limit=1&cursor={first['next_cursor']}")
    assert rest.status_code == 200 and len(rest.get_json()["items"]) == 1


def import_(client, admin_key, record):
    return client.post("/v1/games/import", json=record, headers={"X-Admin-Key": admin_key})


def test_a_finished_games_record_is_imported(client, admin_key):
    from tests.integration.records import finished_record
    response = import_(client, admin_key, finished_record())
    assert response.status_code == 201
    assert client.get(response.headers["Location"]).get_json()["status"] == "finished"


def _rescored(record: dict, change) -> dict:
    """`record` with `change(data)` applied to its last RoundScored's data."""
    scored = [e for e in record["events"] if e["type"] == "RoundScored"][-1]
    change(scored["data"])
    return record


@pytest.mark.parametrize("change", [
    lambda data: data.update(totals=[t - 5 for t in data["totals"]]),   # totals that do not add up
    lambda data: data.update(scores=[0] * len(data["scores"])),         # nobody's hand counted
])
def test_r9_a_record_scoring_a_round_otherwise_than_the_rules_is_a_422_and_creates_nothing(
        client, game, admin_key, change):
    """The fold takes the scores a RoundScored carries: an import scores each round again
    (R9.1-R9.3), else a record could name other winners than its play gives."""
    from tests.integration.records import finished_record
    version = [e["version"] for e in finished_record()["events"]
               if e["type"] == "RoundScored"][-1]
    problem = assert_problem(import_(client, admin_key, _rescored(finished_record(), change)),
                             422)
    assert f"event {version} (RoundScored)" in problem["detail"] and "R9" in problem["detail"]
    assert_unchanged(client, game)


def test_r9_a_record_scoring_a_round_still_in_play_is_a_422_not_a_500(client, game, admin_key):
    from tests.integration.records import finished_record
    record = finished_record()
    scored = next(e for e in record["events"] if e["type"] == "RoundScored")
    record["events"].insert(5, {**scored})
    for version, event in enumerate(record["events"], 1):
        event["version"] = version
    record["version"] = len(record["events"])
    problem = assert_problem(import_(client, admin_key, record), 422)
    assert problem["detail"].startswith("event 6 (RoundScored)"), problem["detail"]
    assert_unchanged(client, game)


@pytest.mark.parametrize("change", [
    lambda deck: deck.__setitem__(15, "ZZ"),          # a card that is no card
    lambda deck: deck.pop(),                          # 106 cards
    lambda deck: deck.__setitem__(-1, deck[0]),       # one card twice, another lost
    lambda deck: deck.extend(["JK"] * 20),            # jokers added
])
def test_r1_4_a_record_whose_first_round_is_not_dealt_from_the_deck_is_a_422(client, game,
                                                                          admin_key, change):
    """The newcomer tester's records: only the last round's cards were counted, so a first
    deal of 106 cards, or with a card `ZZ` (every replay of that round then a 500), was
    imported. Every event's table must hold the deck's cards, each once."""
    from tests.integration.records import finished_record
    record = finished_record()
    dealt = first(record["events"], "RoundDealt")
    change(dealt["data"]["deck"])
    problem = assert_problem(import_(client, admin_key, record), 422)
    assert problem["detail"].startswith(f"event {dealt['version']} (RoundDealt)"), problem
    assert "R1.4" in problem["detail"]
    assert_unchanged(client, game)


def test_r1_4_a_record_bringing_a_card_in_and_out_within_a_round_is_a_422(client, game,
                                                                          admin_key):
    """A card drawn as another and discarded again leaves the round's end whole: every
    event's table is counted, not only the round's end."""
    from tests.integration.records import finished_record
    record = finished_record()
    drawn = first(record["events"], "CardDrawn")
    drawn["data"]["card"] = "ZZ"
    problem = assert_problem(import_(client, admin_key, record), 422)
    assert problem["detail"].startswith(f"event {drawn['version']} (CardDrawn)"), problem
    assert_unchanged(client, game)


def _renumbered(record: dict) -> dict:
    """`record` with its events numbered 1, 2, ... again and its version their count."""
    for version, event in enumerate(record["events"], 1):
        event["version"] = version
    record["version"] = len(record["events"])
    return record


def _ended(winners: list, totals: list) -> dict:
    return {"type": "GameEnded", "schema": 1, "data": {"winners": winners, "totals": totals}}


@pytest.mark.parametrize("craft,named", [
    # the reviewer's records: a GameEnded with winners of its own right after the first deal,
    # right after GameCreated, or in place of the last scoring; a round left unscored
    (lambda events: events[:2] + [_ended([3], [0, 500, 500, 500])], "event 3 (GameEnded)"),
    (lambda events: events[:1] + [_ended([3], [0, 1, 2, 3])], "event 2 (GameEnded)"),
    (lambda events: [e for e in events if e is not [x for x in events
                                                     if x["type"] == "RoundScored"][-1]],
     "(GameEnded)"),
    (lambda events: [e for e in events if e is not first(events, "RoundScored")],
     "(RoundDealt)"),
])
def test_r9_a_record_skipping_a_scoring_or_ending_early_is_a_422(client, game, admin_key,
                                                                  craft, named):
    """The fold applies a GameEnded anywhere, with the winners it names: a game ends only by
    the scoring of its last round (R9.4), a round that ended is scored next (R9.1)."""
    from tests.integration.records import finished_record
    record = finished_record()
    record["events"] = craft(record["events"])
    problem = assert_problem(import_(client, admin_key, _renumbered(record)), 422)
    assert named in problem["detail"] and ("R9" in problem["detail"]), problem["detail"]
    assert_unchanged(client, game)


@pytest.mark.parametrize("event_type,field,value", [
    ("OfferOpened", "barred", {}),          # the reviewer's: every replay of it was a 500
    ("RoundDealt", "round", 1.5),
    ("CardDrawn", "seat", True),
    ("RoundScored", "scores", [0, "1", 2, 3]),
])
def test_a_record_event_with_a_field_of_another_type_is_a_422(client, game, admin_key,
                                                              event_type, field, value):
    """The fold trusts its events' shapes: a record's are checked against the event types."""
    from tests.integration.records import finished_record
    record = finished_record()
    event = first(record["events"], event_type)
    event["data"][field] = value
    problem = assert_problem(import_(client, admin_key, record), 422)
    assert problem["detail"] == (f"event {event['version']} ({event_type}): its {field} is not "
                                 f"of the type {event_type} holds there"), problem["detail"]
    assert_unchanged(client, game)


def test_a_record_with_a_position_the_server_did_not_write_is_a_422(client, game, admin_key):
    """A PositionLoaded holds a normalized position: another (its turn None) made every view
    of the table after it fail."""
    from domain import event_to_dict
    from tests.integration.records import finished_record, first_deal_as_position
    record = finished_record()
    loaded = first_deal_as_position(record)
    position = {**event_to_dict(loaded)["data"]["position"], "turn": None}
    record["events"] = [{"version": 1, "type": "PositionLoaded", "schema": 1,
                         "data": {"position": position}}, *record["events"][2:]]
    problem = assert_problem(import_(client, admin_key, _renumbered(record)), 422)
    assert problem["detail"].startswith("event 1 (PositionLoaded): its position is not one"), \
        problem["detail"]
    assert_unchanged(client, game)


def test_a_seat_resigned_while_its_round_waits_for_scoring_imports(client, admin_key):
    """The second reviewer's: a human may resign between RoundEnded and RoundScored (T4), so
    the order check reads past seat control (the import was refused)."""
    from tests.integration.records import finished_record
    record = finished_record()
    ended = first(record["events"], "RoundEnded")
    at = record["events"].index(ended) + 1
    record["events"].insert(at, {"type": "SeatTakenOver", "schema": 1,
                                 "data": {"seat": 1, "level": "basic", "reason": "resigned"}})
    answer = import_(client, admin_key, _renumbered(record))
    assert answer.status_code == 201, answer.get_json()


def _turn_after(events: list) -> int:
    """The seat to act after `events` (record events) are folded."""
    from domain import fold
    from service.table_events import event_of
    return fold([event_of(e) for e in events]).round.turn


@pytest.mark.parametrize("craft,named", [
    # a cut nobody awaited, then the next round's deal: round 1 skipped (the second reviewer's)
    (lambda events: events[:12] + [{"type": "DeckCut", "schema": 1, "data": {
        "seat": _turn_after(events[:12]), "count": 1, "lifted": 1, "exact": False}}]
     + events[12:], "(DeckCut) is not a cut awaited"),
    # a clock whose deadlines overflow, replaced later by a fair one
    (lambda events: events[:1] + [{"type": "ClockSet", "schema": 1, "data": {
        "turn_s": 10**15, "offer_s": 15, "timeouts_before_takeover": 2,
        "takeover_level": "basic"}}] + events[1:], "(ClockSet) sets a clock out of its bounds"),
    # a lobby opened in the middle of a round
    (lambda events: events[:9] + [{"type": "SeatsOpened", "schema": 1, "data": {
        "levels": [None] * 4, "dealer": 0, "auto_start": False}}] + events[9:], "(SeatsOpened)"),
])
def test_a_record_with_table_events_out_of_place_is_a_422(client, game, admin_key, craft,
                                                           named):
    from tests.integration.records import finished_record
    record = finished_record()
    record["events"] = craft(record["events"])
    problem = assert_problem(import_(client, admin_key, _renumbered(record)), 422)
    assert named in problem["detail"], problem["detail"]
    assert_unchanged(client, game)


def test_r11_19_a_record_with_a_cut_claimed_exact_is_a_422(client, game, admin_key):
    """A cut's exactness is what it lifted: claimed exact, it would take the bonus off."""
    from domain.profile import resolve
    from tests.integration.records import finished_record
    record = finished_record(profile=resolve("liverpool"))
    cut = first(record["events"], "DeckCut")
    cut["data"]["exact"] = not cut["data"]["exact"]
    problem = assert_problem(import_(client, admin_key, record), 422)
    assert problem["detail"].startswith(f"event {cut['version']} (DeckCut)"), problem["detail"]
    assert_unchanged(client, game)


def test_r9_4_a_record_ending_with_other_winners_than_its_totals_is_a_422(client, game,
                                                                          admin_key):
    from tests.integration.records import finished_record
    record = finished_record()
    ended = record["events"][-1]
    assert ended["type"] == "GameEnded"
    ended["data"]["winners"] = [seat for seat in range(4)
                                if seat not in ended["data"]["winners"]][:1]
    problem = assert_problem(import_(client, admin_key, record), 422)
    # The refusal names the event that is wrong, not the scoring before it.
    assert problem["detail"].startswith(f"event {ended['version']} (GameEnded)"), problem
    assert "R9.4" in problem["detail"]
    assert_unchanged(client, game)


def _tampered(change, seed: int = 3, levels: tuple[str, ...] = ("basic",) * 4) -> dict:
    """A finished record with `change(events)` applied (it returns the changed event)."""
    from tests.integration.records import finished_record
    record = finished_record(seed=seed, levels=levels)
    changed = change(record["events"])
    return record, changed


def test_r10_4_a_record_played_on_past_its_profiles_turn_cap_is_a_422(client, game, admin_key):
    """The discard at the turn cap ends the round (R10.4): a record whose profile says so
    but plays on is refused at the first event after that discard, not imported."""
    def capped(events):
        events[0]["data"]["profile"]["max_turns_per_round"] = 1
        return next(e for e in events if e["type"] == "CardDiscarded")
    record, discard = _tampered(capped)
    problem = assert_problem(import_(client, admin_key, record), 422)
    assert problem["detail"].startswith(f"event {discard['version'] + 1} "), problem
    assert "RoundEnded" in problem["detail"]
    assert_unchanged(client, game)


def test_r6_4_a_record_offering_the_next_card_to_the_buyer_of_the_last_is_a_422(client, game,
                                                                             admin_key):
    """After a purchase the next card is offered to all but its buyer (R6.4): an OfferOpened
    that bars nobody keeps every card in place, yet is refused, as the purchase's decision
    makes it."""
    def unbarred(events):
        index = next(i for i, e in enumerate(events) if e["type"] == "CardBought"
                     and events[i + 1]["type"] == "OfferOpened")
        reopened = events[index + 1]
        assert reopened["data"]["barred"] == events[index]["data"]["seat"]
        reopened["data"]["barred"] = None
        return reopened
    record, reopened = _tampered(unbarred)
    problem = assert_problem(import_(client, admin_key, record), 422)
    assert problem["detail"].startswith(f"event {reopened['version']} (OfferOpened)"), problem
    assert_unchanged(client, game)


@pytest.mark.parametrize("cut", [50, 2, -1])
def test_a_record_whose_last_event_is_not_game_ended_is_a_422_and_creates_nothing(client, game,
                                                                                   admin_key,
                                                                                   cut):
    from tests.integration.records import finished_record
    record = finished_record()
    record["events"] = record["events"][:cut]
    record["version"] = len(record["events"])
    problem = assert_problem(import_(client, admin_key, record), 422)
    assert "finished" in problem["detail"] and "GameEnded" in problem["detail"]
    assert_unchanged(client, game)


def test_a_record_played_on_after_its_game_ended_is_a_422_naming_the_event(client, game,
                                                                           admin_key):
    """The newcomer tester's record: a GameEnded slipped in at version 4, the real play after
    it. The fold applies what it is given, so the copy said 'finished' in a replay at version
    10 and named other winners at the end (R9.4: nothing follows GameEnded)."""
    from tests.integration.records import finished_record
    record = finished_record()
    ended = {"type": "GameEnded", "schema": 1, "data": {"totals": [0] * 4, "winners": [0]}}
    record["events"].insert(3, {**record["events"][3], **ended})
    for version, event in enumerate(record["events"], 1):
        event["version"] = version
    record["version"] = len(record["events"])
    problem = assert_problem(import_(client, admin_key, record), 422)
    assert problem["detail"].startswith("event 5 (") and "event 4 (GameEnded)" in problem[
        "detail"], problem["detail"]
    assert_unchanged(client, game)


def tampered(change):
    from tests.integration.records import finished_record
    record = finished_record()
    change(record["events"])
    return record


def first(events, name):
    return next(e for e in events if e["type"] == name)


TAMPERED = {
    "a field the event does not have": lambda events: first(events, "RoundEnded")["data"].update(
        scores=[1, 2, 3, 4]),
    "a field missing": lambda events: first(events, "CardDiscarded")["data"].pop("card"),
    "a card not in the hand": lambda events: first(events, "CardDiscarded")["data"].update(
        card="JK=5C"),
    "a seat of the wrong type": lambda events: first(events, "CardDiscarded")["data"].update(
        seat="north"),
    "a schema newer than the code": lambda events: first(events, "CardDiscarded").update(
        schema=7),
}


@pytest.mark.parametrize("change", TAMPERED.values(), ids=TAMPERED.keys())
def test_a_tampered_record_is_a_422_naming_the_event_without_python_internals(client, game,
                                                                              admin_key, change):
    problem = assert_problem(import_(client, admin_key, tampered(change)), 422)
    assert problem["detail"].startswith(("event ", "The request is not valid")), problem
    for internal in ("__init__", "tuple.index", "KeyError", "TypeError", "got an unexpected"):
        assert internal not in problem["detail"], problem["detail"]
    assert_unchanged(client, game)


def openapi():
    from api.cli import openapi_document
    return openapi_document()


FORMAT_FIELDS = {"draw": ({"from"}, set()), "buy": (set(), {"card"}), "pass": (set(), {"card"}),
                 "open": ({"melds"}, set()), "lay_off": ({"meld", "card"}, {"end"}),
                 "swap_joker": ({"meld", "card", "joker_to"}, set()),
                 "discard": ({"card"}, {"shanghai"}), "claim": ({"meld"}, {"as", "end", "card"}),
                 "cut": ({"count"}, set())}


def test_the_documented_action_body_is_one_schema_per_type_with_its_fields_of_format_md():
    document = openapi()
    operation = document["paths"]["/v1/games/{game_id}/actions"]["post"]
    ref = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    assert ref == "#/components/schemas/Action"
    body = document["components"]["schemas"]["Action"]
    assert document["components"]["schemas"]["SeatView"]["properties"]["legal_actions"][
        "items"] == {"$ref": ref}, "legal actions are the union POST .../actions takes"
    mapping = body["discriminator"]["mapping"]
    assert body["discriminator"]["propertyName"] == "type"
    assert sorted(mapping) == sorted(FORMAT_FIELDS)
    assert sorted(r["$ref"] for r in body["oneOf"]) == sorted(mapping.values())
    for name, (required, optional) in FORMAT_FIELDS.items():
        schema = document["components"]["schemas"][mapping[name].rsplit("/", 1)[1]]
        assert schema["properties"]["type"]["enum"] == [name]
        assert set(schema["required"]) == required | {"type"}, name
        assert set(schema["properties"]) == required | optional | {"type"}, name
        assert schema["additionalProperties"] is False
    assert {"413", "422", "503"} <= set(operation["responses"])


def test_every_operation_that_reads_redis_documents_503_and_no_unused_component_is_left():
    document = openapi()
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if path not in ("/health", "/metrics") and isinstance(operation, dict):
                assert "503" in operation["responses"], (method, path)
    assert "PaginationMetadata" not in document["components"]["schemas"]


def test_the_event_feed_documents_every_event_type_and_its_data():
    from domain.events import EVENT_TYPES as DOMAIN_EVENT_TYPES
    from service.table_events import TABLE_EVENT_TYPES
    EVENT_TYPES = {**DOMAIN_EVENT_TYPES, **TABLE_EVENT_TYPES}  # noqa: N806 - the registries
    assert set(TABLE_EVENT_TYPES) >= {"PlayerSeated", "SpectatorAdded", "RematchCreated",
                                      "RematchOf", "SeatTokenIssued"}
    schemas = openapi()["components"]["schemas"]
    event = schemas["Event"]
    assert event["discriminator"]["propertyName"] == "type"
    assert list(event["discriminator"]["mapping"]) == list(EVENT_TYPES)
    for name in EVENT_TYPES:
        one = schemas[f"{name}Event"]
        assert one["properties"]["type"]["enum"] == [name]
        data = schemas[one["properties"]["data"]["$ref"].rsplit("/", 1)[1]]
        assert set(data["properties"]) >= set(EVENT_TYPES[name].__dataclass_fields__), name


@pytest.mark.parametrize("body", [{"type": "draw", "from": "stock", "card": "2C"},
                                  {"type": "discard", "card": "2C", "melds": [["2C"]]},
                                  {"type": "pass", "from": "stock"}])
def test_an_action_with_a_field_of_another_type_is_a_422(client, game, body):
    problem = assert_problem(act(client, game, body), 422)
    assert all(m == [f"Not a field of {body['type']}."] for m in problem["errors"]["json"].values())
    assert_unchanged(client, game)


def test_every_legal_action_of_a_view_is_a_body_the_document_accepts(client, game):
    from api.resources.actions.schemas import BY_TYPE
    token = active_token(client, game)
    view = act(client, game, {"type": "draw", "from": "discard"}).get_json()["view"]
    assert view["legal_actions"]
    for action in view["legal_actions"]:
        BY_TYPE[action["type"]]().load(action)
    assert client.get(f"/v1/games/{game['id']}/view", headers=bearer(token)).status_code == 200


@pytest.mark.parametrize("value", ["yes", "true", "1"])
def test_auto_start_takes_a_json_boolean_only(client, game, value):
    response = client.post("/v1/games", json={"seats": HUMANS, "auto_start": value})
    assert "auto_start" in assert_problem(response, 422)["detail"]
    assert_unchanged(client, game)


def test_an_unknown_game_id_is_not_echoed_whole(client):
    body = assert_problem(client.get("/v1/games/" + "a" * 3000), 404)
    assert len(body["detail"]) < 120


@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded"])
@pytest.mark.parametrize("path", ["/v1/games", "/v1/games/import", "/v1/games/{id}/actions"])
def test_a_json_body_without_its_content_type_is_a_415_naming_the_header(client, game, admin_key,
                                                                          path, content_type):
    # What `curl -d` or `requests.post(data=...)` send: the fields are there but untyped; read
    # as no body they would be refused as missing, naming neither the header nor the body.
    headers = {"X-Admin-Key": admin_key, **bearer(active_token(client, game))}
    if content_type is not None:
        headers["Content-Type"] = content_type
    response = client.post(path.format(id=game["id"]), data='{"seats": []}', headers=headers)
    problem = assert_problem(response, 415)
    assert problem["type"] == "/docs/problems#unsupported-media-type"
    assert "Content-Type: application/json" in problem["detail"]
    assert (content_type or "no Content-Type") in problem["detail"]
    assert_unchanged(client, game)


def test_a_json_content_type_with_parameters_is_json(client):
    response = client.post("/v1/games", data=json.dumps({"seats": HUMANS}),
                           headers={"Content-Type": "application/json; charset=utf-8"})
    assert response.status_code == 201, response.get_data(as_text=True)[:300]


def test_an_empty_body_is_read_as_no_body_not_as_a_media_type(client, game):
    # No body at all: its fields are missing (422), the Content-Type does not matter.
    response = client.post(f"/v1/games/{game['id']}/actions",
                           headers=bearer(active_token(client, game)))
    assert_problem(response, 422)
    assert_unchanged(client, game)


def test_415_is_documented_on_every_operation_with_a_json_body():
    from api.cli import openapi_document
    for path, item in openapi_document()["paths"].items():
        for method, operation in item.items():
            body = operation.get("requestBody") if isinstance(operation, dict) else None
            if "application/json" in (body or {}).get("content", {}):
                assert "415" in operation["responses"], (method, path)


@pytest.mark.parametrize("body", [{}, {"seed": 7}])
def test_a_wrong_admin_key_on_create_is_a_403_and_creates_nothing(client, game, body):
    response = client.post("/v1/games", json={"seats": HUMANS, **body},
                           headers={"X-Admin-Key": "not-the-server-admin-key"})
    problem = assert_problem(response, 403)
    assert "X-Admin-Key" in problem["detail"] and "not-the-server" not in problem["detail"]
    assert_unchanged(client, game)


def test_the_server_admin_key_on_create_still_gives_a_reproducible_seed(client, admin_key):
    made = [client.post("/v1/games", json={"seats": HUMANS, "seed": 7},
                        headers={"X-Admin-Key": admin_key}) for _ in range(2)]
    assert [r.status_code for r in made] == [201, 201]
    hands = [client.get(f"/v1/games/{r.get_json()['id']}/view",
                        headers=bearer(r.get_json()["seats"][0]["token"])).get_json()["hand"]
             for r in made]
    assert hands[0] == hands[1]


def test_an_import_retried_with_its_idempotency_key_imports_one_game(client, admin_key):
    """A retried import (a lost answer) gets the first answer, the same game and tokens; the
    key with another record is a 422, and a caller without the server admin key a 403."""
    from tests.integration.records import finished_record
    record, key = finished_record(seed=4), {"Idempotency-Key": "import-" + "7" * 32}
    server = {"X-Admin-Key": admin_key, **key}
    first = client.post("/v1/games/import", json=record, headers=server)
    again = client.post("/v1/games/import", json=record, headers=server)
    assert first.status_code == again.status_code == 201
    assert again.get_json() == first.get_json()
    listed = client.get("/v1/games?limit=100").get_json()["items"]
    assert sum(item["id"] == first.get_json()["id"] for item in listed) == 1
    other = finished_record(seed=5)
    assert_problem(client.post("/v1/games/import", json=other, headers=server), 422)
    assert_problem(client.post("/v1/games/import", json=record, headers=key), 403)


def test_r6_4_an_unbarred_offer_after_a_purchase_that_rebuilt_the_stock_is_a_422(client, game,
                                                                               admin_key):
    """The penalty card of a purchase came from a rebuilt stock (R10.1): the decision is made
    again with the record's own shuffle, so what follows it (the next offer, barring the
    buyer, R6.4) is compared too."""
    def unbarred_after_a_rebuild(events):
        index = next(i for i in range(2, len(events)) if events[i]["type"] == "OfferOpened"
                     and events[i - 1]["type"] == "CardBought"
                     and events[i - 2]["type"] == "StockRebuilt")
        events[index]["data"]["barred"] = None
        return events[index]
    record, reopened = _tampered(unbarred_after_a_rebuild, seed=1,
                                 levels=("random", "basic", "random", "basic"))
    problem = assert_problem(import_(client, admin_key, record), 422)
    assert problem["detail"].startswith(f"event {reopened['version']} (OfferOpened)"), problem
    assert_unchanged(client, game)


def test_r10_2_a_round_end_no_decision_makes_is_a_422(client, game, admin_key):
    """A round ends for want of a card only when the stock cannot be supplied (R10.2), as a
    decision makes it: one inserted before a draw, with the stock full, is refused."""
    def no_card_out_of_nowhere(events):
        index = next(i for i, e in enumerate(events) if e["type"] == "StockChosen")
        ended = {"type": "RoundEnded", "schema": 1,
                 "data": {"winner": None, "reason": "no_card"}}
        events.insert(index, ended)
        return ended
    record, ended = _tampered(no_card_out_of_nowhere)
    problem = assert_problem(import_(client, admin_key, _renumbered(record)), 422)
    assert problem["detail"].startswith(f"event {ended['version']} (RoundEnded)"), problem
    assert_unchanged(client, game)


def _between_decisions(events: list) -> int:
    """The index of an act that begins a decision (a draw choice) past the first deal: what
    comes before it is whole."""
    return next(i for i, e in enumerate(events) if i > 30 and e["type"] == "StockChosen")


@pytest.mark.parametrize("control, why", [
    ({"type": "TurnTimedOut", "schema": 1, "data": {"seat": 1}}, "T2"),      # no clock
    ({"type": "SeatTakenOver", "schema": 1,
      "data": {"seat": 1, "level": "basic", "reason": "timeouts"}}, "made only by a decision"),
    ({"type": "SeatReclaimed", "schema": 1, "data": {"seat": 1}}, "T3"),     # not taken over
])
def test_seat_control_no_rule_makes_there_is_a_422(client, game, admin_key, control, why):
    """A timeout, a takeover and a reclaim are decided again like a seat's acts (rules T2,
    T3): a record without a clock cannot time a seat out, a takeover for timeouts comes only
    with the timeout that makes it, and only a seat taken over is reclaimed."""
    from tests.integration.records import finished_record
    record = finished_record(seed=3)
    at = _between_decisions(record["events"])
    record["events"].insert(at, control)
    problem = assert_problem(import_(client, admin_key, _renumbered(record)), 422)
    assert problem["detail"].startswith(f"event {at + 1} ({control['type']})"), problem
    assert why in problem["detail"], problem
    assert_unchanged(client, game)


def test_a_second_game_created_within_a_record_is_a_422(client, game, admin_key):
    """Only a record's first event begins a game: a GameCreated further on would silently
    start the table again."""
    import copy

    from tests.integration.records import finished_record
    record = finished_record(seed=3)
    at = _between_decisions(record["events"])
    record["events"] = copy.deepcopy(record["events"][:at]) + record["events"]
    problem = assert_problem(import_(client, admin_key, _renumbered(record)), 422)
    assert problem["detail"].startswith(f"event {at + 1} (GameCreated)"), problem
    assert_unchanged(client, game)


def test_r11_19_a_cut_lifting_beyond_its_spread_is_a_422(client, game, admin_key):
    """A cut lifts its count give or take three cards (R11.19): a record asking for one card
    and lifting exactly the deal (the cut bonus) is refused at its DeckCut."""
    from domain import event_from_dict, event_to_dict, fold
    from domain.profile import resolve
    from tests.integration.records import finished_record
    record = finished_record(seed=3, profile=resolve("liverpool"))
    events = record["events"]
    index = next(i for i, e in enumerate(events) if e["type"] == "DeckCut")
    before = fold([event_from_dict(e) for e in events[:index]])
    deck, dealt = before.round.stock, before.seats * before.profile.deal_size(1)
    events[index]["data"].update(count=1, lifted=dealt, exact=True)
    turned = event_from_dict(events[index + 1])
    events[index + 1] = {**event_to_dict(type(turned)(
        round=turned.round, dealer=turned.dealer, deck=deck[dealt:] + deck[:dealt])),
        "version": index + 2}
    problem = assert_problem(import_(client, admin_key, record), 422)
    assert problem["detail"].startswith(f"event {index + 1} (DeckCut)"), problem
    assert_unchanged(client, game)


@pytest.mark.parametrize("url", ["http://user:pw@127.0.0.1:9/hooks",
                                 "https://user@hooks.example/x"])
def test_a_webhook_url_carrying_a_user_or_password_is_a_422(client, game, url):
    """A game's webhook URL is listed with its deliveries: a password in it would be shown."""
    problem = assert_problem(client.post("/v1/games", json={"seats": HUMANS, "webhook_url": url}),
                             422)
    assert "no user or password" in json.dumps(problem["errors"])
    assert_unchanged(client, game)
