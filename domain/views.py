"""Views of the game for a seat, the public and the admin, and per-seat event redaction.

Hidden information is a security property: no seat view, public view or redacted event
reveals another seat's hand, a stock card drawn by another seat, another seat's penalty card,
the deck order or a rebuilt stock order (DESIGN.md principle 4).
"""
from __future__ import annotations

import copy
from collections.abc import ItemsView, Iterator, KeysView, ValuesView
from functools import lru_cache
from typing import Callable

from domain.awaiting import awaiting
from domain.cards import RANK_NUMBERS, SUITS, full_deck
from domain.deal import deal_from_deck
from domain.decide_claims import waiting_for_claim
from domain.legal import legal_actions
from domain.lobby import lobby_view
from domain.offers import waiting_for
from domain.profile import RuleProfile
from domain.state import GameState, RoundState


def card_order(code: str) -> tuple[int, int]:
    """Sort key for showing cards: by suit (C D H S), then rank A..K; jokers last."""
    if code == "JK":
        return (len(SUITS), 0)
    return (SUITS.index(code[-1]), RANK_NUMBERS[code[:-1]])


_ORDER = {code: card_order(code) for code in full_deck()}


def shown(cards: tuple[str, ...]) -> list[str]:
    """`cards` (a hand) sorted as `card_order` shows them (a new list each call)."""
    return list(_shown(tuple(cards)))


@lru_cache(maxsize=256)  # a seat's hand is shown at every decision until it changes
def _shown(cards: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=_ORDER.__getitem__))


# Each entry of a view is one function of (state, round or empty table, seat or None), so a
# view can be built whole (`public_view`, `seat_view`) or read lazily (`SeatView`).
Entry = Callable[[GameState, RoundState, "int | None"], object]

_PUBLIC: dict[str, Entry] = {
    "round": lambda state, rnd, _: rnd.number or None,
    "profile": lambda state, rnd, _: state.profile.as_json,
    "contract": lambda state, rnd, _: (
        state.profile.as_json["contracts"][state.profile.contract_index(rnd.number)]
        if rnd.number else []),
    "dealer": lambda state, rnd, _: rnd.dealer,
    "status": lambda state, rnd, _: state.status,
    "turn": lambda state, rnd, _: awaiting(state).turn,
    "phase": lambda state, rnd, _: awaiting(state).phase,
    "awaiting": lambda state, rnd, _: awaiting(state).to_json(),
    "hand_sizes": lambda state, rnd, _: [len(hand) for hand in rnd.hands],
    "melds": lambda state, rnd, _: [{"index": i, "owner": m.owner, "kind": m.kind,
                                     "cards": list(m.cards)} for i, m in enumerate(rnd.melds)],
    "opened": lambda state, rnd, _: list(rnd.opened),
    "discard_top": lambda state, rnd, _: rnd.discard[-1] if rnd.discard else None,
    "discard_size": lambda state, rnd, _: len(rnd.discard),
    "discard_pile": lambda state, rnd, _: list(rnd.discard),
    "stock_size": lambda state, rnd, _: len(rnd.stock),
    "offer": lambda state, rnd, _: _offer(state),
    "claim": lambda state, rnd, _: _claim(state),
    "taken_from_discard": lambda state, rnd, _: rnd.taken_from_discard,
    "discard_taken": lambda state, rnd, _: [list(cards) for cards in rnd.discard_taken],
    "scores": lambda state, rnd, _: list(state.totals),
    "round_scores": lambda state, rnd, _: [list(scores) for scores in state.round_scores],
    "turns_this_round": lambda state, rnd, _: rnd.turns,
    "winners": lambda state, rnd, _: None if state.winners is None else list(state.winners),
    "round_end": lambda state, rnd, _: (None if rnd.end_reason is None
                                        else {"winner": rnd.winner, "reason": rnd.end_reason}),
    "clock": lambda state, rnd, _: None if state.clock is None else dict(state.clock.__dict__),
    "taken_over": lambda state, rnd, _: [None if t is None else dict(t.__dict__)
                                         for t in state.taken_over],
    "timeouts": lambda state, rnd, _: list(state.timeouts),
    "lobby": lambda state, rnd, _: lobby_view(state),
}

