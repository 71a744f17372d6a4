"""Validate the seats of a new game (R1.1): who sits where, human or bot (with a level), and
what a seat may be called."""
from __future__ import annotations

import unicodedata

from domain.bots import BOT_LEVELS
from service.players import with_player

MAX_NAME = 40
# A seat's kind: a human (a token at creation), a bot, or open: taken by whoever joins with the
# game's code, else played by a bot of its level once the game starts (docs/lobby.md).
KINDS = ("human", "bot", "open")
# Bidirectional embeddings, overrides (U+202A-U+202E) and isolates (U+2066-U+2069): a name
# holding one can reorder how the text after it is shown (a "right-to-left override" spoof,
# Unicode TR36 / CVE-2021-42574 "Trojan Source").
BIDI_CONTROLS = frozenset(map(chr, [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]))
_REFUSED = r"\u0000-\u001f\u007f-\u009f\ud800-\udfff\u202a-\u202e\u2066-\u2069"
# The rule as a regular expression (for the API document): no refused character, one visible.
NAME_PATTERN = rf"^[^{_REFUSED}]*[^\s{_REFUSED}][^{_REFUSED}]*$"
NAME_RULE = (f"1 to {MAX_NAME} characters after NFC normalisation and trimming, without "
             f"control characters, lone surrogates or bidirectional controls")


def seat_name(value: object) -> str:
    """The name a seat is shown under: `value` NFC-normalised (Unicode UAX #15) and trimmed
    of surrounding whitespace. Raises ValueError (a sentence naming what is wrong) unless the
    result is 1 to MAX_NAME characters with no control character (Cc: NUL, CR, LF, ...), no
    lone surrogate (Cs) and no bidi control (BIDI_CONTROLS). The one place the rule lives:
    the API's seat schema and `seat_specs` both call it."""
    if not isinstance(value, str):
        raise ValueError("a name must be a string")
    for char in value:
        category = unicodedata.category(char)
        if category == "Cc":
            raise ValueError(f"a name may not hold the control character U+{ord(char):04X}")
        if category == "Cs":
            raise ValueError(f"a name may not hold the lone surrogate U+{ord(char):04X}")
        if char in BIDI_CONTROLS:
            raise ValueError(f"a name may not hold the bidirectional control U+{ord(char):04X}")
    name = unicodedata.normalize("NFC", value).strip()
    if not name:
        raise ValueError("a name must hold a visible character, not only whitespace")
    if len(name) > MAX_NAME:
        raise ValueError(f"a name is at most {MAX_NAME} characters (this one has {len(name)})")
    return name


def seat_specs(seats: object, count: int) -> list[dict]:
    """Normalize `seats` to `[{"seat", "kind", "name", "level"}]`, one per seat, in order.

    Each entry is `{"kind": "human"|"bot"|"open", "name"?: str (see `seat_name`), "level"?:
    one of BOT_LEVELS, "player_id"?: a human seat's player (service.players.with_player)}`; a seat without a name (absent or null) is called "Player N" / "Bot N"
    / "Open N"; the level of a bot (or of the bot that fills an open seat) defaults to "basic",
    a human has none. Raises ValueError unless there are
    exactly `count` valid entries (R1.1)."""
    if not isinstance(seats, (list, tuple)) or len(seats) != count:
        raise ValueError(f"a game has exactly {count} seats (R1.1)")
    return [_spec(seat, entry) for seat, entry in enumerate(seats)]


def _spec(seat: int, entry: object) -> dict:
    if not isinstance(entry, dict) or entry.get("kind") not in KINDS:
        raise ValueError(f"seat {seat}: kind must be 'human', 'bot' or 'open'")
    kind = entry["kind"]
    if entry.get("name") is None:
        name = f"{'Bot' if kind == 'bot' else 'Open' if kind == 'open' else 'Player'} {seat + 1}"
    else:
        try:
            name = seat_name(entry["name"])
        except ValueError as error:
            raise ValueError(f"seat {seat}: name: {error}") from None
    level = entry.get("level") or (None if kind == "human" else "basic")
    if kind != "human" and level not in BOT_LEVELS:
        raise ValueError(f"seat {seat}: level must be one of {', '.join(BOT_LEVELS)}")
    if kind == "human" and level is not None:
        raise ValueError(f"seat {seat}: only a bot seat has a level")
    return with_player({"seat": seat, "kind": kind, "name": name, "level": level}, entry)
