"""Bearer tokens: random, shown once, stored only as SHA-256 hashes, compared in constant time
(DESIGN §6, issue 3 "Security"). A game has one token per human seat and one admin token."""
from __future__ import annotations

import hashlib
import hmac
import secrets

TOKEN_BYTES = 32


def new_token() -> str:
    """A fresh random token: 43 URL-safe characters (256 bits from `secrets`)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    """The stored form of a token: its SHA-256 as 64 hex digits."""
    return hashlib.sha256(token.encode()).hexdigest()


def matches(token: str | None, stored_hash: str | None) -> bool:
    """True when `token` hashes to `stored_hash`; constant time in the hash (hmac.compare_digest)."""
    if not token or not stored_hash:
        return False
    return hmac.compare_digest(token_hash(token), stored_hash)


def is_admin_key(given: str | None, configured: str | None) -> bool:
    """True when the server admin key (RUMMY_ADMIN_KEY) is configured and `given` equals it."""
    if not given or not configured:
        return False
    return hmac.compare_digest(given.encode(), configured.encode())
