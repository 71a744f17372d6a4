"""The compact stream form's codes (service.compact_events): frozen, one per (type, schema),
each naming the data keys of its event as the domain serializes it; and a round trip."""
from __future__ import annotations

import dataclasses
import random

import pytest

import domain.lobby  # noqa: F401  (registers the lobby events)
from domain import event_to_dict
from domain.events import EVENT_TYPES
from domain.simulation import play_game
from service.compact_events import CODES, compact, expand


def test_every_event_type_of_its_current_schema_has_a_code_naming_its_fields():
    """A new event type, or a new schema, needs a NEW code (never an edited one: stored
    entries keep the old code's keys); until then its events are written in the full form."""
    by_type = {(name, schema): keys for name, schema, keys in CODES.values()}
    for name, cls in EVENT_TYPES.items():
        fields = tuple(sorted(f.name for f in dataclasses.fields(cls)))
        assert by_type.get((name, cls.SCHEMA)) == fields, name


def test_codes_are_short_and_each_type_and_schema_has_one():
    assert all(len(code) == 1 for code in CODES)
    assert len({(name, schema) for name, schema, _ in CODES.values()}) == len(CODES)
    assert all(list(keys) == sorted(keys) for _, _, keys in CODES.values())


def test_a_whole_games_events_come_back_the_same_and_shorter():
    events = [event_to_dict(e) for e in play_game(("strong", "basic", "basic", "random"),
                                                   random.Random(5)).events]
    full = short = 0
    for event in events:
        code, values = compact(event["type"], event["schema"], event["data"])
        assert expand(code.encode(), values.encode()) == (event["type"], event["schema"],
                                                          event["data"])
        assert list(expand(code, values)[2]) == sorted(event["data"])  # the full form's order
        full += len(event["type"]) + len(str(event["data"]))
        short += len(code) + len(values)
    assert short < full / 2


@pytest.mark.parametrize("event_type, schema, data", [
    ("Noted", 1, {"n": 1}),  # no code: a type of no domain
    ("CardDiscarded", 2, {"seat": 1, "card": "QS"}),  # a schema with no code
    ("CardDiscarded", 1, {"seat": 1}),  # other keys than the code's (an older shape)
    ("CardDiscarded", 1, {"seat": 1, "card": "QS", "extra": 0}),
])
def test_an_event_without_a_code_for_its_shape_stays_in_the_full_form(event_type, schema, data):
    assert compact(event_type, schema, data) is None


def test_a_code_of_a_newer_version_is_refused_by_name():
    with pytest.raises(ValueError, match="unknown compact event code"):
        expand(b"~", b"[]")