_SEAT: dict[str, Entry] = {
    "seat": lambda state, rnd, seat: seat,
    **_PUBLIC,
    "hand": lambda state, rnd, seat: shown(rnd.hands[seat]),
    "legal_actions": lambda state, rnd, seat: legal_actions(state, seat),
}


def public_view(state: GameState) -> dict:
    """The table as everyone may see it: no hand contents, no stock order.

    Keys as docs/architecture.md §1 Views, plus `round_end` ({"winner", "reason"} once the
    round ended, else None), the seat control of the clock (`clock`: its settings or None;
    `taken_over`: per seat None or {"level", "reason"}; `timeouts`: per seat its consecutive
    turn timeouts) and `discard_taken` (per seat, the cards it took from the discard
    pile this round, drawn or bought, oldest first: public history, never a penalty card).
    """
    rnd = _round_or_none_dealt(state)
    return {key: entry(state, rnd, None) for key, entry in _PUBLIC.items()}


def _round_or_none_dealt(state: GameState) -> RoundState:
    """The current round, or an empty table before the first deal (GameCreated alone)."""
    if state.round is not None:
        return state.round
    return RoundState(number=0, dealer=None, turn=None, phase=None,
                      hands=((),) * state.seats, opened=(None,) * state.seats,
                      discard_taken=((),) * state.seats)


def seat_view(state: GameState, seat: int) -> dict:
    """What `seat` sees: the public view plus its own hand (sorted) and its legal actions."""
    return dict(SeatView(state, seat))


class SeatView(dict):
    """`seat_view(state, seat)` as a mapping whose entries are computed when first read.

    A bot reads a few entries per decision (rarely the whole table), so the in-process loop
    (`domain.simulation`) hands it this instead of the full dict. Each entry is computed once
    and kept: safe because the state is frozen. `dict(SeatView(state, seat))` is the seat view.
    A dict subclass, so that an entry read again is a plain dict lookup, with the entries
    nearly every decision reads (seat, profile, round, opened, legal actions) stored at
    once: lazy reads cost more than building them (bench/README.md, third pass). `keys`, iteration,
    `in`, `get`, `items`, `values`, `len` and `==` act on the whole view, read or not.

    The object has no attribute holding the state: only the closure made by `_lazy_entries`
    refers to it, so the mapping interface reveals nothing beyond the seat view. Python cannot
    wall off code in one process (closure or frame introspection still reaches the state), so
    an in-process bot is trusted code (docs/bots.md).
    """

    __slots__ = ("_entry",)

    def __init__(self, state: GameState, seat: int) -> None:
        rnd = _round_or_none_dealt(state)
        self["seat"] = seat
        self["profile"] = state.profile.as_json
        self["round"] = rnd.number or None
        self["opened"] = list(rnd.opened)
        self["legal_actions"] = legal_actions(state, seat)   # every bot reads it first
        self._entry = _lazy_entries(state, rnd, seat)

    def __missing__(self, key: str) -> object:
        value = self[key] = self._entry(key)   # KeyError for a key the view has not
        return value

    def get(self, key: str, default: object = None) -> object:
        """The entry `key`, or `default` when the view has none."""
        return self[key] if key in _SEAT else default

    def __contains__(self, key: object) -> bool:
        return key in _SEAT

    def __iter__(self) -> Iterator[str]:
        return iter(_SEAT)

    def __len__(self) -> int:
        return len(_SEAT)

    def keys(self) -> KeysView:
        return KeysView(self)

    def items(self) -> ItemsView:
        return ItemsView(self)

    def values(self) -> ValuesView:
        return ValuesView(self)

    def __eq__(self, other: object) -> bool:
        return dict(self.items()) == other

    def __ne__(self, other: object) -> bool:
        return not self == other


def _lazy_entries(state: GameState, rnd: RoundState, seat: int) -> Callable[[str], object]:
    """key -> that entry of `seat`'s view (KeyError if none)."""
    def entry(key: str) -> object:
        return _SEAT[key](state, rnd, seat)
    return entry


