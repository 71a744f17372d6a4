"""Every problem ``type`` the API answers (RFC 9457 §3.1.1), with its status and meaning.

A problem's ``type`` is the URI of its entry on the service's own page: ``/docs/problems#<slug>``
(a relative reference, resolved against the request's URL, RFC 9457 §3.1.1), so a client can
follow it to what the problem means. The same table is listed in openapi.yaml (the ``Problem``
schema and each ``Problem<status>`` response) and served at ``/docs/problems``; a test checks
that every problem the code raises is in it.

Adding a problem: add one ``ProblemType`` here; ``api.errors.problem`` refuses unknown slugs.
"""
from __future__ import annotations

import http
from dataclasses import dataclass

PROBLEMS_PAGE = "/docs/problems"
RULES_PAGE = "/docs/rules"


@dataclass(frozen=True)
class ProblemType:
    """One problem type: its ``slug`` (the URI fragment), the HTTP ``statuses`` it comes
    with, its ``title`` (the problem's ``title`` member) and what it ``means`` for a client."""

    slug: str
    statuses: tuple[int, ...]
    title: str
    means: str


PROBLEM_TYPES = {p.slug: p for p in (
    ProblemType("rule-violation", (422,), "The action breaks a rule of the game",
                "The action is in the vocabulary but the rules refuse it now; `rule` names the "
                "rule (RULES.md ids, T1-T5 for the table rules) and `rule_url` links to it. "
                "Nothing was appended."),
    ProblemType("malformed-action", (422,), "The action is not in the game's vocabulary",
                "The action is not one the game knows (/docs/format); `rule` names the rule."),
    ProblemType("unsupported-profile", (422,), "The rule profile is not supported",
                "An option or value of `profile` is not played by this server."),
    ProblemType("invalid-request", (422,), "The request cannot be carried out",
                "The fields are well-formed but name something that does not exist or cannot "
                "be done (a replay version past the game's end, an unreadable position)."),
    ProblemType("validation-error", (422,), "The request has invalid fields",
                "A field, query parameter or header breaks the document; `errors` lists them "
                "by location."),
    ProblemType("version-conflict", (409,), "The game has moved on",
                "`If-Match` named an older version; `current_version` is the game's version. "
                "Reload the view and decide again (buy and pass may name their `card` instead "
                "of sending If-Match)."),
    ProblemType("idempotency-key-reused", (422,), "The Idempotency-Key was used for another "
                "request", "The seat already used this key for a request with another body."),
    ProblemType("idempotency-key-in-progress", (409,), "A request with this Idempotency-Key "
                "is in progress", "Send the same request again after `Retry-After` seconds to "
                "get its answer."),
    ProblemType("unauthorized", (401,), "A valid bearer token is required",
                "No token, or a token this game does not know."),
    ProblemType("forbidden", (403,), "The token may not do this",
                "The token is valid but its holder may not do this (another seat, not the "
                "game's admin, no server admin key), or `X-Admin-Key` is not the server admin "
                "key (on any request: omit the header to call without it)."),
    ProblemType("game-not-found", (404,), "No such game", "No game has this id."),
    ProblemType("game-archived", (410,), "The game was archived",
                "The retention policy moved the game out of the store (docs/retention.md)."),
    ProblemType("bad-precondition", (400,), "The precondition header cannot be read",
                '`If-Match` is not one version (`"12"`, `12` or `*`).'),
    ProblemType("invalid-json", (400,), "The body is not JSON this API reads",
                "The body is not JSON, is nested deeper than 32 levels, or has a number JSON "
                "cannot carry exactly."),
    ProblemType("unavailable", (503,), "A backend the service needs is not reachable",
                "Redis does not answer; retry later (`/ready` says when it is back)."),
    ProblemType("too-many-streams", (429,), "Too many open streams and long polls for this "
                "caller", "The caller holds its cap of streams and waiting polls; close one or "
                "wait `Retry-After` seconds."),
    ProblemType("too-many-requests", (429,), "Too Many Requests",
                "A rate limit was reached; wait `Retry-After` seconds (RateLimit-* headers)."),
    ProblemType("join-code-not-found", (404,), "No waiting game has this join code",
                "The code is unknown, or its game started or expired (docs/lobby.md)."),
    ProblemType("lobby-closed", (409,), "The game takes no one now, or cannot be started",
                "The game started or expired (rule L1), or every seat is taken (L2); an "
                "aborted game answers with rule T1."),
    ProblemType("no-rematch", (404,), "The game has no rematch yet",
                "No follow-up game was created from this one yet."),
    ProblemType("internal-server-error", (500,), "Internal Server Error",
                "A fault of the server; nothing internal is shown."),
    # The HTTP layer's own refusals (werkzeug, webargs, gunicorn): named after their status.
    ProblemType("bad-request", (400,), "Bad Request",
                "The HTTP server could not read the request (gunicorn)."),
    ProblemType("not-found", (404,), "Not Found", "No such path."),
    ProblemType("method-not-allowed", (405,), "Method Not Allowed",
                "The path does not take this method; `Allow` lists those it takes."),
    ProblemType("not-acceptable", (406,), "Not Acceptable",
                "The response cannot be given in a type `Accept` allows."),
    ProblemType("content-too-large", (413,), "Content Too Large",
                "The body is larger than the route's limit (counted on the bytes read): 64 KiB, "
                "4 MiB for an import."),
    ProblemType("unsupported-media-type", (415,), "Unsupported Media Type",
                "The body is not sent as application/json."),
    ProblemType("uri-too-long", (414,), "URI Too Long",
                "The request line is longer than 4094 bytes (gunicorn)."),
    ProblemType("request-header-fields-too-large", (431,), "Request Header Fields Too Large",
                "A header field is over 8190 bytes, or there are over 100 (gunicorn)."),
    ProblemType("not-implemented", (501,), "Not Implemented",
                "A Transfer-Encoding other than chunked (gunicorn)."),
)}

