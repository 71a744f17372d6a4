"""The replay of an imported record (service.imports), event by event: each must follow from
the ones before it (the fold), leave the cards of the deck each in one place (R1.2, R1.4,
R11.3), and each round be scored as the rules score it (R9). The fold applies what an event
says, so without these a record could carry a card that is no card (every view of the table
after it fails), lose or copy cards in a round, or name other winners than its play gives.
"""
from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache
from itertools import chain

from domain import decide, fold, full_deck
from domain.cards import physical_card
from domain.errors import RuleViolation
from service.table_events import rules_events

SCORE = {"type": "score_round"}


# Events that move no card and name none: the deck cannot change at them, so it is not counted
# again (counting it at every event made an import of a long game ~35x its fold).
CARDLESS = frozenset({
    "StockChosen", "BuyRequested", "BuyPassed", "RoundEnded", "RoundScored", "GameEnded",
    "ClockSet", "TurnTimedOut", "SeatTakenOver", "SeatReclaimed", "GameAborted", "ClaimPassed",
    "DeckCut", "SeatsOpened", "SeatJoined", "GameStarted", "LobbyExpired"})
DEALS = ("RoundDealt", "DeckShuffled")  # what starts a round (R2.3; R11.19: the shuffle)


def replayed(events: list) -> object:
    """The state after `events` (domain and table events; the table events are skipped),
    folded one at a time. Raises ValueError naming the first event out of the order play
    makes (`out_of_order`), the first the fold refuses, the first after which the cards of
    the deck are not each in one place, or the first RoundScored the rules would not have
    decided (see `rescored`)."""
    played = [(version, event) for version, event in enumerate(events, 1)
              if rules_events((event,))]
    state, before = None, None
    for index, (version, event) in enumerate(played):
        name = type(event).__name__
        wrong = out_of_order(name, before, state, event)
        if wrong:
            raise ValueError(f"event {version} ({name}) {wrong}")
        if name == "RoundScored":
            following = played[index + 1][1] if index + 1 < len(played) else None
            if not rescored(state, event, following):
                raise ValueError(f"event {version} (RoundScored) does not score the round "
                                 "before it as the rules do, or what follows it does not "
                                 "(R9.1-R9.4)")
        try:
            state = fold((event,), state)
        except Exception as error:  # noqa: BLE001 - any error of the fold is a bad record
            rule = f" ({error.rule}: {error.message})" if isinstance(error, RuleViolation) else ""
            raise ValueError(f"event {version} ({name}) does not follow from the events "
                             f"before it{rule}") from None
        if name not in CARDLESS and not conserves_deck(state):
            raise ValueError(f"event {version} ({name}) leaves the cards of the deck not each "
                             "in one place (R1.2, R1.4, R11.3)")
        before = name
    return state


def out_of_order(name: str, before: str | None, state: object, event: object) -> str | None:
    """Why the event `name` cannot come after the event `before` (None: the first) on `state`,
    or None when it can. The fold applies what it is given; the scoring and the deals are
    where a record could skip a round or end the game with winners of its own: a round ends
    only scored (R9.1), a game ends only by the scoring of its last round (R9.4), and a round
    after the first is dealt only once the one before is scored (R2.2); a cut's exactness is
    what it lifted (R11.19)."""
    if before == "RoundEnded" and name != "RoundScored":
        return "follows RoundEnded: a round that ended is scored next (R9.1)"
    if name == "GameEnded" and before != "RoundScored":
        return "ends the game without the scoring of its last round (R9.4)"
    if name in DEALS and getattr(state, "round", None) is not None and before != "RoundScored" \
            and not (name == "RoundDealt" and before == "DeckCut"):
        return "deals a round before the one before it is scored (R2.2, R9.1)"
    if name == "DeckCut" and not _cut_as_lifted(state, event):
        return "is not a cut of the seat at the dealer's right, exact as it lifted (R11.19)"
    return None


def _cut_as_lifted(state: object, cut: object) -> bool:
    """Whether `cut` (a DeckCut) is the awaited cutter's and exact exactly when it lifted the
    cards the deal takes (domain.decide_cut)."""
    rnd = getattr(state, "round", None)
    if rnd is None or type(cut.lifted) is not int:
        return False
    dealt = state.seats * state.profile.deal_size(rnd.number)
    return cut.seat == rnd.turn and cut.exact is (cut.lifted == dealt)


def rescored(state: object, scored: object, following: object) -> bool:
    """Whether `scored` (a RoundScored) and the event `following` it (None: none) are what
    scoring `state` decides: the same scores and totals (R9.1-R9.3, R11.11, R11.12, R11.19),
    then the same GameEnded (R9.4) or a deal of the next round by the next dealer (R2.2,
    R11.16; its deck is the record's own shuffle)."""
    try:
        decided, then = decide(state, None, SCORE, random.Random(0))
    except Exception:  # noqa: BLE001 - no round awaited its scoring there (R9)
        return False
    if scored != decided:
        return False
    if following is None or type(then).__name__ == "GameEnded":
        return following is None or following == then
    return (type(following) is type(then) and following.round == then.round
            and following.dealer == then.dealer)


def conserves_deck(state: object) -> bool:
    """Whether the state's round holds the cards of the profile's deck, each once (R1.2, R1.4,
    R11.3); True before the first deal."""
    rnd = getattr(state, "round", None)
    if rnd is None:
        return True
    try:
        cards = Counter(chain(rnd.stock, rnd.discard, *rnd.hands,
                              (physical_card(entry) for meld in rnd.melds for entry in meld.cards)))
    except Exception:  # noqa: BLE001 - cards that are not card codes: not the deck
        return False
    return cards == _deck(state.profile.packs, state.profile.jokers)


@lru_cache(maxsize=16)  # a few deck shapes (packs, jokers)
def _deck(packs: int, jokers: int) -> Counter:
    """The cards of a deck of `packs` packs and `jokers` jokers, counted (R1.2, R11.2, R11.3)."""
    return Counter(full_deck(packs, jokers))
