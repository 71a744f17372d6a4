"""Contract Rummy rules as a pure library (standard library only; randomness injected).

    import random
    from domain import RuleProfile, awaiting, decide, fold, seat_view, start_game
    rng = random.Random(7)
    state = fold(start_game(RuleProfile(), 4, rng))        # GameCreated + RoundDealt
    seat = awaiting(state).turn                             # the seat left of the dealer
    state = fold(decide(state, seat, {"type": "draw", "from": "stock"}, rng), state)
    print(seat_view(state, seat)["awaiting"])               # others may buy the upcard

`domain.simulation.play_game` plays whole games of bots; docs/architecture.md §1 lists the
public names.
"""
from domain.awaiting import Awaiting, awaiting
from domain.bots import BOT_LEVELS, choose_action
from domain.cards import (
    JOKER, RANKS, SUITS, card_points, full_deck, is_joker, parse_card, rank_of, suit_of,
)
from domain.conformance import CaseResult, run_case
from domain.contracts import CONTRACTS, DEAL_SIZES, check_opening
from domain.decide import decide, start_from_position, start_game
from domain.errors import MalformedAction, RuleViolation
from domain.events import (
    Event, event_from_dict, event_to_dict, register_upcaster,
    BuyPassed, BuyRequested, CardBought, CardDiscarded, CardDrawn, CardLaidOff, ContractOpened,
    GameCreated, GameEnded, JokerSwapped, OfferClosed, OfferOpened, PositionLoaded,
    RoundDealt, RoundEnded, RoundScored, StockChosen, StockRebuilt,
    ClockSet, GameAborted, SeatReclaimed, SeatTakenOver, TurnTimedOut,
)
from domain.control import bot_level
from domain.fold import evolve, fold
from domain.legal import legal_actions
from domain.layoffs import lay_off, swap_joker
from domain.melds import Meld, make_meld
from domain.positions import export_position, normalize_position
from domain.profile import RuleProfile, UnsupportedProfile
from domain.search import find_opening
from domain.state import GameState, Offer, RoundState
from domain.views import full_view, public_view, redact, seat_view

__all__ = [
    "Awaiting", "awaiting", "BOT_LEVELS", "choose_action", "JOKER", "RANKS", "SUITS",
    "card_points",
    "full_deck", "is_joker", "parse_card", "rank_of", "suit_of", "CaseResult", "run_case",
    "CONTRACTS", "DEAL_SIZES", "check_opening", "decide", "start_from_position", "start_game",
    "MalformedAction", "RuleViolation", "Event", "event_from_dict", "event_to_dict",
    "register_upcaster", "BuyPassed", "BuyRequested", "CardBought", "CardDiscarded",
    "CardDrawn", "CardLaidOff", "ContractOpened", "GameCreated", "GameEnded", "JokerSwapped",
    "OfferClosed", "OfferOpened", "PositionLoaded", "RoundDealt", "RoundEnded", "RoundScored",
    "StockChosen", "StockRebuilt", "ClockSet", "GameAborted", "SeatReclaimed",
    "SeatTakenOver", "TurnTimedOut", "bot_level", "evolve", "fold", "legal_actions", "Meld", "lay_off",
    "make_meld", "swap_joker", "export_position", "normalize_position", "RuleProfile",
    "UnsupportedProfile", "find_opening", "GameState", "Offer", "RoundState", "full_view",
    "public_view", "redact", "seat_view",
]
