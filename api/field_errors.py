"""The field errors of a 422 validation problem, bounded: the first SHOWN fields, a count of the
rest.

marshmallow reports one entry per invalid or unknown field: a body of 300,000 unknown fields
(4 MiB) gave a 9.2 MB problem listing all of them (and `POST /v1/games` with 60,000 bad seats,
3.5 MB). Here the `errors` member keeps the shape webargs gives it (location -> field ->
messages, nested for lists and objects: ``{"json": {"seats": {"0": {"kind": ["..."]}}}}``) but
holds at most SHOWN fields; `errors_omitted` counts the fields left out. Names and messages are
cut to NAME_CHARS / MESSAGE_CHARS, so the answer is a few KB whatever the body.
"""
from __future__ import annotations

from typing import Iterator

SHOWN = 20  # fields listed in `errors`
IN_DETAIL = 3  # of which named in `detail`
NAME_CHARS = 40  # a field name (a key of the body) as echoed back
MESSAGE_CHARS = 200  # one message


def _leaves(messages: object, path: tuple = ()) -> Iterator[tuple[tuple, list[str]]]:
    """(path, messages) of every field with messages, depth first in the tree's order."""
    if isinstance(messages, dict):
        for key, child in messages.items():
            yield from _leaves(child, (*path, _cut(str(key), NAME_CHARS)))
    elif isinstance(messages, list) and all(isinstance(m, str) for m in messages):
        yield path, [_cut(m, MESSAGE_CHARS) for m in messages]
    elif isinstance(messages, list):
        for child in messages:
            yield from _leaves(child, path)
    else:
        yield path, [_cut(str(messages), MESSAGE_CHARS)]


def _cut(text: str, chars: int) -> str:
    return text if len(text) <= chars else text[:chars - 1] + "…"


def bounded(messages: dict, shown: int = SHOWN) -> tuple[dict, int, str]:
    """(errors, omitted, detail) of webargs' ``messages``: the tree of the first ``shown``
    fields, how many fields were left out, and a detail naming the first IN_DETAIL fields
    (``The request is not valid: meld: Must be an integer from 0 to 999 (and 4 more).``, the
    location, e.g. ``json``, left out)."""
    tree: dict = {}
    found: list[str] = []
    omitted = 0
    for path, texts in _leaves(messages):
        if len(found) == shown:
            omitted += 1
            continue
        node = tree
        for key in path[:-1]:
            child = node.setdefault(key, {})
            if not isinstance(child, dict):  # messages of the object beside its fields'
                child = node[key] = {"_schema": child}
            node = child
        if path:
            node.setdefault(path[-1], []).extend(texts)
        name = ".".join(path[1:]) or (path[0] if path else "body")
        text = " ".join(texts)
        found.append(text if text.startswith(name) else f"{name}: {text}")
    more = len(found) - IN_DETAIL + omitted
    listed = "; ".join(found[:IN_DETAIL]).rstrip(".")
    detail = (f"The request is not valid: {listed}{f' (and {more} more)' if more > 0 else ''}."
              if found else "The request is not valid.")
    return tree, omitted, detail
