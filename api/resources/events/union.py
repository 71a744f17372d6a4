"""The event union of the document: one schema per event type, under a ``oneOf`` discriminated
by ``type`` (component ``Event``), used by the event feeds, the SSE data and exported records.

Each ``<Type>Event`` schema is derived from the event's dataclass in ``domain.events``, or
for a table event (the service's facts the rules never read) in ``service.table_events`` (its
fields and their type hints), so a new event type is documented as soon as it is registered
there; what a seat's or the public feed hides (``domain.views.redact``) is declared in
``REDACTED``, the closed sets of values in ``ENUMS``. A test compares these schemas with the
events a whole game produces, redacted for every caller.
"""
from __future__ import annotations

import dataclasses
import types
import typing

from api.resources.profiles.schemas import profile_object
from api.typed_spec import enum_ref
from domain.bots import BOT_LEVELS
from domain.events import EVENT_TYPES as DOMAIN_EVENT_TYPES
from service.table_events import TABLE_EVENT_TYPES

EVENT_TYPES = {**DOMAIN_EVENT_TYPES, **TABLE_EVENT_TYPES}  # every type a stream holds

COMPONENTS = "#/components/schemas/"
RECORDED_AT = {"type": "string", "format": "date-time", "nullable": True,
               "example": "2026-11-30T20:36:49.123Z",
               "description": "When the event was recorded: the server's time of its append, "
                              "RFC 3339 UTC with ms (null for an event stored before times "
                              "were recorded)"}
_CARDS = {"type": "array", "items": {"type": "string"}}
_SIZES = {"type": "array", "items": {"type": "integer"}}
# What a seat's or the public feed shows instead (domain.views.redact): the hidden fields
# become null or absent (not required), the listed ones are added.
REDACTED = {
    "GameCreated": ({"seed"}, {}),
    "PositionLoaded": (set(), {}),  # position.hands / stock null, sizes added: a free object
    "RoundDealt": ({"deck"}, {"hand": {**_CARDS, "nullable": True,
                                       "description": "The caller's dealt hand (redacted feed; "
                                                      "null for the public)"},
                              "hand_sizes": _SIZES, "upcard": {"type": "string",
                                                               "nullable": True},
                              "stock_size": {"type": "integer"}}),
    "CardDrawn": ({"card"}, {}),
    "CardBought": ({"penalty"}, {}),
    "StockRebuilt": ({"stock"}, {"stock_size": {"type": "integer"}}),
    "DeckShuffled": ({"deck"}, {"deck_size": {"type": "integer"}}),
    "PenaltyCardTaken": ({"card"}, {}),
    "CardClaimed": ({"given"}, {}),
    "PlayerSeated": ({"player_id"}, {}),  # service.table_events.as_seen
}
# Hidden fields a redacted feed leaves out (the others it shows as null).
ABSENT = {"RoundDealt": {"deck"}}
_END = enum_ref("RunEnd")
ENUMS = {
    ("CardDrawn", "source"): {"type": "string", "enum": ["stock", "discard"]},
    ("CardLaidOff", "end"): _END,
    ("JokerSwapped", "joker_end"): _END,
    ("ClaimRequested", "end"): _END,
    ("CardClaimed", "end"): _END,
    ("RoundEnded", "reason"): {"type": "string", "enum": ["went_out", "no_card", "turn_cap"]},
    ("SeatTakenOver", "reason"): {"type": "string", "enum": ["timeouts", "resigned"]},
    ("SeatTakenOver", "level"): {"type": "string", "enum": list(BOT_LEVELS)},
    ("ClockSet", "takeover_level"): {"type": "string", "enum": list(BOT_LEVELS)},
    ("SeatsOpened", "levels"): {"type": "array", "items": enum_ref("BotLevel"),
                                "description": "Per seat: the level of the bot that fills it "
                                               "if nobody joins (one of the bot levels), null "
                                               "for a seat seated at creation"},
    ("GameStarted", "by"): {"type": "string", "enum": ["host", "auto"]},
    ("SeatTokenIssued", "reason"): {"type": "string", "enum": ["rematch"]},
    ("GameCreated", "profile"): profile_object(),  # every option, as the table shows it
    ("GameCreated", "seed"): {"nullable": True, "description": "The seed (integer or string) "
                                                               "when seeded; null when redacted"},
}


def _schema_of(hint) -> dict:
    """The JSON schema of a dataclass field's type hint (int, str, dict, tuples, X | None)."""
    args = typing.get_args(hint)
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        kept = [a for a in args if a is not type(None)]
        return {**_schema_of(kept[0]), "nullable": True} if len(kept) == 1 else {"nullable": True}
    if typing.get_origin(hint) is tuple:
        return {"type": "array", "items": _schema_of(args[0])}
    return {int: {"type": "integer"}, str: {"type": "string"}, bool: {"type": "boolean"},
            dict: {"type": "object", "additionalProperties": True}}[hint]


def data_schema(name: str) -> dict:
    """The JSON schema of the ``data`` of event ``name`` (whole or redacted)."""
    hints = typing.get_type_hints(EVENT_TYPES[name])
    hidden, added = REDACTED.get(name, (set(), {}))
    properties, required = {}, []
    for field in dataclasses.fields(EVENT_TYPES[name]):
        schema = ENUMS.get((name, field.name)) or _schema_of(hints[field.name])
        if field.name in hidden:
            schema = {**schema, "nullable": True}
        properties[field.name] = schema
        if field.name not in ABSENT.get(name, ()):
            required.append(field.name)
    schema = {"type": "object", "properties": {**properties, **added},
              "additionalProperties": False,
              "description": (EVENT_TYPES[name].__doc__ or "").strip()}
    return {**schema, "required": required} if required else schema  # 3.0: never empty


def event_schema(name: str) -> dict:
    """The JSON schema of one event of type ``name``: its version, type, schema, data and
    recorded_at."""
    return {"type": "object", "required": ["version", "type", "schema", "data"],
            "properties": {"version": {"type": "integer", "minimum": 1},
                           "type": {"type": "string", "enum": [name]},
                           "schema": {"type": "integer", "minimum": 1},
                           "data": {"$ref": f"{COMPONENTS}{name}Data"},
                           "recorded_at": RECORDED_AT}}


def components() -> dict[str, dict]:
    """Every event component: ``<Type>Data``, ``<Type>Event`` and the union ``Event``."""
    found = {}
    for name in EVENT_TYPES:
        found[f"{name}Data"] = data_schema(name)
        found[f"{name}Event"] = event_schema(name)
    mapping = {name: f"{COMPONENTS}{name}Event" for name in EVENT_TYPES}
    found["Event"] = {"oneOf": [{"$ref": ref} for ref in mapping.values()],
                      "discriminator": {"propertyName": "type", "mapping": mapping},
                      "description": "One event, as the caller may see it (a seat's or the "
                                     "public feed hides cards: see each `<Type>Data`)."}
    return found
