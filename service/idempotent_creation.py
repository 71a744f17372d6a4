"""Game creation under an Idempotency-Key (docs/service.md "Sealed answers"): a creation
retried with its key gets the first answer, the same game id, admin token and seat tokens, and
no second game is made; the answer is kept sealed with the key (service.sealed_answers).

Keys are per creator (`creator`: the credential's scope, named by the API:
"anonymous:<address>", "admin", "integration:<player>", "player:<sub>"), so two creators' keys
never meet; anonymous creators behind one address share one scope, where the key (at least
MIN_KEY_LENGTH random characters) and the body it was sent with are what a replay needs.
"""
from __future__ import annotations

import hashlib
import json
from typing import Callable

import redis

from service.sealed_answers import CLAIM_MS, creation_slot, once


def creation_fingerprint(request: dict) -> str:
    """SHA-256 (hex) of the canonical JSON of the creation `request` (the parsed body): what
    a creation's key stands for. Values JSON cannot hold are written as their str()."""
    body = json.dumps(request, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(body.encode()).hexdigest()


class IdempotentCreation:
    """Creations of games kept for their Idempotency-Key, on the Redis `client`."""

    def __init__(self, client: redis.Redis) -> None:
        self._client = client

    def create(self, creator: str, idempotency_key: str | None, request: dict,
               create: Callable[[], dict], claim_ms: int = CLAIM_MS) -> dict:
        """`create()` (which makes the game and returns its answer), once per
        (`creator`, `idempotency_key`): a retry with the same `request` gets the first
        answer, waiting up to service.sealed_answers.ANSWER_WAIT_S while the first is
        carried out (for up to `claim_ms`: a creation that may take longer, an import, says
        so). Without a key, `create()`. Raises IdempotencyKeyReused (the key was sent with
        another request), IdempotencyInProgress, StoreUnavailable, and what `create` raises
        (the key is then free for a retry)."""
        if idempotency_key is None:
            return create()
        return once(self._client, creation_slot(creator), idempotency_key,
                    creation_fingerprint(request), create, claim_ms=claim_ms)
