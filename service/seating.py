"""Validate the seats of a new game (R1.1): who sits where, human or bot (with a level)."""
from __future__ import annotations

from domain.bots import BOT_LEVELS

MAX_NAME = 40


def seat_specs(seats: object, count: int) -> list[dict]:
    """Normalize `seats` to `[{"seat", "kind", "name", "level"}]`, one per seat, in order.

    Each entry is `{"kind": "human"|"bot", "name"?: str (1-40 chars), "level"?: one of
    BOT_LEVELS}`; a bot's level defaults to "basic", a human has none. Raises ValueError
    unless there are exactly `count` valid entries (R1.1)."""
    if not isinstance(seats, (list, tuple)) or len(seats) != count:
        raise ValueError(f"a game has exactly {count} seats (R1.1)")
    return [_spec(seat, entry) for seat, entry in enumerate(seats)]


def _spec(seat: int, entry: object) -> dict:
    if not isinstance(entry, dict) or entry.get("kind") not in ("human", "bot"):
        raise ValueError(f"seat {seat}: kind must be 'human' or 'bot'")
    kind = entry["kind"]
    name = entry.get("name") or f"{'Bot' if kind == 'bot' else 'Player'} {seat + 1}"
    if not isinstance(name, str) or len(name) > MAX_NAME:
        raise ValueError(f"seat {seat}: name must be a string of at most {MAX_NAME} characters")
    level = entry.get("level") or ("basic" if kind == "bot" else None)
    if kind == "bot" and level not in BOT_LEVELS:
        raise ValueError(f"seat {seat}: level must be one of {', '.join(BOT_LEVELS)}")
    if kind == "human" and level is not None:
        raise ValueError(f"seat {seat}: only a bot seat has a level")
    return {"seat": seat, "kind": kind, "name": name, "level": level}
