"""OpenAPI links (OpenAPI 3.0 §4.7.20): how a response leads to the next request, so a client
(and schemathesis' stateful tests) can walk the API from a created game to its table, views,
actions and events. A route documents its links with ``@blp.doc(**links(status, ...))``."""
from __future__ import annotations

GAME = "/v1/games/{game_id}"


def operation_ref(path: str, method: str) -> str:
    """A JSON pointer to the operation `method` of `path` in this document (RFC 6901)."""
    return "#/paths/" + path.replace("~", "~0").replace("/", "~1") + "/" + method.lower()


def link(path: str, method: str, description: str, parameters: dict[str, str],
         body: str | None = None) -> dict:
    """A link to the operation `method` of `path`; `parameters` map ``<in>.<name>``
    (``path.game_id``, ``header.If-Match``) to runtime expressions, `body` is the runtime
    expression of the request body."""
    found = {"operationRef": operation_ref(path, method), "description": description,
             "parameters": parameters}
    if body is not None:
        found["requestBody"] = body
    return found


def links(status: int, **named: dict) -> dict:
    """The ``responses`` doc of `status` carrying the links `named`."""
    return {"responses": {status: {"links": named}}}


def game_links(game_id: str, version: str) -> dict:
    """Links from a response naming a game and its version (runtime expressions)."""
    game = {"path.game_id": game_id}
    return {
        "GetTable": link(GAME, "get", "The game's public table", game),
        "GetView": link(f"{GAME}/view", "get", "A seat's view (its bearer token)", game),
        "GetEvents": link(f"{GAME}/events", "get", "The game's events after this version",
                          {**game, "query.after": version}),
        "GetReplay": link(f"{GAME}/replay", "get", "The table at this version",
                          {**game, "query.version": version}),
        "Act": link(f"{GAME}/actions", "post", "An action of a seat (its bearer token)", game),
    }
