"""Position keys of the §11 options (FORMAT.md): `purchases` (R11.9), `rebuilds` (R11.17) and
an open Shanghai `claim` (R11.18), validated and turned into state."""
from __future__ import annotations

from domain.cards import parse_card
from domain.state import Claim


def _count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def count_field(value: object, name: str) -> int:
    """A non-negative integer (e.g. `rebuilds`); ValueError otherwise."""
    if not _count(value):
        raise ValueError(f"{name} is a non-negative integer, not {value!r}")
    return value


def per_seat_counts(value: object, name: str, seats: int) -> list[int]:
    """One non-negative integer per seat (e.g. `purchases`); None: zeros; ValueError."""
    if value is None:
        return [0] * seats
    if not isinstance(value, list) or len(value) != seats or not all(map(_count, value)):
        raise ValueError(f"{name} lists one non-negative integer per seat ({seats}), "
                         f"not {value!r}")
    return list(value)


def claim_field(value: object, phase_is_claim: bool, seats: int) -> dict | None:
    """The normalized open claim `{"card", "discarder", "claims", "passed"}`, present exactly
    in phase `claim`; ValueError otherwise."""
    if phase_is_claim != (value is not None):
        raise ValueError("a claim is open exactly when the phase is 'claim' (R11.18)")
    if value is None:
        return None
    if not isinstance(value, dict) or "card" not in value or "discarder" not in value:
        raise ValueError('claim is an object {"card", "discarder", "claims"?, "passed"?}')
    try:
        card = parse_card(value["card"])
    except (TypeError, ValueError):
        raise ValueError(f"claim card {value['card']!r} is not a card code") from None
    seat_ok = lambda s: _count(s) and s < seats  # noqa: E731
    claims, passed = value.get("claims", []), value.get("passed", [])
    if (not seat_ok(value["discarder"]) or not isinstance(passed, list)
            or not all(map(seat_ok, passed)) or not isinstance(claims, list)
            or not all(isinstance(c, list) and len(c) == 4 and seat_ok(c[0]) for c in claims)):
        raise ValueError("claim: discarder and passed are seats; each of claims is "
                         "[seat, meld, card, end]")
    return {"card": card, "discarder": value["discarder"], "claims": claims, "passed": passed}


def claim_state(claim: dict | None) -> Claim | None:
    """The state's Claim of a normalized `claim` position key."""
    if claim is None:
        return None
    return Claim(claim["card"], claim["discarder"],
                 tuple(tuple(request) for request in claim["claims"]), tuple(claim["passed"]))
