"""The rule profile as documented in the API: every option of RULES.md §11 with its type,
range or enum and default (R11.1-R11.20), and the presets' answers."""
import marshmallow as ma
from marshmallow import fields

from domain.profile import CUT_BONUS_MAX, OPTION_CHECKS, PRESETS, SAFE_INT, RuleProfile

_INT, _BOOL = {"type": "integer"}, {"type": "boolean"}
_REQUIREMENT = {"oneOf": [
    {"type": "string", "enum": ["group", "run"]},
    {"type": "object", "required": ["kind", "min"], "additionalProperties": False,
     "properties": {"kind": {"type": "string", "enum": ["group", "run"]},
                    "min": {"type": "integer", "minimum": 3, "maximum": 14,
                            "description": "3-13 for a group, 3-14 for a run"}}}]}
# option -> its JSON schema beyond the description and default
_SHAPES = {
    "players": {**_INT, "minimum": 3, "maximum": 8,
                "description": "Set by the number of seats when left out"},
    "packs": {**_INT, "minimum": 2, "maximum": 4,
              "description": "Default by table size: 2 for 3-4 players, 3 for 5-6, 4 for 7-8"},
    "jokers": {**_INT, "minimum": 0, "maximum": 8,
               "description": "At most 2 x packs; default two per pack for shanghai, else one "
                              "fewer than players"},
    "deal_sizes": {"type": "array", "items": {**_INT, "minimum": 1, "maximum": SAFE_INT},
                   "minItems": 1,
                   "maxItems": 15},
    "contracts": {"type": "array", "minItems": 1, "maxItems": 15,
                  "items": {"type": "array", "minItems": 1, "maxItems": 6,
                            "items": _REQUIREMENT}},
    "final_round": {"type": "string", "enum": ["whole_hand_no_discard", "discard"]},
    "lay_off_on_opening_turn": _BOOL,
    "buying": _BOOL,
    "buying_from_round": {**_INT, "minimum": 1, "maximum": 15},
    "purchases_per_player_per_round": {**_INT, "minimum": 1, "maximum": SAFE_INT,
                                       "nullable": True},
    "penalty_cards_per_purchase": {**_INT, "minimum": 0, "maximum": 3},
    "joker_penalty": {**_INT, "minimum": 0, "maximum": 100},
    "pip_scoring": {"type": "string", "enum": ["face_value", "bands"]},
    "jokers_per_run": {**_INT, "minimum": 1, "maximum": SAFE_INT, "nullable": True},
    "ace": {"type": "string", "enum": ["low_or_high", "high_only"]},
    "wild_twos": _BOOL,
    "ties": {"type": "string", "enum": ["shared", "play_off"]},
    "stock_rebuilds": {**_INT, "minimum": 0, "maximum": SAFE_INT, "nullable": True},
    "shanghai_call": _BOOL,
    "cut_bonus": {**_INT, "minimum": 0, "maximum": CUT_BONUS_MAX},
    "max_turns_per_round": {**_INT, "minimum": 1, "maximum": SAFE_INT},
}


def profile_object() -> dict:
    """The documented options object: `preset` and every option with its rule, type, range
    or enum and standard default; no other member (R11, R11.20)."""
    defaults = RuleProfile().to_json()
    properties = {"preset": {"type": "string", "enum": list(PRESETS), "default": "standard",
                             "description": "R11.20: the preset the other options override"}}
    for name, shape in _SHAPES.items():
        rule, _, wanted = OPTION_CHECKS[name]
        text = f"{rule}: {wanted}" + (f". {shape['description']}" if "description" in shape
                                      else "")
        properties[name] = {**shape, "description": text, "default": defaults[name]}
    return {"type": "object", "properties": properties, "additionalProperties": False}


def profile_field_doc() -> list:
    """`oneOf` of a profile in a request: a preset name or the options object."""
    return [{"type": "string", "enum": list(PRESETS)}, profile_object()]


class ProfileSchema(ma.Schema):
    """A preset (R11.20): its name, a one-line description, its source document and every
    option's value (for four players; the seats of a game set `players` and the defaults by
    table size)."""

    name = fields.String(required=True, metadata={"example": "shanghai"})
    description = fields.String(required=True)
    source = fields.String(required=True)
    options = fields.Dict(required=True, metadata=profile_object())


class ProfileListSchema(ma.Schema):
    """Every preset."""

    items = fields.List(fields.Nested(ProfileSchema), required=True)
