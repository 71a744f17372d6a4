"""Schemathesis over the in-process app on a real Redis: no server error, and every response
conforms to openapi.yaml (status code, content type, headers, body schema)."""
import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import (content_type_conformance, not_a_server_error,
                                 response_headers_conformance, response_schema_conformance,
                                 status_code_conformance)

from api import create_app
from api.cli import openapi_document

SCHEMA = schemathesis.openapi.from_dict(openapi_document())
OPERATIONS = [result.ok() for result in SCHEMA.get_all_operations()]
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_headers_conformance, response_schema_conformance]
MAX_EXAMPLES = 60
SEATS = [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"},
         {"kind": "bot", "level": "basic"}, {"kind": "human"}]


@pytest.fixture
def app(service):
    return create_app({"RUMMY_SERVICE": service, "TESTING": True, "RUMMY_RATE_LIMITS": "off",
                       "RUMMY_MAX_WAIT_S": 0.05,
                       "RUMMY_SSE_MAX_S": 0.1, "RUMMY_SSE_HEARTBEAT_S": 0.05})


@pytest.fixture
def callers(app, admin_key):
    """Header sets to call with: nobody, each seat, the game's admin, the server admin key."""
    created = app.test_client().post("/v1/games", json={"seats": SEATS, "seed": 11}).get_json()
    tokens = [s["token"] for s in created["seats"] if "token" in s] + [created["admin_token"]]
    headers = [{}] + [{"Authorization": f"Bearer {t}"} for t in tokens]
    return created["id"], headers + [{"X-Admin-Key": admin_key}]


# Negative data (out-of-schema values) only where the document constrains something.
RUNS = [(op, GenerationMode.POSITIVE) for op in OPERATIONS] + [
    (op, GenerationMode.NEGATIVE) for op in OPERATIONS if len(op.query) or len(op.body)]


@pytest.mark.parametrize(("operation", "mode"), RUNS,
                         ids=[f"{op.label} {mode.value}" for op, mode in RUNS])
def test_every_response_conforms_to_the_document(operation, mode, app, callers):
    game_id, header_sets = callers

    @settings(max_examples=MAX_EXAMPLES, deadline=None, database=None,
              phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))
    @given(case=operation.as_strategy(mode), headers=st.sampled_from(header_sets),
           existing_game=st.booleans())
    def run(case, headers, existing_game):
        if existing_game and "game_id" in (case.path_parameters or {}):
            case.path_parameters["game_id"] = game_id
        # Flask's test client does not undo gzip (api.compression): ask for none here; the
        # live run (tests/e2e/test_schemathesis_live.py) reads gzipped answers over HTTP.
        response = case.call(app=app, headers={**headers, "Accept-Encoding": "identity"})
        case.validate_response(response, checks=CHECKS, headers=headers)

    run()
