"""What a large invalid body costs the server and its caller (api.field_errors, api.parsing):
a 422 lists at most 20 fields whatever the body, and a route whose bodies are a few hundred
bytes reads at most 64 KiB (413 beyond); only an import, with the server admin key, reads
more."""
import json

import pytest

from api.field_errors import SHOWN, bounded
from api.parsing import SMALL_BODY_BYTES
from tests.integration.api_client import (  # noqa: F401 (fixtures)
    PROBLEM, active_token, app, bearer, client, game)


def flood(base: dict, size: int) -> str:
    """``base`` with unknown fields `k0`, `k1`, ... up to about ``size`` bytes of JSON."""
    extra = {f"k{i}": 0 for i in range(size // 10)}
    return json.dumps({**base, **extra})[:size - 2].rsplit(",", 1)[0] + "}"


def post(client, url, text, **headers):
    return client.post(url, data=text, content_type="application/json", headers=headers)


def test_the_field_errors_of_a_422_are_the_first_few_with_a_count_of_the_rest(client, game):
    text = flood({"type": "draw", "from": "stock"}, SMALL_BODY_BYTES - 100)
    fields = len(json.loads(text)) - 2
    response = post(client, f"/v1/games/{game['id']}/actions", text,
                    **bearer(active_token(client, game)))
    assert response.status_code == 422 and response.content_type == PROBLEM
    assert len(response.get_data()) < 4096
    problem = response.get_json()
    assert len(problem["errors"]["json"]) == SHOWN
    assert all(name.startswith("k") for name in problem["errors"]["json"])
    assert problem["errors_omitted"] == fields - SHOWN
    assert problem["detail"].endswith(f"(and {fields - 3} more).")


def test_a_few_field_errors_are_all_listed_without_a_count():
    errors, omitted, detail = bounded({"json": {"seats": {"0": {"kind": ["Bad."]}},
                                                "seed": ["Bad too."]}})
    assert errors == {"json": {"seats": {"0": {"kind": ["Bad."]}}, "seed": ["Bad too."]}}
    assert omitted == 0 and detail == ("The request is not valid: seats.0.kind: Bad.; "
                                       "seed: Bad too.")


def test_long_field_names_and_messages_are_cut():
    errors, _, _ = bounded({"json": {"x" * 10_000: ["y" * 10_000]}})
    assert len(json.dumps(errors)) < 300


@pytest.mark.parametrize("path", ["/v1/games/{id}/actions", "/v1/games/join", "/v1/games",
                                  "/v1/games/{id}/spectators"])
def test_a_body_over_64_kib_is_a_413_on_a_route_of_small_bodies(client, game, path):
    text = flood({"type": "draw", "from": "stock"}, SMALL_BODY_BYTES + 1000)
    assert len(text) > SMALL_BODY_BYTES
    response = post(client, path.format(id=game["id"]), text,
                    **bearer(active_token(client, game)))
    assert response.status_code == 413 and response.content_type == PROBLEM
    assert str(SMALL_BODY_BYTES) in response.get_json()["detail"]


def test_an_import_without_the_admin_key_is_refused_before_its_body_is_read(client):
    response = post(client, "/v1/games/import", flood({}, 1024 * 1024))
    assert response.status_code == 403 and response.content_type == PROBLEM


def test_an_import_with_the_admin_key_reads_a_large_body(client, admin_key):
    response = post(client, "/v1/games/import", flood({}, 1024 * 1024),
                    **{"X-Admin-Key": admin_key})
    assert response.status_code == 422 and response.get_json()["errors_omitted"] > 0


@pytest.mark.parametrize("headers", [{}, bearer("junk")])
def test_an_action_without_a_credential_is_a_401_before_its_body_is_validated(client, game,
                                                                              headers):
    text = flood({"type": "draw", "from": "stock"}, 10_000)
    response = post(client, f"/v1/games/{game['id']}/actions", text, **headers)
    assert response.status_code == 401 and response.content_type == PROBLEM
    unknown = post(client, f"/v1/games/{'f' * 16}/actions", text, **headers)
    assert unknown.status_code == 404


def test_an_action_with_a_token_that_has_no_seat_is_a_403_before_its_body_is_validated(client,
                                                                                        game):
    """The game's admin token plays no seat: refused as a valid body would be (403), not
    with a 422 about a body it could never have played."""
    text = flood({"type": "draw", "from": "stock"}, 10_000)
    response = post(client, f"/v1/games/{game['id']}/actions", text,
                    **bearer(game["admin_token"]))
    assert response.status_code == 403 and response.content_type == PROBLEM
