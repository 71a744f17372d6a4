"""FORMAT.md positions: validate and normalize, build a state from one, export a state as one.

A normalized position lists every card (the `fill` is resolved) and carries keys beyond
FORMAT.md so that any state of a round in play round-trips: `offer` (an open buy offer with
`barred`, `buyers`, `passed`), `claim` (an open Shanghai claim with `card`, `discarder`,
`claims`, `passed`, R11.18), `turns_this_round` (R10.4), `round_scores` (earlier rounds),
`discard_taken` (per seat, the cards it took from the discard pile this round, oldest first;
default: none) and `cut_bonus_seat` (the exact cutter of this deal, R11.19). The profile (a
preset name or options, R11.20) sets the seats and the deck (R11.1-R11.3).
"""
from __future__ import annotations

import random
from collections import Counter

from domain.cards import full_deck, parse_card, physical_card
from domain.deal import deal_from_deck
from domain.errors import MalformedAction
from domain.melds import make_meld
from domain.positions_variants import claim_field, claim_state, count_field, per_seat_counts
from domain.profile import MAX_PLAY_OFFS, RuleProfile
from domain.state import (
    BUYING, CLAIM, CUT, DRAW, PLAY, PLAYING, GameState, Offer, RoundState,
)

_PHASES = (DRAW, PLAY, BUYING, CLAIM, CUT)
_OPENED = (None, "earlier", "this_turn")


def normalize_position(position: dict, rng: random.Random | None = None) -> dict:
    """Validate a FORMAT.md position and return it with every card listed (R1.4).

    A fresh deal ``{"deal": {"round", "dealer", "scores"?}}`` is shuffled with `rng` (default
    ``random.Random(0)``) and dealt as R2.3 says. The cards the position does not list go
    under the listed stock (or discard pile, `fill`), shuffled with `rng` when one is given
    (R2.3: no one may know the stock's order), in deck order without one.

    Raises ValueError (MalformedAction for a bad card code, RuleViolation from R3 for an
    invalid meld, UnsupportedProfile for a profile this engine does not play) when the
    position is not consistent (107 cards placed once) or malformed (a missing key, a value
    of the wrong type: never another exception).
    """
    if not isinstance(position, dict):
        raise ValueError("a position is an object (FORMAT.md)")
    profile = RuleProfile.from_json(position.get("profile", "standard"))
    if "deal" in position:
        deal = position["deal"]
        if not isinstance(deal, dict):
            raise ValueError('"deal" is an object {"round", "dealer", "scores"?}')
        return _dealt_position(deal, profile, rng or random.Random(0))
    for key in ("round", "dealer", "turn", "hands"):
        if key not in position:
            raise ValueError(f"a position needs {key!r} (FORMAT.md)")
    for key in ("hands", "melds", "discard", "stock"):
        if not isinstance(position.get(key, []), list):
            raise ValueError(f"{key!r} is a list")
    if any(not isinstance(hand, list) for hand in position["hands"]):
        raise ValueError("each hand is a list of card codes")
    if position.get("fill", "stock") not in ("stock", "discard"):
        raise ValueError("fill is 'stock' or 'discard'")
    table = _table_fields(position, profile)
    hands = [list(_cards(hand, "hand")) for hand in position["hands"]]
    if table["phase"] != CUT and not all(hands):  # the hands are dealt after the cut
        raise ValueError("every hand holds a card once the round is dealt: a seat with none "
                         "has gone out, which ends the round (R5.6, R5.7, R8.2)")
    melds = [_meld(meld, profile) for meld in position.get("melds", [])]
    discard, stock = _cards(position.get("discard", []), "discard"), _cards(
        position.get("stock", []), "stock")
    rest = _unplaced(hands, melds, discard, stock, profile)
    if rng is not None:  # the unlisted cards' order must not be known: it is the stock's
        rng.shuffle(rest)
    if position.get("fill", "stock") == "discard":
        discard = rest + discard
    else:
        stock = stock + rest
    return {"profile": profile.to_json(), **table, "hands": hands, "melds": melds,
            "discard": discard, "stock": stock, "fill": "stock"}


def state_from_position(position: dict) -> GameState:
    """Build the state of a normalized position (see `normalize_position`; no checks here)."""
    offer = position.get("offer")
    profile = RuleProfile.from_json(position["profile"])
    seats = len(position["hands"])
    rnd = RoundState(
        number=position["round"], dealer=position["dealer"], turn=position["turn"],
        phase=position["phase"], hands=tuple(tuple(sorted(h)) for h in position["hands"]),
        melds=tuple(make_meld(m["owner"], m["cards"], profile.meld_rules)
                    for m in position["melds"]),
        opened=tuple(position["opened"]), stock=tuple(position["stock"]),
        discard=tuple(position["discard"]), taken_from_discard=position["taken_from_discard"],
        offer=None if offer is None else _offer_state(offer, position, profile),
        turns=position["turns_this_round"],
        discard_taken=tuple(tuple(cards) for cards in
                            position.get("discard_taken") or [[]] * seats),
        purchases=tuple(position.get("purchases") or (0,) * seats),
        rebuilds=position.get("rebuilds", 0), claim=claim_state(position.get("claim")),
        cut_bonus_seat=position.get("cut_bonus_seat"))
    return GameState(profile=profile, seats=seats, taken_over=(None,) * seats,
                     timeouts=(0,) * seats,
                     status=PLAYING, round=rnd, totals=tuple(position["scores"]),
                     round_scores=tuple(tuple(s) for s in position["round_scores"]))


