"""The drifts schemathesis found between openapi.yaml and the server (issue 7 item 7), each
settled over HTTP: what the document allows the server takes, and what the server refuses
the document says it refuses."""
import re

import pytest

from api.cli import openapi_document
from domain.profile import RuleProfile
from tests.integration.api_client import (  # noqa: F401 (fixtures)
    HUMANS, PROBLEM, active_token, app, bearer, client, game)

DOCUMENT = openapi_document()
SCHEMAS = DOCUMENT["components"]["schemas"]


def parameter(path: str, method: str, name: str) -> dict:
    return next(p for p in DOCUMENT["paths"][path][method]["parameters"] if p["name"] == name)


def test_the_import_path_is_not_taken_for_a_game_id(client):
    got = client.get("/v1/games/import")
    assert got.status_code == 405 and got.content_type == PROBLEM
    allowed = {method.strip() for method in got.headers["Allow"].split(",")}
    assert allowed == {"POST", "OPTIONS"}
    options = client.options("/v1/games/import").headers["Allow"]
    assert {method.strip() for method in options.split(",")} == {"POST", "OPTIONS"}
    assert set(DOCUMENT["paths"]["/v1/games/import"]) == {"post"}
    assert client.get("/v1/games/importer").get_json()["type"] == "/docs/problems#game-not-found"


@pytest.mark.parametrize("value", ['"3"', "3", 'W/"3"', "*", '"_,p"', "3, 4", '"3", "4"',
                                   "abc", '"-1"', "1" * 19, "", " "])
def test_if_match_is_refused_exactly_when_the_document_does_not_allow_it(client, game, value):
    pattern = parameter("/v1/games/{game_id}/actions", "post", "If-Match")["schema"]["pattern"]
    answer = client.post(f"/v1/games/{game['id']}/actions", json={"type": "draw", "from": "stock"},
                         headers={**bearer(active_token(client, game)), "If-Match": value})
    allowed = re.fullmatch(pattern.strip("^$"), value) is not None
    assert (answer.status_code != 400) == allowed, (answer.status_code, answer.get_json())


def test_the_profile_object_documents_every_option_and_no_other():
    documented = next(s for s in SCHEMAS["CreateGame"]["properties"]["profile"]["oneOf"]
                      if s.get("type") == "object")
    assert documented["additionalProperties"] is False
    assert set(documented["properties"]) == set(RuleProfile().to_json()) | {"preset"}
    for name, schema in documented["properties"].items():
        assert schema["description"].startswith("R1"), name  # names its rule
        assert "default" in schema and ("enum" in schema or "type" in schema), name


def test_a_profile_the_document_allows_is_played_and_another_option_is_a_documented_422(client):
    options = {name: schema["enum"][0] for name, schema in next(
        s for s in SCHEMAS["CreateGame"]["properties"]["profile"]["oneOf"]
        if s.get("type") == "object")["properties"].items() if "enum" in schema}
    made = client.post("/v1/games", json={"seats": HUMANS, "profile": {
        **options, "max_turns_per_round": 77}})
    assert made.status_code == 201, made.get_json()
    refused = client.post("/v1/games", json={"seats": HUMANS, "profile": {"jokers": 9}})
    assert refused.status_code == 422
    problem = refused.get_json()
    assert problem["type"] == "/docs/problems#unsupported-profile"
    assert (problem["option"], problem["rule"]) == ("jokers", "R11.3")


@pytest.mark.parametrize(("where", "text"), [
    (("SeatSpec", "level"), "a human seat with a level is a 422"),
    (("GameListArgs", "cursor"), "not give is a 422"),
    (("ReplayArgs", "version"), "a later one is a 422"),
])
def test_the_422s_the_server_rightly_gives_are_documented(where, text):
    schema, field = where
    if schema in SCHEMAS:
        description = SCHEMAS[schema]["properties"][field]["description"]
    else:  # query arguments are parameters, not components
        path = "/v1/games" if schema == "GameListArgs" else "/v1/games/{game_id}/replay"
        description = parameter(path, "get", field)["description"]
    assert text in description


def test_those_422s(client, game):
    human_level = client.post("/v1/games", json={"seats": [{"kind": "human", "level": "basic"}]
                                                 + HUMANS[1:]})
    assert human_level.status_code == 422 and "level" in human_level.get_json()["detail"]
    assert client.get("/v1/games?cursor=0").status_code == 422
    assert client.get(f"/v1/games/{game['id']}/replay?version={2**53 - 2}").status_code == 422


def test_a_replay_needs_exactly_one_of_version_and_at_as_its_document_says(client, game):
    for name in ("version", "at"):
        assert "Exactly one of `version` and `at` is required" in parameter(
            "/v1/games/{game_id}/replay", "get", name)["description"]
    for query in ("", "?version=1&at=2100-01-01T00:00:00.000Z"):
        got = client.get(f"/v1/games/{game['id']}/replay{query}")
        assert got.status_code == 422 and got.content_type == PROBLEM


@pytest.mark.parametrize("path", ["/v1/games//view", "/v1/games//actions"])
def test_an_empty_path_segment_is_a_404_problem_not_a_redirect(client, path):
    got = client.open(path, method="GET" if path.endswith("view") else "POST", json={})
    assert got.status_code == 404 and got.content_type == PROBLEM
