"""Settings from the environment (docs/architecture.md §3)."""
from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    """What the service is configured with.

    `redis_url`: the Redis to use (None: the caller must start an embedded one, `rummy serve`
    does). `admin_key`: the server admin key, None to refuse every admin-only request.
    `offer_deadline_s`: seconds a buy offer waits for silent seats (R6.9), > 0.
    `max_wait_s`: the longest long-poll block in seconds (the blocking pool outlasts it).
    """

    redis_url: str | None = None
    admin_key: str | None = None
    offer_deadline_s: float = 15.0
    max_wait_s: float = 60.0

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> "Settings":
        """Read REDIS_URL, RUMMY_ADMIN_KEY, RUMMY_OFFER_DEADLINE_S (empty = unset).

        Raises ValueError for a deadline that is not a positive number."""
        env = os.environ if environ is None else environ
        deadline = float(env.get("RUMMY_OFFER_DEADLINE_S") or 15)
        if not deadline > 0:
            raise ValueError(f"RUMMY_OFFER_DEADLINE_S must be > 0, not {deadline}")
        return cls(redis_url=env.get("REDIS_URL") or None,
                   admin_key=env.get("RUMMY_ADMIN_KEY") or None,
                   offer_deadline_s=deadline)
