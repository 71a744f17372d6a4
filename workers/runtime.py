"""The process-wide GameService of the jobs, built once per worker process from the
environment (`service.bootstrap.build_service`: REDIS_URL, RUMMY_OFFER_DEADLINE_S …) with the
RQ follow-up hook installed, so an append made by a job enqueues its follow-ups like one made
by the API. Tests install their own with `use`."""
from __future__ import annotations

from service.bootstrap import Wiring, wire
from service.config import Settings
from service.followups import install

_wiring: Wiring | None = None


def use(wiring: Wiring | None) -> None:
    """Make the jobs of this process use `wiring` (None: build from the environment again)."""
    global _wiring
    _wiring = wiring


def wiring() -> Wiring:
    """The wiring of this process's jobs (built on first use, with the RQ hook installed).
    Raises ValueError when REDIS_URL is unset."""
    global _wiring
    if _wiring is None:
        built = wire(Settings.from_env())
        install(built)
        _wiring = built
    return _wiring
