"""The typed parts of the document that no route's schema registers by itself: the action
union (``Action``: ``DrawAction`` ... under a ``oneOf`` discriminated by ``type``) and the
event union (``Event``: one ``<Type>Event`` per event type). Routes refer to them by name
(``api.typed_spec.Ref``); ``register_components`` adds them to the spec before the routes."""
from apispec import APISpec

from api.resources.actions.schemas import BY_TYPE, schema_name, union_components
from api.resources.events import union as event_union
from api.typed_spec import enum_components


def register_components(spec: APISpec) -> None:
    """Add the named enums, the per-type action schemas and both unions to ``spec``'s
    components."""
    for action_type, schema in BY_TYPE.items():
        spec.components.schema(schema_name(action_type), schema=schema)
    for name, component in {**enum_components(), **union_components(),
                            **event_union.components()}.items():
        spec.components.schema(name, component)
