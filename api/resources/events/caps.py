"""The caps on one caller's concurrent SSE streams and long polls (docs/streams.md "Caps").

A caller with a bearer token is counted by that token (so a mobile backend relaying many
players from one address is counted per player); an anonymous caller by its client address.
Beyond the cap: 429 problem+json with `Retry-After`. The counts live in Redis
(service.stream_leases), shared by every API process.
"""
from __future__ import annotations

import logging
import time

from flask import current_app, request

from api.auth import bearer_token, service
from api.player_auth import rate_credential
from api.errors import ApiProblem
from service.store import StoreError
from service.stream_leases import StreamLeases, address_holder, credential_holder

log = logging.getLogger(__name__)
RETRY_AFTER_S = 10  # a held stream lasts minutes: no point asking sooner


class Slot:
    """One held place under the caller's cap: renew it while the connection lives, release it
    when it closes. Redis errors after the acquisition are logged, never raised: the lease
    then expires on its own."""

    def __init__(self, leases: StreamLeases | None, holder: str, lease: str | None) -> None:
        self._leases, self._holder, self._lease = leases, holder, lease
        # A lease reused warm (service.stream_leases) was renewed before this connection.
        self._renewed = (leases.renewed_at(lease) if leases and lease else None) \
            or time.monotonic()

    def renew_if_due(self) -> None:
        """Renew the lease once half of it has run."""
        if self._leases is None or self._lease is None:
            return
        if time.monotonic() - self._renewed < self._leases.lease_s / 2:
            return
        self._renewed = time.monotonic()
        try:
            self._leases.renew(self._holder, self._lease)
        except StoreError:
            log.warning("stream lease of %s not renewed", self._holder.split(":")[0])

    def release(self) -> None:
        """Give the place back (once; later calls do nothing)."""
        if self._leases is None or self._lease is None:
            return
        lease, self._lease = self._lease, None
        try:
            self._leases.release(self._holder, lease)
        except StoreError:
            log.warning("stream lease of %s not released; it expires", self._holder.split(":")[0])


def take_slot() -> Slot:
    """A place under the calling credential's cap (RUMMY_MAX_STREAMS_PER_CREDENTIAL), or, for
    an anonymous caller, under its address's (RUMMY_MAX_STREAMS_PER_IP). Raises ApiProblem 429
    with Retry-After when the caller is at its cap; StoreUnavailable when Redis is down."""
    leases: StreamLeases | None = service().leases
    bearer, player = bearer_token(), rate_credential(bearer_token())
    if player is not None:  # a player acted for (docs/players.md): counted per player
        holder, cap = credential_holder(player), "RUMMY_MAX_STREAMS_PER_CREDENTIAL"
    elif bearer is not None:
        holder, cap = credential_holder(bearer), "RUMMY_MAX_STREAMS_PER_CREDENTIAL"
    else:
        holder, cap = address_holder(request.remote_addr or "unknown"), "RUMMY_MAX_STREAMS_PER_IP"
    limit = current_app.config[cap]
    if leases is None:
        return Slot(None, holder, None)
    lease = leases.acquire(holder, limit)
    if lease is None:
        who = ("This credential already holds" if player or bearer is not None
               else "Anonymous callers from this address already hold")
        raise ApiProblem(429, "too-many-streams",
                         f"{who} {limit} open streams and long polls (SSE or ?wait=); close one "
                         "or retry later.",
                         {"Retry-After": str(RETRY_AFTER_S)})
    return Slot(leases, holder, lease)
