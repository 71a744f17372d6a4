"""ETag = the game's version: ``If-None-Match`` (304) and ``If-Match`` (expected version)."""
import re

from flask import request
from werkzeug.wrappers import Response

from api.errors import ApiProblem

# One version as an entity tag ("12", W/"12", or "12:gzip" as api.compression rewrites the tag
# of a compressed response) or a bare number (12); documented as If-Match's pattern, so the
# document allows exactly what if_match_version reads.
IF_MATCH_PATTERN = r'^(?:\*|(?:W/)?"?[0-9]{1,18}(?::gzip)?"?)$'
_VERSION_TAG = re.compile(r'^(?:W/)?"?(\d{1,18})(?::gzip)?"?$')
ETAG_HEADER = {"ETag": {"description": 'The game\'s version as an entity tag, e.g. "12" ("12:gzip" '
                                       "when the body is gzip-compressed; both name version "
                                       "12 in If-Match and If-None-Match)",
                        "schema": {"type": "string"}}}
IF_NONE_MATCH = {"name": "If-None-Match", "in": "header", "required": False,
                 "description": "An ETag from an earlier response: 304 when unchanged",
                 "schema": {"type": "string"}}
IF_MATCH = {"name": "If-Match", "in": "header", "required": False,
            "description": 'The version the action expects, as an ETag ("12") or a bare number '
                           "(12), or * (any): 409 when the game has moved on, 400 for a value "
                           "that is not one version",
            "schema": {"type": "string", "pattern": IF_MATCH_PATTERN}}


def etag(version: int) -> str:
    """Return the strong entity tag of ``version``."""
    return f'"{version}"'


def not_modified(version: int) -> Response | None:
    """Return a 304 response when ``If-None-Match`` names ``version`` (or ``*``), else None."""
    tags = [t.strip() for t in request.headers.get("If-None-Match", "").split(",")]
    if "*" in tags or any(_parse(t) == version for t in tags):
        return Response(status=304, headers={"ETag": etag(version)})
    return None


def view_or_not_modified(version: int, view: dict):
    """The response of a GET of ``view`` at ``version``: 304 when ``If-None-Match`` names it,
    else the view with its ``version`` and its ETag."""
    return not_modified(version) or ({**view, "version": version}, 200, {"ETag": etag(version)})


def if_match_version() -> int | None:
    """Return the version of ``If-Match`` (None when absent or ``*``).

    Raises ApiProblem 400 when the header is not a single version tag, an empty one included:
    a client that builds it from an empty variable must not lose its guard without a word.
    """
    raw = request.headers.get("If-Match")
    if raw is None:
        return None
    value = raw.strip()
    if value == "*":
        return None
    version = _parse(value)
    if version is None:
        raise ApiProblem(400, "bad-precondition",
                         f'If-Match must be one version, like "12" or 12; got {value[:40]!r}.')
    return version


def _parse(tag: str) -> int | None:
    match = _VERSION_TAG.match(tag)
    return int(match.group(1)) if match else None
