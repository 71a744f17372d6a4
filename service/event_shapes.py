"""Whether an event's fields hold the types its dataclass declares (an imported record is
client input: service.imports). The fold trusts its events' shapes, which decide() and the
stores guarantee for the events the server makes; a record's events are checked here, so a
`round` of 1.5 or a `barred` of `{}` is refused at the import instead of failing every view
of the table after it."""
from __future__ import annotations

import dataclasses
import types
import typing
from functools import lru_cache


def misshapen_field(event: object) -> str | None:
    """The name of the first field of `event` (a dataclass instance) whose value is not of its
    declared type, or None when all are. Declared types are read as: int (not bool), str,
    bool, dict, None, unions of these, tuple[T, ...] and tuple[T1, T2] (a list or a tuple);
    any other declared type (a bare `tuple`, say) is not checked here (the fold checks its
    value)."""
    for name, hint in _hints(type(event)):
        if not _conforms(getattr(event, name), hint):
            return name
    return None


@lru_cache(maxsize=None)  # one entry per event class
def _hints(cls: type) -> tuple[tuple[str, object], ...]:
    hints = typing.get_type_hints(cls)
    return tuple((field.name, hints[field.name]) for field in dataclasses.fields(cls))


def _conforms(value: object, hint: object) -> bool:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return any(_conforms(value, arg) for arg in args)
    if hint is type(None):
        return value is None
    if hint in (int, str, bool):
        return type(value) is hint
    if hint is dict or origin is dict:
        return isinstance(value, dict)
    if origin is tuple:
        if not isinstance(value, (tuple, list)):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_conforms(item, args[0]) for item in value)
        return len(value) == len(args) and all(map(_conforms, value, args))
    return True