# Python 3.13 renamed some phrases (413 "Content Too Large", 422 "Unprocessable Content"): the
# slugs of HTTP errors come from this table, the same on every Python.
_BY_STATUS = {400: "bad-request", 404: "not-found", 405: "method-not-allowed",
              406: "not-acceptable", 413: "content-too-large", 414: "uri-too-long",
              415: "unsupported-media-type", 422: "validation-error",
              429: "too-many-requests", 431: "request-header-fields-too-large",
              500: "internal-server-error", 501: "not-implemented", 503: "unavailable"}


def type_uri(slug: str) -> str:
    """The ``type`` member of problem ``slug``: ``/docs/problems#<slug>``.

    Raises KeyError for a slug not in PROBLEM_TYPES (every problem is documented)."""
    return f"{PROBLEMS_PAGE}#{PROBLEM_TYPES[slug].slug}"


def slug_for_status(status: int) -> str:
    """The slug of an HTTP-layer error of ``status`` (a 4xx/5xx the framework raised)."""
    return _BY_STATUS.get(status, "internal-server-error" if status >= 500 else "bad-request")


def title(slug: str) -> str:
    """The ``title`` member of problem ``slug``."""
    return PROBLEM_TYPES[slug].title


def rule_url(rule: str) -> str:
    """The link to rule ``rule`` (``R2.4`` -> ``/docs/rules#r2-4``, ``T1`` -> ``#t1``)."""
    return f"{RULES_PAGE}#{rule.lower().replace('.', '-')}"


def for_status(status: int) -> list[ProblemType]:
    """The problem types that may come with ``status``."""
    return [p for p in PROBLEM_TYPES.values() if status in p.statuses]


def listing(status: int) -> str:
    """The problem types of ``status`` as Markdown list lines linking to their entries (a
    problem response's description in the document)."""
    return "".join(f"\n- [`{p.slug}`]({type_uri(p.slug)}): {p.means}" for p in for_status(status))


def markdown_table() -> str:
    """Every problem type as a Markdown table with an anchor per slug (the /docs/problems page
    and the document's description)."""
    rows = ["| type | status | title | meaning |", "| --- | --- | --- | --- |"]
    for p in PROBLEM_TYPES.values():
        statuses = ", ".join(f"{s} {http.HTTPStatus(s).phrase}" for s in p.statuses)
        rows.append(f'| <a id="{p.slug}"></a>`{p.slug}` | {statuses} | {p.title} | {p.means} |')
    return "\n".join(rows)