def export_position(state: GameState) -> dict:
    """Return the normalized position of a round in play (lossless with `start_from_position`).

    Raises ValueError when no round is in play (the round ended, or the game did).
    """
    rnd = state.round
    if state.status != PLAYING or rnd is None or rnd.phase not in _PHASES:
        raise ValueError("only a round in play can be exported as a position")
    offer = rnd.offer
    claim = rnd.claim
    return {
        "profile": state.profile.to_json(), "round": rnd.number, "dealer": rnd.dealer,
        "turn": rnd.turn, "phase": rnd.phase, "taken_from_discard": rnd.taken_from_discard,
        "scores": list(state.totals), "round_scores": [list(s) for s in state.round_scores],
        "turns_this_round": rnd.turns, "opened": list(rnd.opened),
        "discard_taken": [list(cards) for cards in rnd.discard_taken],
        "offer": None if offer is None else {"card": offer.card, "barred": offer.barred,
                                             "buyers": list(offer.buyers),
                                             "passed": list(offer.passed)},
        "claim": None if claim is None else {
            "card": claim.card, "discarder": claim.discarder,
            "claims": [list(request) for request in claim.claims],
            "passed": list(claim.passed)},
        "purchases": list(rnd.purchases), "rebuilds": rnd.rebuilds,
        "cut_bonus_seat": rnd.cut_bonus_seat,
        "hands": [list(hand) for hand in rnd.hands],
        "melds": [{"owner": m.owner, "cards": list(m.cards)} for m in rnd.melds],
        "discard": list(rnd.discard), "stock": list(rnd.stock), "fill": "stock",
    }


def _dealt_position(deal: dict, profile: RuleProfile, rng: random.Random) -> dict:
    seats = profile.players
    number = _round_number(deal.get("round", 1), profile)
    dealer = _seat(deal.get("dealer", 0), "dealer", seats)
    deck = list(full_deck(profile.packs, profile.jokers))
    rng.shuffle(deck)
    if profile.cut_bonus:  # R11.19: the shuffled deck waits for the cut
        hands, discard, stock = ((),) * seats, (), tuple(deck)
        phase, turn = CUT, (dealer - 1) % seats
    else:
        hands, discard, stock = deal_from_deck(tuple(deck), dealer, seats,
                                               profile.deal_size(number))
        phase, turn = DRAW, (dealer + 1) % seats
    return {"profile": profile.to_json(), "round": number, "dealer": dealer,
            "turn": turn, "phase": phase, "taken_from_discard": None,
            "scores": _scores(deal.get("scores"), "scores", profile), "round_scores": [],
            "turns_this_round": 1, "opened": [None] * seats,
            "discard_taken": [[] for _ in range(seats)], "offer": None, "claim": None,
            "purchases": [0] * seats, "rebuilds": 0, "cut_bonus_seat": None,
            "hands": [list(h) for h in hands], "melds": [], "discard": list(discard),
            "stock": list(stock), "fill": "stock"}


def _table_fields(position: dict, profile: RuleProfile) -> dict:
    seats = profile.players
    phase = position.get("phase", DRAW)
    if phase not in _PHASES:
        raise ValueError(f"phase is one of {_PHASES}, not {phase!r}")
    opened = _list(position.get("opened") or [None] * seats, "opened")
    if len(opened) != seats or any(o not in _OPENED for o in opened):
        raise ValueError(f"opened lists null, 'earlier' or 'this_turn' for each of {seats} "
                         f"seats")
    if len(position.get("hands", ())) != seats:
        raise ValueError(f"a position lists {seats} hands, one per player (R1.1, R11.1)")
    offer = position.get("offer")
    if (phase == BUYING) != (offer is not None):
        raise ValueError("an offer is open exactly when the phase is 'buying'")
    taken = position.get("taken_from_discard")
    return {
        "round": _round_number(position["round"], profile),
        "dealer": _seat(position["dealer"], "dealer", seats),
        "turn": _seat(position["turn"], "turn", seats), "phase": phase,
        "taken_from_discard": None if taken is None else _cards([taken], "taken_from_discard")[0],
        "scores": _scores(position.get("scores"), "scores", profile),
        "round_scores": [_scores(s, "each of round_scores", profile)
                         for s in _list(position.get("round_scores", []), "round_scores")],
        "turns_this_round": _turns(position.get("turns_this_round", 1)), "opened": opened,
        "discard_taken": _discard_taken(position.get("discard_taken"), seats),
        "offer": None if offer is None else _offer(offer, seats),
        "claim": claim_field(position.get("claim"), phase == CLAIM, seats),
        "purchases": per_seat_counts(position.get("purchases"), "purchases", seats),
        "rebuilds": count_field(position.get("rebuilds", 0), "rebuilds"),
        "cut_bonus_seat": None if position.get("cut_bonus_seat") is None
        else _seat(position["cut_bonus_seat"], "cut_bonus_seat", seats),
    }


