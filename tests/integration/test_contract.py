"""The typed document (issue 9): operationIds, Idempotency-Key, the event and action unions
checked against what the server really sends, problem types that resolve to the service's
own pages."""
import functools
import json
import re

import pytest
from openapi_schema_validator import OAS30Validator

from api import create_app
from api.cli import openapi_document
from api.problems import PROBLEM_TYPES
from domain.profile import resolve
from tests.integration.records import finished_record
from tests.integration.test_claim_answers import POSITION as CLAIM_POSITION

DOCUMENT = openapi_document()
OPERATIONS = [(path, method, op) for path, item in DOCUMENT["paths"].items()
              for method, op in item.items() if method != "parameters"]
# POSTs that take no Idempotency-Key: a stream ticket changes nothing.
NOT_IDEMPOTENT = {"create_stream_ticket"}
HUMANS = [{"kind": "human", "name": n} for n in ("ann", "bob", "cy", "di")]


@functools.cache
def validator(component: str) -> OAS30Validator:
    """A validator of the document's component ``component``, reading OpenAPI 3.0.3 strictly
    as openapi-core does (``nullable`` admits null only beside a ``type``, §4.7.24): what a
    third-party client validating our answers sees."""
    return OAS30Validator({"$ref": f"#/components/schemas/{component}",
                           "components": DOCUMENT["components"]})


def _nullable_schemas(schema, path=()):
    """``(path, schema)`` of every schema in ``schema`` that says ``nullable: true``."""
    if isinstance(schema, dict):
        if schema.get("nullable"):
            yield "/".join(map(str, path)), schema
        for key, value in schema.items():
            yield from _nullable_schemas(value, path + (key,))
    elif isinstance(schema, list):
        for index, value in enumerate(schema):
            yield from _nullable_schemas(value, path + (index,))


def test_every_schema_that_says_nullable_admits_null_read_strictly():
    refusing = [path for path, schema in _nullable_schemas(DOCUMENT)
                if not OAS30Validator({**schema, "components": DOCUMENT["components"]})
                .is_valid(None)]
    assert refusing == []
    # The nullable references say it too, and still refuse what their component refuses.
    phase = DOCUMENT["components"]["schemas"]["SeatView"]["properties"]["phase"]
    read = OAS30Validator({**phase, "components": DOCUMENT["components"]})
    assert read.is_valid(None) and read.is_valid("draw") and not read.is_valid("nap")


@pytest.fixture
def client(service):
    return create_app({"RUMMY_SERVICE": service, "TESTING": True,
                       "RUMMY_RATE_LIMITS": "off"}).test_client()


def test_every_operation_has_a_unique_operation_id():
    ids = [op.get("operationId") for _, _, op in OPERATIONS]
    assert None not in ids and len(set(ids)) == len(ids), ids
    assert {"create_game", "get_seat_view", "post_action", "list_events", "get_health",
            "stream_events", "get_replay"} <= set(ids)


# Field names whose values are a closed set wherever they appear (GameAborted's `reason` is an
# admin's free text, a profile's `source` a document's name).
CLOSED_SETS = {"kind", "level", "levels", "open", "takeover_level", "status", "phase", "opened",
               "end", "joker_end", "reason", "source", "by", "visibility", "preset", "type"}
OPEN_SETS = {("GameAbortedData", "reason"), ("Profile", "source")}


def _is_enum(schema: dict) -> bool:
    """Whether a property schema is an enum: inline, by a (nullable) reference, or per item."""
    if "items" in schema:
        return _is_enum(schema["items"])
    ref = schema.get("$ref") or next((s["$ref"] for s in schema.get("oneOf", [])
                                      + schema.get("allOf", []) if "$ref" in s), None)
    if ref is not None:
        return "enum" in DOCUMENT["components"]["schemas"][ref.rsplit("/", 1)[1]]
    return "enum" in schema or schema.get("type") not in (None, "string")


def test_every_closed_set_of_strings_is_an_enum():
    loose = [(name, field) for name, component in DOCUMENT["components"]["schemas"].items()
             for field, schema in component.get("properties", {}).items()
             if field in CLOSED_SETS and (name, field) not in OPEN_SETS and not _is_enum(schema)]
    assert not loose


def test_every_operation_acting_for_a_players_seat_declares_the_player_headers():
    """Generated clients send only declared headers: where a seat token and the integration
    key are both accepted, X-Player-Id and X-Seat are parameters; creation and joins take
    X-Player-Id (docs/players.md)."""
    for path, method, op in OPERATIONS:
        schemes = {name for requirement in op.get("security", []) for name in requirement}
        headers = {p["name"] for p in op.get("parameters", []) if p["in"] == "header"}
        if {"bearerAuth", "integrationKey"} <= schemes:
            assert {"X-Player-Id", "X-Seat"} <= headers, (path, method)
            assert "422" in op["responses"], (path, method)   # X-Seat wanted or wrong
        elif op["operationId"] in ("create_game", "join_game"):
            assert "X-Player-Id" in headers and "X-Seat" not in headers, op["operationId"]
        else:
            assert not headers & {"X-Player-Id", "X-Seat"}, (path, method)


