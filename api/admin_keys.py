"""A wrong ``X-Admin-Key`` is refused on every request (403 problem+json ``forbidden``), never
taken silently for none: a caller who mistyped the server admin key would otherwise get the
public answer (a replay without the hidden cards, the public feed) and believe it complete. A
request without the header is the caller without the key, as before. OPTIONS aside: a
browser's preflight sends no such header, and Allow and CORS reveal nothing. A refusal is
rate limited and counted like any request (api.ratelimits, api.metrics): guessing the key
costs the guesser's budget.

``AdminKeyDoc`` documents the 403 on every operation whose security lists the admin key; the
document's description says that any request may get it.
"""
from apispec import BasePlugin
from flask import Flask, request

from api.auth import checked_admin_key
from api.errors import problem_ref
from api.ratelimits import spend_on_refusal
from service.errors import Forbidden


def init_app(app: Flask) -> None:
    """Refuse a wrong ``X-Admin-Key`` before any other check of the request (a private game
    would otherwise answer 404 first: the key, not the game, is what is wrong). Call after
    api.metrics' init_app (its timer starts first, so the refusal is timed and counted). The
    refusal spends the caller's general rate budget first (api.ratelimits.spend_on_refusal:
    429 once spent), so guessing the key is as limited as any request."""

    @app.before_request
    def _refuse_a_wrong_admin_key():
        if request.method == "OPTIONS":
            return
        try:
            checked_admin_key()
        except Forbidden:
            spend_on_refusal()  # RateLimitExceeded (429) once the budget is spent
            raise  # 403


class AdminKeyDoc(BasePlugin):
    """apispec plugin: the 403 problem on every operation that takes the server admin key."""

    def operation_helper(self, path=None, operations=None, **kwargs) -> None:
        for operation in (operations or {}).values():
            takes_key = any("adminKey" in requirement
                            for requirement in operation.get("security", []))
            responses = operation.setdefault("responses", {})
            if takes_key and 403 not in responses and "403" not in responses:
                responses["403"] = problem_ref(403)
