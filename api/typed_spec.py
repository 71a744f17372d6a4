"""How marshmallow fields become OpenAPI 3.0.3 schemas that client generators type well.

apispec documents a nullable nested object as ``anyOf: [{type: object, nullable: true},
{$ref}]``: generators (openapi-python-client, openapi-typescript) take the generic branch and
type the field as an untyped dict. Here it is ``oneOf: [{$ref}, null_schema()]``, the latter
``{nullable: true, enum: [null]}`` (a schema that admits null alone), which both generators type
as "that model or null". ``allOf: [{$ref}]`` beside ``nullable: true`` would type as well, but
OpenAPI 3.0.3 §4.7.24 gives ``nullable`` no effect without a ``type`` beside it, so a strict
validator (openapi-core's, say) refuses every null such a field carries.

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
from domain.state import BUYING, CLAIM, CUT, DRAW, OVER, PLAY

COMPONENTS = "#/components/schemas/"
# Named enums (component name -> values), referred to by nullable fields.
ENUMS = {
    "Phase": (DRAW, PLAY, BUYING, CLAIM, CUT, OVER),  # claim: R11.18; cut: R11.19
    "Opened": ("earlier", "this_turn"),
    "RunEnd": ("low", "high"),
    "BotLevel": tuple(BOT_LEVELS),
}


def null_schema() -> dict:
    """A schema that admits null and nothing else, read strictly (``enum``) or leniently
    (``nullable``) alike; a new one each time (no YAML anchors in openapi.yaml)."""
    return {"nullable": True, "enum": [None]}


def nullable(ref: str) -> dict:
    """The JSON schema of the schema at ``ref`` (a ``$ref`` string) or null (see the module's
    doc)."""
    return {"oneOf": [{"$ref": ref}, null_schema()]}


def enum_ref(component: str) -> dict:
    """The JSON schema of a nullable value of the named enum ``component``."""
    return nullable(COMPONENTS + component)


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
    """apispec's converter with nullable references as ``oneOf`` a reference or null, and
    ``Ref``."""

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
        """``nullable: true`` beside a typed schema; a reference becomes ``oneOf`` it or
        null (a wrapping ``allOf`` goes: the ``oneOf`` also takes a description beside it)."""
        if not field.allow_none:
            return {}
        ref = ret.pop("$ref", None) or _sole_ref(ret)
        if ref is not None:
            return nullable(ref)
        return {"nullable": True}


class TypedPlugin(MarshmallowPlugin):
    """The MarshmallowPlugin of the API (``ProblemApi``), using ``TypedConverter``."""

    Converter = TypedConverter


def _sole_ref(ret: dict) -> str | None:
    """The reference of an ``allOf: [{$ref}]`` in ``ret`` (removed from it), else None."""
    wrapped = ret.get("allOf")
    if wrapped and len(wrapped) == 1 and set(wrapped[0]) == {"$ref"}:
        del ret["allOf"]
        return wrapped[0]["$ref"]
    return None
