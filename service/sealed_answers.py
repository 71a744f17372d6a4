"""Sealed answers (docs/service.md "Sealed answers"): the first answer to an Idempotency-Key
whose answer carries a token (a game's creation, a join, a spectator token), kept in Redis so
that a retry gets it again, readable only by whoever holds the key.

The Idempotency-Key is the one secret here: the client alone holds it (the API asks at least
MIN_KEY_LENGTH characters of these operations). From it and the answer's slot (what kind of
answer, in which scope: a game, a creator's credential) two independent values are derived:
- where the answer is kept: HMAC-SHA256(key, LOOKUP_LABEL | kind | scope), in hex, in the Redis
  key name, so a Redis key names no Idempotency-Key;
- how it is sealed: AES-256-GCM under HKDF-SHA256(key, info=SEAL_LABEL | kind | scope), a
  random 96-bit nonce per write, the Redis key name as associated data.
A Redis dump alone thus yields no token, and a request with another key (or another scope)
finds nothing to open. The request's fingerprint is sealed beside the answer: a retry with
the key but another body opens it and is told IdempotencyKeyReused (422).

`once` also keeps the claim of a request being carried out (sealed the same way, with its
fingerprint), so requests racing with one key make one answer: the others wait for it.
"""
from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import secrets
import time
from dataclasses import dataclass
from typing import Callable

import redis
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from service.keys import PREFIX
from service.redis_store import IDEMPOTENCY_TTL_S, backend_errors
from service.store import IdempotencyInProgress, IdempotencyKeyReused, StoreError

MIN_KEY_LENGTH = 16  # characters of an Idempotency-Key that stands for a token (the API checks)
LOOKUP_LABEL = b"rummy/sealed-answer/lookup/v1"
SEAL_LABEL = b"rummy/sealed-answer/seal/v1"
NAME_LABEL = b"rummy/sealed-answer/key-name/v1"
FORMAT = b"s1"  # the first bytes of a sealed value: its format
NONCE_BYTES = 12
ANSWER_WAIT_S = 1.0  # how long a retry waits for the answer of the request holding its key
POLL_S = 0.02
CLAIM_MS = 10_000  # a claim's life without an answer: far above a creation's milliseconds
# Compare-and-delete: drop a claim only if it is still the one this request wrote.
_RELEASE = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end"


@dataclass(frozen=True)
class Slot:
    """Where answers of one kind and scope live: `kind` (e.g. "join"), `scope` (whose keys
    these are: a game id, a creator's credential), `tag` the Redis Cluster hash tag of the
    key (a game id keeps the answer in the game's slot) or None for a single-key key."""

    kind: str
    scope: str
    tag: str | None = None

    def redis_key(self, idempotency_key: str) -> str:
        """`rummy:{<tag>}:<kind>-answer:<lookup>` (or `rummy:<kind>-answer:<lookup>` without a
        tag), `lookup` the HMAC of the key: the key name reveals no Idempotency-Key."""
        lookup = hmac.new(idempotency_key.encode(), self._context(LOOKUP_LABEL),
                          hashlib.sha256).hexdigest()
        where = f"{PREFIX}:" if self.tag is None else f"{PREFIX}:{{{self.tag}}}:"
        return f"{where}{self.kind}-answer:{lookup}"

    def cipher(self, idempotency_key: str) -> AESGCM:
        """AES-256-GCM under the key derived from `idempotency_key` for this slot (HKDF)."""
        derived = HKDF(algorithm=hashes.SHA256(), length=32, salt=None,
                       info=self._context(SEAL_LABEL)).derive(idempotency_key.encode())
        return AESGCM(derived)

    def _context(self, label: bytes) -> bytes:
        return b"\x00".join((label, self.kind.encode(), self.scope.encode()))


def key_name(idempotency_key: str) -> str:
    """What another store may name in place of an Idempotency-Key that seals an answer
    (SHA-256 of NAME_LABEL and the key, hex): e.g. the event store's claim of a join, whose
    key names are plain text; the key itself must never be written beside its answer."""
    return hashlib.sha256(NAME_LABEL + b"\x00" + idempotency_key.encode()).hexdigest()


def join_slot(game_id: str) -> Slot:
    """The answers of joins of `game_id` by code (service.lobby): the game is the scope."""
    return Slot("join", game_id, game_id)


def spectator_slot(game_id: str) -> Slot:
    """The spectator tokens of `game_id` given to its admins (service.grants)."""
    return Slot("spectator", game_id, game_id)


