"""Schemathesis against a live gunicorn (issue 7 item 7): the document it serves
(`/openapi.json`, the same as openapi.yaml) is what the server does, for a seat and an admin.

Stateful: schemathesis follows the document's OpenAPI links (a created game -> its table, view,
events, replay, export; a seat's view -> an action with one of its legal actions and the
view's ETag as If-Match -> the view again), so it plays real moves, not only 404s. Requests
without an Authorization header from a link carry a seat token of a game made for the run.
Bounded: few examples and steps (well under a minute on a quiet machine)."""
from __future__ import annotations

import hypothesis
import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, Phase
from schemathesis import GenerationMode
from schemathesis.checks import (content_type_conformance, not_a_server_error,
                                 response_headers_conformance, response_schema_conformance,
                                 status_code_conformance)

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_headers_conformance, response_schema_conformance]
HUMANS = [{"kind": "human", "name": f"Seat {n}"} for n in range(4)]
STATEFUL = hypothesis.settings(max_examples=15, stateful_step_count=8, deadline=None,
                               database=None, derandomize=True, phases=[Phase.generate],
                               suppress_health_check=list(HealthCheck))


@pytest.fixture(scope="module")
def e2e_env(e2e_env):
    """The e2e environment with short long polls and streams: the walk does not wait on them."""
    return {**e2e_env, "RUMMY_MAX_WAIT_S": "0.2", "RUMMY_SSE_MAX_S": "0.5",
            "RUMMY_SSE_HEARTBEAT_S": "0.2"}


@pytest.fixture(scope="module")
def live_schema(api_url):
    """The document the live server serves, bound to it; positive data only (what the
    document allows: the walk goes on from answers, not refusals)."""
    schema = schemathesis.openapi.from_url(f"{api_url}/openapi.json", wait_for_schema=10)
    schema.config.generation.update(modes=[GenerationMode.POSITIVE], with_security_parameters=False)
    return schema


@pytest.fixture(scope="module")
def seat_tokens(api_url) -> dict[str, dict[int, str]]:
    """Seat tokens by game id: a game of four humans made for the run (more are added as the
    walk creates games)."""
    game = requests.post(f"{api_url}/v1/games", json={"seats": HUMANS}, timeout=10).json()
    return {game["id"]: {s["seat"]: s["token"] for s in game["seats"] if "token" in s}}


def test_the_document_has_links_to_follow(live_schema):
    links = [link for path in live_schema.raw_schema["paths"].values()
             for op in path.values() if isinstance(op, dict)
             for response in op.get("responses", {}).values()
             for link in response.get("links", {})]
    assert len(links) >= 6, links


def test_stateful_walks_conform_to_the_document(api_url, live_schema, seat_tokens):
    fixture_game = next(iter(seat_tokens))
    calls: list[tuple[str, str, int]] = []

    # The walk's dead ends are left to the per-operation test: the import (the server admin
    # key), the SSE stream, and the operational endpoints.
    walked = live_schema.exclude(path_regex=r"/(import|stream)$|^/(health|ready|metrics)$")

    class Walk(walked.as_state_machine()):
        def get_call_kwargs(self, case):
            """A seat token of the game in the path whose move it is (else of the run's game),
            unless a link set the Authorization header."""
            if "authorization" in {name.lower() for name in case.headers or {}}:
                return {"timeout": 10}
            game_id = (case.path_parameters or {}).get("game_id")
            tokens = seat_tokens.get(game_id) or seat_tokens[fixture_game]
            table = requests.get(f"{api_url}/v1/games/{game_id or fixture_game}", timeout=10)
            awaited = table.json()["awaiting"]["seats"] if table.status_code == 200 else []
            token = next((tokens[s] for s in awaited if s in tokens), next(iter(tokens.values())))
            return {"headers": {"Authorization": f"Bearer {token}"}, "timeout": 10}

        def after_call(self, response, case):
            super().after_call(response, case)
            if case.method == "POST" and case.path == "/v1/games" and response.status_code == 201:
                created = response.json()
                seat_tokens[created["id"]] = {s["seat"]: s["token"] for s in created["seats"]
                                              if "token" in s}
            calls.append((case.method, case.path, response.status_code))

        def validate_response(self, response, case, additional_checks=None, **kwargs):
            case.validate_response(response, checks=CHECKS)

    Walk.run(settings=STATEFUL)
    # The walk reached real games through the links (a game id from a list or a creation),
    # not only 404s for generated ids.
    assert any(path.startswith("/v1/games/{game_id}") and status == 200
               for _, path, status in calls), calls


def test_every_operation_conforms_with_a_seat_token(live_schema, seat_tokens):
    token = next(iter(next(iter(seat_tokens.values())).values()))
    headers = {"Authorization": f"Bearer {token}"}
    for result in live_schema.get_all_operations():
        operation = result.ok()

        @hypothesis.settings(max_examples=4, deadline=None, database=None,
                             phases=[Phase.explicit, Phase.generate],
                             suppress_health_check=list(HealthCheck))
        @hypothesis.given(case=operation.as_strategy())
        def run(case):
            response = case.call(headers=headers, timeout=10)
            case.validate_response(response, checks=CHECKS, headers=headers)

        run()