def full_view(state: GameState) -> dict:
    """Everything, every hand and the stock (top first): for a finished game or the admin."""
    rnd = _round_or_none_dealt(state)
    return {**public_view(state), "hands": [shown(h) for h in rnd.hands],
            "stock": list(rnd.stock), "seed": state.seed}


def _claim(state: GameState) -> dict | None:
    rnd = state.round
    claim = None if rnd is None else rnd.claim
    if claim is None:
        return None
    return {"card": claim.card, "discarder": claim.discarder,
            "waiting_for": list(waiting_for_claim(claim, rnd, state.seats)),
            "claimers": [request[0] for request in claim.claims], "passed": list(claim.passed)}


def _offer(state: GameState) -> dict | None:
    rnd = state.round
    offer = None if rnd is None else rnd.offer
    if offer is None:
        return None
    return {"card": offer.card, "active_seat": rnd.turn,
            "waiting_for": list(waiting_for(offer, rnd.turn, state.seats)),
            "buyers": list(offer.buyers), "passed": list(offer.passed), "barred": offer.barred}


def redact(event: dict, seat: int | None, profile: RuleProfile | None = None) -> dict:
    """The serialized `event` as `seat` may see it (None: the public); a new dict.

    Hides: the seed (GameCreated); other hands and the stock (PositionLoaded); the deck
    (RoundDealt: a seat sees its own dealt hand, everyone the upcard and the sizes, dealt as
    the game's `profile` says, default standard; DeckShuffled: only its size); a stock card
    drawn by another seat (CardDrawn); another seat's penalty cards (CardBought,
    PenaltyCardTaken); the card a claimer gave its discarder to anyone else (CardClaimed);
    the new stock order (StockRebuilt: its size stays).
    """
    hide = _HIDERS.get(event["type"])
    if hide is None:
        return copy.deepcopy(event)
    if hide is _round_dealt:
        return {**event, "data": _round_dealt(event["data"], seat, profile or RuleProfile())}
    return {**event, "data": hide(copy.deepcopy(event["data"]), seat)}


def _game_created(data: dict, seat: int | None) -> dict:
    return {**data, "seed": None}


def _position_loaded(data: dict, seat: int | None) -> dict:
    position = data["position"]
    hands = position["hands"]
    return {"position": {**position, "hands": [h if s == seat else None
                                                for s, h in enumerate(hands)],
                         "hand_sizes": [len(h) for h in hands],
                         "stock": None, "stock_size": len(position["stock"])}}


def _round_dealt(data: dict, seat: int | None, profile: RuleProfile) -> dict:
    hands, discard, stock = deal_from_deck(tuple(data["deck"]), data["dealer"], profile.players,
                                           profile.deal_size(data["round"]))
    return {"round": data["round"], "dealer": data["dealer"],
            "hand": None if seat is None else shown(hands[seat]),
            "hand_sizes": [len(h) for h in hands], "upcard": discard[0] if discard else None,
            "stock_size": len(stock)}


def _card_drawn(data: dict, seat: int | None) -> dict:
    if data["source"] == "stock" and data["seat"] != seat:
        return {**data, "card": None}
    return data


def _card_bought(data: dict, seat: int | None) -> dict:
    return data if data["seat"] == seat else {**data, "penalty": None}


def _deck_shuffled(data: dict, seat: int | None) -> dict:
    return {"round": data["round"], "dealer": data["dealer"], "deck": None,
            "deck_size": len(data["deck"])}


def _penalty_card_taken(data: dict, seat: int | None) -> dict:
    return data if data["seat"] == seat else {**data, "card": None}


def _card_claimed(data: dict, seat: int | None) -> dict:
    return data if seat in (data["seat"], data["discarder"]) else {**data, "given": None}


def _stock_rebuilt(data: dict, seat: int | None) -> dict:
    return {"stock": None, "stock_size": len(data["stock"]), "discard": data["discard"]}


_HIDERS = {
    "GameCreated": _game_created,
    "PositionLoaded": _position_loaded,
    "RoundDealt": _round_dealt,
    "CardDrawn": _card_drawn,
    "CardBought": _card_bought,
    "StockRebuilt": _stock_rebuilt,
    "DeckShuffled": _deck_shuffled,
    "PenaltyCardTaken": _penalty_card_taken,
    "CardClaimed": _card_claimed,
}