def test_every_post_that_honours_an_idempotency_key_declares_it():
    for path, method, op in OPERATIONS:
        names = [p["name"] for p in op.get("parameters", [])]
        if method == "post" and op["operationId"] not in NOT_IDEMPOTENT:
            assert "Idempotency-Key" in names, path
        else:
            assert "Idempotency-Key" not in names, path


def test_a_declared_idempotency_key_is_checked_on_every_operation_that_takes_it(client,
                                                                                admin_key):
    created = client.post("/v1/games", json={"seats": HUMANS, "seed": 3}).get_json()
    token = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
    admin_only = {"/v1/games/import": {"X-Admin-Key": admin_key}}  # others: 403 first
    for path, method, op in OPERATIONS:
        if "Idempotency-Key" not in [p["name"] for p in op.get("parameters", [])]:
            continue
        url = path.replace("{game_id}", created["id"]).replace("{seat}", "0")
        got = client.post(url, json={"type": "draw", "from": "stock"},
                          headers={**admin_only.get(path, token), "Idempotency-Key": "k" * 201})
        assert got.status_code == 422, path
        assert "Idempotency-Key" in got.get_json()["errors"]["headers"], path


# The standard game, and the presets whose events or phases it never shows: Shanghai's
# further penalty cards (R11.10), Liverpool's shuffle and cut (R11.19). Shanghai's claims
# (R11.18), which bots seldom open, are played from a position below.
PRESETS_PLAYED = {"standard": ("basic",) * 4, "shanghai": ("strong",) * 4,
                  "liverpool": ("basic",) * 4}


@pytest.fixture(params=list(PRESETS_PLAYED))
def finished(client, admin_key, request):
    record = finished_record(seed=1, levels=PRESETS_PLAYED[request.param],
                             profile=resolve(request.param))
    created = client.post("/v1/games/import", json=record,
                          headers={"X-Admin-Key": admin_key}).get_json()
    return {**created, "preset": request.param, "record": record}


def test_every_event_each_caller_reads_is_its_documented_event_type(client, finished, admin_key):
    union = validator("Event")
    callers = [{}, {"X-Admin-Key": admin_key},
               {"Authorization": f"Bearer {finished['admin_token']}"}] + [
        {"Authorization": f"Bearer {s['token']}"} for s in finished["seats"]]
    for headers in callers:
        events = client.get(f"/v1/games/{finished['id']}/events?limit=5000", headers=headers).get_json()
        assert len(events["events"]) == finished["version"]
        seen = set()
        for event in events["events"]:
            validator(f"{event['type']}Event").validate(event)
            if event["type"] not in seen:  # the union (a oneOf of 23) once per type: slow
                union.validate(event)
                seen.add(event["type"])


CUSTOM = {"contracts": [["group", "group"], ["group", {"kind": "run", "min": 3}]],
          "deal_sizes": [7, 7], "wild_twos": True, "buying_from_round": 2}


@pytest.mark.parametrize("profile", ["standard", "first_game", "shanghai", "liverpool",
                                     "eight_deals", CUSTOM])
def test_a_game_created_event_is_its_documented_type_under_every_profile(client, profile):
    game = client.post("/v1/games", json={"seats": HUMANS, "profile": profile}).get_json()
    created = client.get(f"/v1/games/{game['id']}/events").get_json()["events"][0]
    assert created["type"] == "GameCreated" and created["data"]["profile"]["players"] == 4
    validator("GameCreatedEvent").validate(created)  # the profile is typed, every option


@pytest.mark.parametrize("caller", ["admin", "seat"])  # whole events, and redacted ones
def test_every_server_sent_event_carries_its_documented_event_as_data(client, finished,
                                                                     admin_key, caller):
    headers = ({"X-Admin-Key": admin_key} if caller == "admin"
               else {"Authorization": f"Bearer {finished['seats'][1]['token']}"})
    stream = client.get(f"/v1/games/{finished['id']}/stream", headers=headers)
    messages = [dict(line.split(": ", 1) for line in block.splitlines())
                for block in stream.get_data(as_text=True).split("\n\n") if "data: " in block]
    assert len(messages) == finished["version"]
    documented = DOCUMENT["components"]["schemas"]["ServerSentEvent"]["properties"]["data"]
    assert documented["x-contentSchema"] == {"$ref": "#/components/schemas/Event"}
    for message in messages:
        event = json.loads(message["data"])
        validator(f"{event['type']}Event").validate(event)
        assert (message["id"], message["event"]) == (str(event["version"]), event["type"])


@pytest.mark.parametrize("finished", ["liverpool"], indirect=True)  # the preset that cuts
def test_a_replay_in_the_cut_phase_is_the_documented_type(client, finished):
    seat = {"Authorization": f"Bearer {finished['seats'][0]['token']}"}
    shuffles = [e["version"] for e in finished["record"]["events"] if e["type"] == "DeckShuffled"]
    assert len(shuffles) == 7   # one cut a round
    for version in shuffles[:3]:
        for headers in ({}, seat):
            replay = client.get(f"/v1/games/{finished['id']}/replay?version={version}",
                                headers=headers).get_json()
            assert replay["phase"] == replay["awaiting"]["phase"] == "cut"
            validator("Replay").validate(replay)