def _discard_taken(value: object, seats: int) -> list[list[str]]:
    """Per seat, the cards it took from the discard pile this round (None: none yet)."""
    if value is None:
        return [[] for _ in range(seats)]
    if not isinstance(value, list) or len(value) != seats:
        raise ValueError(f"discard_taken lists one list of card codes per seat ({seats}), "
                         f"not {value!r}")
    return [_cards(cards, "discard_taken") for cards in value]


def _offer(offer: object, seats: int) -> dict:
    if not isinstance(offer, dict) or "card" not in offer:
        raise ValueError('offer is an object {"card", "barred"?, "buyers"?, "passed"?}')
    barred = offer.get("barred")
    return {"card": _cards([offer["card"]], "offer")[0],
            "barred": None if barred is None else _seat(barred, "offer barred", seats),
            "buyers": [_seat(s, "offer buyer", seats)
                       for s in _list(offer.get("buyers", []), "buyers")],
            "passed": [_seat(s, "offer passed", seats)
                       for s in _list(offer.get("passed", []), "passed")]}


def _offer_state(offer: dict, position: dict, profile: RuleProfile) -> Offer:
    cap = profile.purchases_per_player_per_round
    counts = position.get("purchases") or ()
    capped = () if cap is None else tuple(s for s, n in enumerate(counts) if n >= cap)
    return Offer(offer["card"], offer["barred"], tuple(offer["buyers"]),
                 tuple(offer["passed"]), capped)


def _list(value: object, name: str) -> list:
    if not isinstance(value, list):
        raise ValueError(f"{name} is a list, not {value!r}")
    return list(value)


def _int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _scores(value: object, name: str, profile: RuleProfile) -> list[int]:
    """Totals or one round's scores: one int per seat (R9.1-R9.3), non-negative unless a cut
    bonus may take them below zero: by at most the bonus once a round, play-offs included
    (R11.19, R11.16); None: zeros."""
    seats = profile.players
    least = -profile.cut_bonus * (profile.rounds + MAX_PLAY_OFFS)
    if value is None:
        return [0] * seats
    if (not isinstance(value, list) or len(value) != seats
            or not all(_int(v) and v >= least for v in value)):
        raise ValueError(f"{name} lists one integer per seat ({seats}), none below {least} "
                         f"(the cut bonus once a round), not {value!r}")
    return list(value)


def _turns(value: object) -> int:
    if not _int(value) or value < 1:
        raise ValueError(f"turns_this_round is an integer >= 1, not {value!r}")
    return value


def _round_number(value: object, profile: RuleProfile) -> int:
    last = profile.rounds + (MAX_PLAY_OFFS if profile.ties == "play_off" else 0)
    if not _int(value) or not 1 <= value <= last:
        raise ValueError(f"round is 1-{last}, not {value!r}")
    return value


def _seat(value: object, name: str, seats: int) -> int:
    if not _int(value) or not 0 <= value < seats:
        raise ValueError(f"{name} is a seat 0-{seats - 1}, not {value!r}")
    return value


def _cards(cards: list, where: str) -> list[str]:
    if not isinstance(cards, list):
        raise ValueError(f"{where} is a list of card codes")
    try:
        return [parse_card(card) for card in cards]
    except (TypeError, ValueError) as exc:
        raise MalformedAction("R1.2", f"{where}: {exc}") from None


def _meld(meld: object, profile: RuleProfile) -> dict:
    if (not isinstance(meld, dict) or not isinstance(meld.get("cards"), list)
            or not all(isinstance(card, str) for card in meld["cards"])):
        raise ValueError('a meld is an object {"owner", "cards": [card codes]}')
    owner = _seat(meld.get("owner"), "meld owner", profile.players)
    return {"owner": owner,
            "cards": list(make_meld(owner, meld["cards"], profile.meld_rules).cards)}


def _unplaced(hands: list, melds: list, discard: list, stock: list,
              profile: RuleProfile) -> list[str]:
    placed = Counter(card for hand in hands for card in hand)
    placed.update(physical_card(c) for m in melds for c in m["cards"])
    placed.update(discard)
    placed.update(stock)
    full = full_deck(profile.packs, profile.jokers)
    deck = Counter(full)
    extra = placed - deck
    if extra:
        raise ValueError(f"cards placed more often than the deck holds them (R1.2, R1.4, "
                         f"R11.3): {sorted(extra.elements())}")
    rest = deck - placed
    return [card for card in dict.fromkeys(full) for _ in range(rest[card])]
