"""Seat names over HTTP (issue 7 item 6): NFC-normalised, trimmed, 1 to 40 characters, no
control character, lone surrogate or bidi control; anything else is a 422 problem naming the
field, and no game is created. The names are raw JSON text, so escapes such as \\ud800 (a
lone surrogate) reach the server as a client would send them."""
import json
import unicodedata

import pytest

from tests.integration.api_client import PROBLEM, app, client  # noqa: F401 (fixtures)

OTHERS = ', {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}'


def create(client, name_json: str):
    """POST /v1/games with seat 0 a human called `name_json` (a JSON string literal)."""
    body = '{"seats": [{"kind": "human", "name": ' + name_json + "}" + OTHERS + "]}"
    return client.post("/v1/games", data=body, content_type="application/json")


def games(client) -> list:
    return client.get("/v1/games").get_json()["items"]


REFUSED = {
    "lone high surrogate": r'"Ann\ud800"',
    "lone low surrogate": r'"\udc00Ann"',
    "NUL": r'"Ann\u0000"',
    "CR LF": r'"Ann\r\nSet-Cookie: x"',
    "LF": r'"A\nB"',
    "tab": r'"A\tB"',
    "DEL": r'"A\u007fB"',
    "C1 control": r'"A\u0085B"',
    "right-to-left override": r'"Ann\u202egnp.exe"',
    "left-to-right embedding": r'"\u202aAnn"',
    "pop directional formatting": r'"Ann\u202c"',
    "right-to-left isolate": r'"\u2067Ann"',
    "pop directional isolate": r'"Ann\u2069"',
    "only spaces": '"   "',
    "only unicode whitespace": r'"\u00a0\u2003\u3000"',
    "empty": '""',
    "41 characters": json.dumps("x" * 41),
    "41 characters after NFC": json.dumps("e\u0301" * 41),
    "not a string": "7",
}


@pytest.mark.parametrize("name_json", REFUSED.values(), ids=REFUSED.keys())
def test_a_name_outside_the_rule_is_a_422_naming_the_field(client, name_json):
    response = create(client, name_json)
    assert response.status_code == 422, response.get_data(as_text=True)
    assert response.content_type == PROBLEM
    problem = response.get_json()
    assert "seats.0.name" in problem["detail"]
    assert problem["errors"]["json"]["seats"]["0"]["name"]
    assert games(client) == []


ACCEPTED = {
    "plain": ('"Ann"', "Ann"),
    "trimmed": ('"  Ann Lee \\u3000"', "Ann Lee"),
    "NFC": ('"Jose\\u0301"', unicodedata.normalize("NFC", "Jose\u0301")),
    "40 after NFC and trimming": (json.dumps(" " + "e\u0301" * 40 + " "), "\u00e9" * 40),
    "arabic letters (right-to-left, no control)": ('"\\u0639\\u0644\\u064a"', "\u0639\u0644\u064a"),
    "emoji": ('"\\ud83c\\udccf Joker"', "\U0001f0cf Joker"),
}


@pytest.mark.parametrize(("name_json", "stored"), ACCEPTED.values(), ids=ACCEPTED.keys())
def test_a_name_within_the_rule_is_stored_normalised(client, name_json, stored):
    response = create(client, name_json)
    assert response.status_code == 201, response.get_data(as_text=True)
    assert response.get_json()["seats"][0]["name"] == stored
