"""The compact form of an event in its stream entry (issue 12: Redis memory per finished game).

A stream entry of the full form holds `type` (the event's name), `schema` (left out when 1),
`data` (a JSON object) and `at` (service/redis_store.py). Most of a game's ~2,000-3,000
entries are small events whose name and key names are longer than their values:
`{"card":"QS","seat":1,"source":"stock"}` under `CardDrawn`. The compact form writes instead
`t`: a short code standing for (type, schema, the data's keys), `d`: the data's values as a
JSON array in the order of those keys (sorted, as the full form's JSON), `a`: the time, as
`at`. `{"seat":1,...}` of CardDrawn becomes `t=c d=["QS",1,"stock"]`.

CODES is frozen: a code, once written, must keep meaning the same (type, schema, keys)
forever, or stored streams would read wrong. A new event type or a new schema gets a new code;
until it has one, its events are written in the full form, which every reader reads too. An
event whose data has other keys than its code's (an older shape kept by an upcaster) is
written in the full form as well. Readers older than this module cannot read compact entries
(they read `type` and `data`): the processes that read a Redis (API, workers) must all run
this code before any of them writes to it.
"""
from __future__ import annotations

import json

# code -> (event type, schema, its data's keys in sorted order). Never change or reuse an
# entry (see above); add new ones.
CODES: dict[str, tuple[str, int, tuple[str, ...]]] = {
    "a": ("GameCreated", 1, ("first_dealer", "profile", "seats", "seed")),
    "b": ("RoundDealt", 1, ("dealer", "deck", "round")),
    "c": ("CardDrawn", 1, ("card", "seat", "source")),
    "d": ("CardDiscarded", 1, ("card", "seat")),
    "e": ("StockChosen", 1, ("seat",)),
    "f": ("OfferOpened", 1, ("barred", "card")),
    "g": ("BuyRequested", 1, ("seat",)),
    "h": ("BuyPassed", 1, ("seat",)),
    "i": ("OfferClosed", 1, ("buyer", "card")),
    "j": ("CardBought", 1, ("card", "penalty", "seat")),
    "k": ("ContractOpened", 1, ("melds", "seat")),
    "l": ("CardLaidOff", 1, ("card", "end", "meld", "seat")),
    "m": ("JokerSwapped", 1, ("card", "joker_card", "joker_end", "joker_to", "meld", "seat")),
    "n": ("StockRebuilt", 1, ("discard", "stock")),
    "o": ("RoundEnded", 1, ("reason", "winner")),
    "p": ("RoundScored", 1, ("round", "scores", "totals")),
    "q": ("GameEnded", 1, ("totals", "winners")),
    "r": ("ClockSet", 1, ("offer_s", "takeover_level", "timeouts_before_takeover", "turn_s")),
    "s": ("TurnTimedOut", 1, ("seat",)),
    "u": ("SeatTakenOver", 1, ("level", "reason", "seat")),
    "v": ("SeatReclaimed", 1, ("seat",)),
    "w": ("GameAborted", 1, ("reason",)),
    "x": ("PositionLoaded", 1, ("position",)),
    "y": ("ShanghaiCalled", 1, ("card", "seat")),
    "z": ("ClaimOpened", 1, ("card", "discarder")),
    "A": ("ClaimRequested", 1, ("card", "end", "meld", "seat")),
    "B": ("ClaimPassed", 1, ("seat",)),
    "C": ("ClaimClosed", 1, ("card", "claimer")),
    "D": ("CardClaimed", 1, ("card", "discarder", "end", "given", "meld", "seat")),
    "E": ("PenaltyCardTaken", 1, ("card", "seat")),
    "F": ("DeckShuffled", 1, ("dealer", "deck", "round")),
    "G": ("DeckCut", 1, ("count", "exact", "lifted", "seat")),
    "H": ("SeatsOpened", 1, ("auto_start", "dealer", "levels")),
    "I": ("SeatJoined", 1, ("name", "seat")),
    "J": ("GameStarted", 1, ("by",)),
    "K": ("LobbyExpired", 1, ()),
}
_BY_TYPE = {(name, schema): (code, keys, frozenset(keys))
            for code, (name, schema, keys) in CODES.items()}
# The data's values in one JSON array; nested objects sorted like the full form's.
_encode = json.JSONEncoder(separators=(",", ":"), sort_keys=True).encode


def compact(event_type: str, schema: int, data: dict) -> tuple[str, str] | None:
    """(code, JSON array of the values) of an event, or None when it has no code: a type or
    schema CODES does not know, or data whose keys are not its code's."""
    known = _BY_TYPE.get((event_type, schema))
    if known is None:
        return None
    code, keys, key_set = known
    if data.keys() != key_set:
        return None
    return code, _encode([data[key] for key in keys])


def expand(code: bytes | str, values: bytes | str) -> tuple[str, int, dict]:
    """(type, schema, data) of a compact entry's code and values. Raises ValueError for a
    code this version does not know (written by a newer one)."""
    name = code.decode() if isinstance(code, bytes) else code
    try:
        event_type, schema, keys = CODES[name]
    except KeyError:
        raise ValueError(f"unknown compact event code {name!r} (written by a newer "
                         "version?)") from None
    return event_type, schema, dict(zip(keys, json.loads(values)))