def creation_slot(creator: str) -> Slot:
    """The answers of games created by `creator` (the credential's scope: "anonymous",
    "admin", "integration:<player>", "player:<sub>"); no hash tag, single-key commands."""
    return Slot("created", creator)


def seal(slot: Slot, idempotency_key: str, content: dict) -> bytes:
    """`content` (JSON-able) sealed for `slot` and `idempotency_key`: FORMAT, nonce,
    AES-GCM ciphertext bound to the Redis key name."""
    nonce = os.urandom(NONCE_BYTES)
    plain = json.dumps(content, separators=(",", ":")).encode()
    aad = slot.redis_key(idempotency_key).encode()
    return FORMAT + nonce + slot.cipher(idempotency_key).encrypt(nonce, plain, aad)


def unseal(slot: Slot, idempotency_key: str, sealed: bytes) -> dict:
    """What `seal` sealed. Raises IdempotencyKeyReused when it cannot be opened with this key
    (not a sealed value of this slot and key: it stands for no request of this client)."""
    body = sealed[len(FORMAT):]
    try:
        if not sealed.startswith(FORMAT):
            raise InvalidTag
        aad = slot.redis_key(idempotency_key).encode()
        plain = slot.cipher(idempotency_key).decrypt(body[:NONCE_BYTES], body[NONCE_BYTES:], aad)
    except InvalidTag:
        raise IdempotencyKeyReused(idempotency_key) from None
    return json.loads(plain)


def keep(client: redis.Redis, slot: Slot, idempotency_key: str, answer: dict,
         fingerprint: str = "", only_new: bool = False) -> bool:
    """Keep `answer` sealed for IDEMPOTENCY_TTL_S seconds, with the `fingerprint` of its
    request. With `only_new`, only if no answer is kept there yet. Returns whether it was
    written. Raises StoreUnavailable."""
    value = seal(slot, idempotency_key, {"fingerprint": fingerprint, "answer": answer})
    with backend_errors():
        written = client.set(slot.redis_key(idempotency_key), value, ex=IDEMPOTENCY_TTL_S,
                             nx=only_new)
    return bool(written)


def kept(client: redis.Redis, slot: Slot, idempotency_key: str,
         fingerprint: str = "") -> dict | None:
    """The answer kept for `idempotency_key`, or None (none yet, or still being made by
    `once`). Raises IdempotencyKeyReused (kept for another fingerprint), StoreUnavailable."""
    with backend_errors():
        raw = client.get(slot.redis_key(idempotency_key))
    if raw is None:
        return None
    content = unseal(slot, idempotency_key, raw)
    if content["fingerprint"] != fingerprint:  # the caller holds the key: nothing to time
        raise IdempotencyKeyReused(idempotency_key)
    return content.get("answer")


def once(client: redis.Redis, slot: Slot, idempotency_key: str, fingerprint: str,
         produce: Callable[[], dict], wait_s: float = ANSWER_WAIT_S,
         claim_ms: int = CLAIM_MS) -> dict:
    """`produce()` once per `idempotency_key` in `slot`: the first request claims the key
    (a sealed claim for `claim_ms`: longer than `produce` may take, or a retry would produce
    a second answer), produces the answer and keeps it sealed; a retry (or a racing
    request) with the same `fingerprint` gets that answer, waiting up to `wait_s` seconds
    while the first is carried out. A request whose `produce` raises drops its claim, so its
    retry is carried out afresh. Raises IdempotencyKeyReused (another fingerprint, at once),
    IdempotencyInProgress (still being carried out after the wait), StoreUnavailable, and
    what `produce` raises."""
    claim = seal(slot, idempotency_key, {"fingerprint": fingerprint,
                                         "claim": secrets.token_hex(8)})
    where, ends = slot.redis_key(idempotency_key), time.monotonic() + wait_s
    while True:
        with backend_errors():
            if client.set(where, claim, nx=True, px=claim_ms):
                break
        answer = kept(client, slot, idempotency_key, fingerprint)
        if answer is not None:
            return answer
        if time.monotonic() >= ends:
            raise IdempotencyInProgress(idempotency_key, 1)
        time.sleep(POLL_S)
    try:
        answer = produce()
    except BaseException:
        with contextlib.suppress(StoreError), backend_errors():  # else the claim lapses
            client.eval(_RELEASE, 1, where, claim)
        raise
    keep(client, slot, idempotency_key, answer, fingerprint)
    return answer
