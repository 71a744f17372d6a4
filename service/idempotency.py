"""Idempotency keys of actions (docs/service.md "Idempotency"): what a key stands for, and
holding a key while its request is decided, so that of requests racing with one key exactly
one is decided and the others get its answer."""
from __future__ import annotations

import hashlib
import json
import time

from service.store import EventStore, IdempotencyInProgress

# How long a request waits for the answer of another request holding its key before it is
# told to retry (409 with Retry-After): a decision takes milliseconds.
CLAIM_WAIT_S = 1.0
CLAIM_POLL_S = 0.02


def fingerprint(seat: int | None, action: dict) -> str:
    """SHA-256 of the canonical JSON of (seat, action): what an idempotency key stands for."""
    body = json.dumps({"seat": seat, "action": action}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(body.encode()).hexdigest()


def claim_or_wait(store: EventStore, game_id: str, key: str, stamp: str, claim: str,
                  wait_s: float = CLAIM_WAIT_S) -> int | None:
    """`store.claim` of `key` (scoped, service.keys.idempotency_scope) for the request
    `stamp` by `claim`, polling every CLAIM_POLL_S up to `wait_s` seconds while another request
    holds it: None when `claim` now holds the key, else the version the key's first append
    produced (the answer to give). Raises IdempotencyKeyReused (another request's key, at
    once), IdempotencyInProgress (still held after the wait), StoreUnavailable."""
    deadline = time.monotonic() + wait_s
    while True:
        try:
            return store.claim(game_id, key, stamp, claim)
        except IdempotencyInProgress:
            if time.monotonic() >= deadline:
                raise
            time.sleep(CLAIM_POLL_S)
