"""Scoring a round and dealing the next (R2.2, R2.3, R9.1-R9.4)."""
from __future__ import annotations

import random

from domain.cards import card_points, full_deck
from domain.errors import RuleViolation
from domain.events import Event, GameEnded, RoundDealt, RoundScored
from domain.state import SCORING, GameState


def hand_points(hand: tuple[str, ...]) -> int:
    """Penalty points of the cards left in a hand (R9.1)."""
    return sum(card_points(card) for card in hand)


def deal_round(number: int, dealer: int, rng: random.Random) -> RoundDealt:
    """RoundDealt for round `number` dealt by `dealer`: all 107 cards shuffled by `rng` (R2.3)."""
    deck = list(full_deck())
    rng.shuffle(deck)
    return RoundDealt(round=number, dealer=dealer, deck=tuple(deck))


def score_round(state: GameState, seat: None, action: dict, rng: random.Random) -> list[Event]:
    """System action `{"type": "score_round"}` once a round has ended.

    RoundScored (the winner 0, everyone else their hand, R9.1/R9.2; totals add up, R9.3),
    then RoundDealt for the next round with the deal passed left (R2.2) or, after the last
    round, GameEnded with every seat tied for the lowest total (R9.4). Raises RuleViolation
    "R9" when no round awaits scoring, so running it twice changes nothing.
    """
    if state.status != SCORING:
        raise RuleViolation("R9", "no round is waiting to be scored")
    rnd = state.round
    scores = tuple(0 if seat_ == rnd.winner else hand_points(hand)
                   for seat_, hand in enumerate(rnd.hands))
    totals = tuple(total + score for total, score in zip(state.totals, scores))
    events: list[Event] = [RoundScored(round=rnd.number, scores=scores, totals=totals)]
    if rnd.number < len(state.profile.contracts):
        events.append(deal_round(rnd.number + 1, (rnd.dealer + 1) % state.seats, rng))
    else:
        best = min(totals)
        events.append(GameEnded(winners=tuple(s for s, t in enumerate(totals) if t == best),
                                totals=totals))
    return events
