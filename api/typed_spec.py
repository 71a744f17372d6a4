"""How marshmallow fields become OpenAPI 3.0.3 schemas that client generators type well.

apispec documents a nullable nested object as ``anyOf: [{type: object, nullable: true},
{$ref}]``: generators (openapi-python-client, openapi-typescript) take the generic branch and
type the field as an untyped dict. Here it is ``allOf: [{$ref}]`` with ``nullable: true`` (OpenAPI
3.0.3 §4.7.24: a nullable reference), which both generators type as "that model or null".

``Ref`` documents a field by a ``$ref`` to a component given as a plain JSON schema (the event
union, the action union: ``api.contract``), where no marshmallow schema describes it. A nullable
enum is a ``Ref`` to a named enum component (``ENUMS``, ``enum_ref``): inline, with ``null`` in
its values, openapi-python-client types it as three anonymous enums; as a nullable reference,
as "that enum or None".
"""
from __future__ import annotations

from apispec.ext.marshmallow import MarshmallowPlugin
from apispec.ext.marshmallow.openapi import OpenAPIConverter
from marshmallow import fields

from domain.bots import BOT_LEVELS
from domain.state import BUYING, DRAW, OVER, PLAY

COMPONENTS = "#/components/schemas/"
# Named enums (component name -> values), referred to by nullable fields.
ENUMS = {
    "Phase": (DRAW, PLAY, BUYING, OVER),
    "Opened": ("earlier", "this_turn"),
    "RunEnd": ("low", "high"),
    "BotLevel": tuple(BOT_LEVELS),
}


def enum_ref(component: str) -> dict:
    """The JSON schema of a nullable value of the named enum ``component``."""
    return {"allOf": [{"$ref": COMPONENTS + component}], "nullable": True}


def enum_components() -> dict[str, dict]:
    """The enum components of ``ENUMS``."""
    return {name: {"type": "string", "enum": list(values)} for name, values in ENUMS.items()}


class Ref(fields.Raw):
    """A field whose value is documented by the component schema ``component`` (a name in
    ``#/components/schemas``); loaded and dumped as is (its content is checked elsewhere)."""

    def __init__(self, component: str, **kwargs):
        super().__init__(**kwargs)
        self.component = component


class TypedConverter(OpenAPIConverter):
    """apispec's converter with nullable references as ``allOf`` + ``nullable`` and ``Ref``."""

    def init_attribute_functions(self):
        super().init_attribute_functions()
        # Before field2nullable (the last one), which must see the $ref.
        self.attribute_functions.insert(-1, self.ref2properties)

    def ref2properties(self, field: fields.Field, ret: dict) -> dict:
        """``{$ref}`` for a Ref field (``allOf: [{$ref}]`` beside a description: in 3.0 a
        ``$ref`` has no siblings)."""
        if not isinstance(field, Ref):
            return {}
        ref = {"$ref": COMPONENTS + field.component}
        for key in ("type", "enum"):  # the component says them
            ret.pop(key, None)
        return {"allOf": [ref]} if ret else ref

    def field2nullable(self, field: fields.Field, ret: dict) -> dict:
        """``nullable: true`` beside the schema; a reference is wrapped in ``allOf``."""
        if not field.allow_none:
            return {}
        if "$ref" in ret:
            return {"allOf": [{"$ref": ret.pop("$ref")}], "nullable": True}
        return {"nullable": True}


class TypedPlugin(MarshmallowPlugin):
    """The MarshmallowPlugin of the API (``ProblemApi``), using ``TypedConverter``."""

    Converter = TypedConverter
