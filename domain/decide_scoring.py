"""Scoring a round and dealing the next (R2.2, R2.3, R9.1-R9.4, R11.11, R11.12, R11.16,
R11.19)."""
from __future__ import annotations

import random
from functools import lru_cache

from domain.cards import NATURALS, JOKER, full_deck, rank_number
from domain.errors import RuleViolation
from domain.events import Event, GameEnded, RoundDealt, RoundScored
from domain.events_variants import DeckShuffled
from domain.profile import MAX_PLAY_OFFS, RuleProfile
from domain.state import SCORING, GameState


@lru_cache(maxsize=None)  # a few (pip_scoring, joker_penalty) pairs
def points_table(pip_scoring: str = "face_value", joker_penalty: int = 15) -> dict[str, int]:
    """Penalty points of each card code left in hand: R9.1 face value (2-10 face, J Q K 10,
    A 15) or R11.12 bands (2-7 score 5, 8-K 10, A 15); a joker `joker_penalty` (R11.11)."""
    table = {}
    for code in NATURALS:
        number = rank_number(code)
        if number == 1:
            table[code] = 15
        elif pip_scoring == "bands":
            table[code] = 5 if number <= 7 else 10
        else:
            table[code] = min(number, 10)
    table[JOKER] = joker_penalty
    return table


def hand_points(hand: tuple[str, ...], profile: RuleProfile | None = None) -> int:
    """Penalty points of the cards left in a hand (R9.1; R11.11, R11.12 under `profile`)."""
    table = points_table() if profile is None else points_table(profile.pip_scoring,
                                                                 profile.joker_penalty)
    return sum(table[card] for card in hand)


def deal_round(number: int, dealer: int, rng: random.Random,
               profile: RuleProfile | None = None) -> Event:
    """Round `number` dealt by `dealer` from the profile's deck shuffled by `rng` (R2.3,
    R11.3): RoundDealt, or DeckShuffled awaiting the cut under `cut_bonus` (R11.19)."""
    profile = profile or RuleProfile()
    deck = list(full_deck(profile.packs, profile.jokers))
    rng.shuffle(deck)
    if profile.cut_bonus:
        return DeckShuffled(round=number, dealer=dealer, deck=tuple(deck))
    return RoundDealt(round=number, dealer=dealer, deck=tuple(deck))


def score_round(state: GameState, seat: None, action: dict, rng: random.Random) -> list[Event]:
    """System action `{"type": "score_round"}` once a round has ended.

    RoundScored (the winner 0, everyone else their hand, R9.1/R9.2; an exact cutter minus the
    cut bonus, R11.19; totals add up, R9.3), then the next deal with the deal passed left
    (R2.2), a play-off deal while the lowest total is shared under `ties: play_off` (at most
    three, R11.16), or GameEnded with every seat tied for the lowest total (R9.4). Raises
    RuleViolation "R9" when no round awaits scoring, so running it twice changes nothing.
    """
    if state.status != SCORING:
        raise RuleViolation("R9", "no round is waiting to be scored")
    rnd, profile = state.round, state.profile
    scores = [0 if seat_ == rnd.winner else hand_points(hand, profile)
              for seat_, hand in enumerate(rnd.hands)]
    if rnd.cut_bonus_seat is not None:
        scores[rnd.cut_bonus_seat] -= profile.cut_bonus
    totals = tuple(total + score for total, score in zip(state.totals, scores))
    events: list[Event] = [RoundScored(round=rnd.number, scores=tuple(scores), totals=totals)]
    best = min(totals)
    winners = tuple(s for s, t in enumerate(totals) if t == best)
    play_off = (profile.ties == "play_off" and len(winners) > 1
                and rnd.number < profile.rounds + MAX_PLAY_OFFS)
    if rnd.number < profile.rounds or play_off:
        events.append(deal_round(rnd.number + 1, (rnd.dealer + 1) % state.seats, rng, profile))
    else:
        events.append(GameEnded(winners=winners, totals=totals))
    return events