def test_a_claim_its_phase_and_its_hidden_card_are_the_documented_types(client, admin_key):
    game = client.post("/v1/games", json={"seats": HUMANS, "position": CLAIM_POSITION},
                       headers={"X-Admin-Key": admin_key}).get_json()
    tokens = [{"Authorization": f"Bearer {s['token']}"} for s in game["seats"]]
    url = f"/v1/games/{game['id']}"
    for headers in [{}] + tokens:
        view = client.get(url + ("/view" if headers else ""), headers=headers).get_json()
        assert view["phase"] == view["awaiting"]["phase"] == "claim"
        validator("SeatView" if headers else "Table").validate(view)
    claimed = client.post(f"{url}/actions", headers=tokens[2],
                          json={"type": "claim", "meld": 0, "card": "7S"})
    assert claimed.status_code == 200, claimed.get_json()
    for headers in [{}, {"X-Admin-Key": admin_key}] + tokens:
        events = client.get(f"{url}/events", headers=headers).get_json()["events"]
        given = [e["data"]["given"] for e in events if e["type"] == "CardClaimed"]
        assert len(given) == 1 and (given[0] is None) == (headers in ({}, tokens[0], tokens[3]))
        for event in events:
            validator(f"{event['type']}Event").validate(event)


def test_an_event_with_a_field_its_type_does_not_have_is_refused_by_the_document():
    event = {"version": 9, "type": "CardDiscarded", "schema": 1,
             "data": {"seat": 1, "card": "4D", "hand": ["5H"]}, "recorded_at": None}
    assert not validator("Event").is_valid(event)
    assert validator("Event").is_valid({**event, "data": {"seat": 1, "card": "4D"}})


def test_a_live_seat_view_and_its_legal_actions_are_the_documented_types(client):
    created = client.post("/v1/games", json={"seats": HUMANS, "seed": 3}).get_json()
    for seat in created["seats"]:
        view = client.get(f"/v1/games/{created['id']}/view",
                          headers={"Authorization": f"Bearer {seat['token']}"}).get_json()
        validator("SeatView").validate(view)
        for action in view["legal_actions"]:
            validator("Action").validate(action)


def test_a_problem_type_is_a_page_of_the_service_listing_it(client):
    page = client.get("/docs/problems")
    assert page.status_code == 200 and page.mimetype == "text/html"
    for slug in PROBLEM_TYPES:
        assert f'id="{slug}"' in page.text, slug
    problem = client.get("/v1/games/nope").get_json()
    path, _, anchor = problem["type"].partition("#")
    assert client.get(path).status_code == 200 and f'id="{anchor}"' in page.text
    assert problem["type"] in DOCUMENT["components"]["schemas"]["Problem"]["properties"]["type"][
        "enum"]


def test_a_rule_violation_links_to_its_rule_on_the_rules_page(client):
    created = client.post("/v1/games", json={"seats": HUMANS, "seed": 3}).get_json()
    table = client.get(f"/v1/games/{created['id']}").get_json()
    idle = next(s for s in created["seats"] if s["seat"] != table["turn"])
    refused = client.post(f"/v1/games/{created['id']}/actions",
                          json={"type": "draw", "from": "stock"},
                          headers={"Authorization": f"Bearer {idle['token']}"}).get_json()
    assert refused["rule"] == "R2.4" and refused["rule_url"] == "/docs/rules#r2-4"
    rules = client.get("/docs/rules").text
    assert 'id="r2-4"' in rules


def test_an_unsupported_profile_links_to_its_rule_on_the_rules_page(client):
    refused = client.post("/v1/games", json={"seats": HUMANS, "profile": {"jokers": -1}})
    assert refused.status_code == 422, refused.get_json()
    problem = refused.get_json()
    assert problem["rule"] == "R11.3" and problem["rule_url"] == "/docs/rules#r11-3"
    assert 'id="r11-3"' in client.get("/docs/rules").text


def test_every_problem_status_response_of_an_operation_lists_its_problem_types():
    responses = DOCUMENT["components"]["responses"]
    for path, method, op in OPERATIONS:
        for status, response in op["responses"].items():
            if status[0] not in "45":
                continue
            name = (response.get("$ref") or "").rsplit("/", 1)[1]
            listed = responses[name]["description"]
            for kind in PROBLEM_TYPES.values():
                if int(status) in kind.statuses:
                    assert f"[`{kind.slug}`](/docs/problems#{kind.slug})" in listed, (
                        path, status, kind.slug)


def test_every_problem_the_code_raises_is_listed():
    import pathlib
    root = pathlib.Path(__file__).resolve().parents[2] / "api"
    raised = set()
    for source in root.rglob("*.py"):
        raised |= set(re.findall(r'(?:problem|ApiProblem)\(\s*\w+,\s*"([a-z-]+)"',
                                 source.read_text()))
    assert raised and raised <= set(PROBLEM_TYPES), raised - set(PROBLEM_TYPES)
