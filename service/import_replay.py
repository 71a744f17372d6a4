"""The replay of an imported record (service.imports), event by event: each must follow from
the ones before it (the fold), leave the cards of the deck each in one place (R1.2, R1.4,
R11.3), each act be what the rules decide of it, with what its decision sets off next
(service.import_acts), and each round be scored as the rules score it (R9). The fold applies
what an event says, so without these a record could carry a card that is no card (every view
of the table after it fails), lose or copy cards in a round, or name other winners than its
play gives.
"""
from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache
from itertools import chain

from domain import decide, fold, full_deck, full_view, public_view
from domain.cards import physical_card
from domain.errors import RuleViolation
from domain.profile import RuleProfile
from domain.state import CUT
from service.clock import clock_event
from service.import_acts import misruled
from service.table_events import rules_events

CLOCK_FIELDS = ("turn_s", "offer_s", "timeouts_before_takeover", "takeover_level")

SCORE = {"type": "score_round"}
# Events of one decision at most (a decision settles at most one purchase, with its penalty
# cards and a rebuild, far below): the record's next events an act's decision is compared with.
DECISION_MAX_EVENTS = 64


# Events that move no card and name none: the deck cannot change at them, so it is not counted
# again (counting it at every event made an import of a long game ~35x its fold).
CARDLESS = frozenset({
    "StockChosen", "BuyRequested", "BuyPassed", "RoundEnded", "RoundScored", "GameEnded",
    "ClockSet", "TurnTimedOut", "SeatTakenOver", "SeatReclaimed", "GameAborted", "ClaimPassed",
    "DeckCut", "SeatsOpened", "SeatJoined", "GameStarted", "LobbyExpired"})
BEGINNINGS = ("GameCreated", "PositionLoaded")  # a record's first event, and no other
DEALS = ("RoundDealt", "DeckShuffled")  # what starts a round (R2.3; R11.19: the shuffle)
# A seat may be handed to a bot or taken back at any moment, a round's scoring included (T3,
# T4): these do not count as the event before the next for the order of play.
SEAT_CONTROL = frozenset({"SeatTakenOver", "SeatReclaimed"})
LOBBY = frozenset({"SeatsOpened", "SeatJoined", "GameStarted", "LobbyExpired"})
# Events that shape the table beside the cards: the views of the table after each are built
# once at the import, so that no replay of it fails later.
TABLE_SHAPING = LOBBY | SEAT_CONTROL | {"ClockSet", "PositionLoaded", "GameCreated"}


def replayed(events: list) -> object:
    """The state after `events` (domain and table events; the table events are skipped),
    folded one at a time. Raises ValueError naming the first event out of the order play
    makes (`out_of_order`), the first act the rules would not decide so, or that its decision
    would not follow with the record's next events, or a consequence no decision owes
    (service.import_acts.misruled), the first the fold refuses, the first after which the
    cards of the deck are not each in one place, or the first RoundScored (or what follows it) the rules would not
    have decided (see `rescored`)."""
    played = [(version, event) for version, event in enumerate(events, 1)
              if rules_events((event,))]
    state, before, owed = None, None, []
    for index, (version, event) in enumerate(played):
        name = type(event).__name__
        following = played[index + 1][1] if index + 1 < len(played) else None
        wrong = out_of_order(name, before, state, event) or unfit(name, event, state)
        if not wrong and owed:
            wrong, owed = _owed(owed, event)
        elif not wrong:
            upcoming = [e for _, e in played[index + 1:index + 1 + DECISION_MAX_EVENTS]]
            wrong, owed = misruled(name, event, state, upcoming)
        if wrong:
            raise ValueError(f"event {version} ({name}) {wrong}")
        if name == "RoundScored":
            wrong = rescored(state, event, following)
            if wrong == "scored":
                raise ValueError(f"event {version} (RoundScored) does not score the round "
                                 "before it as the rules do (R9.1-R9.3)")
            if wrong == "following":
                raise ValueError(f"event {played[index + 1][0]} ({type(following).__name__}) "
                                 "is not what the rules make after the round's scoring (the "
                                 "game's end, R9.4, or the next deal, R2.2)")
        try:
            state = fold((event,), state)
        except Exception as error:  # noqa: BLE001 - any error of the fold is a bad record
            rule = f" ({error.rule}: {error.message})" if isinstance(error, RuleViolation) else ""
            raise ValueError(f"event {version} ({name}) does not follow from the events "
                             f"before it{rule}") from None
        if name not in CARDLESS and not conserves_deck(state):
            raise ValueError(f"event {version} ({name}) leaves the cards of the deck not each "
                             "in one place (R1.2, R1.4, R11.3)")
        if name in TABLE_SHAPING and not viewable(state):
            raise ValueError(f"event {version} ({name}) makes a table no game could have")
        if name not in SEAT_CONTROL:
            before = (name, event)
    if owed:
        raise ValueError(f"the record ends before the {type(owed[0]).__name__} the rules make "
                         "after its last act")
    return state


def _owed(owed: list, event: object) -> tuple[str | None, list]:
    """``(why, still owed)``: `event` must be the first of the events an act's decision still
    owes (service.import_acts.misruled)."""
    if event != owed[0]:
        return (f"is not what the rules make there after the act before it (a "
                f"{type(owed[0]).__name__})"), []
    return None, owed[1:]


# Fields naming a seat (a player's index at the table): each must be one of the table's seats.
SEAT_FIELDS = ("seat", "dealer", "first_dealer", "buyer", "barred", "winner", "discarder")
SEED_MAX_CHARS = 128  # the server records a 64-hex seed: a record's may not fill every view
END_REASONS = {"went_out": True, "no_card": False, "turn_cap": False}  # -> names a winner


def unfit(name: str, event: object, state: object) -> str | None:
    """Why `event` alone, on `state` (None before the first event), is not one the server
    makes, or None. The fold applies what an event says, so without these a BuyPassed of seat 7
    at a table of four, a dealer of 10^6 or a winner holding cards was folded and shown in every
    view: every seat an event names is a seat of the table; a round ends as play ends it
    (`_unfit_end`); a seed is at most SEED_MAX_CHARS long; a clock is within the clock's
    bounds (service.clock.clock_event: a turn of 10^15 s made every deadline after it fail).
    """
    if name == "GameCreated":
        return _unfit_seats(event, event.seats) or _unfit_seed(event) or _unfit_players(event)
    if state is None:  # a position's game begins with it (service.creation checks the first)
        return None
    wrong = _unfit_seats(event, state.seats)
    if wrong is None and name == "RoundEnded":
        wrong = _unfit_end(event, state)
    if wrong is None and name == "ClockSet":
        wrong = _unfit_clock(event)
    return wrong


def _unfit_seats(event: object, seats: int) -> str | None:
    """Why a seat `event` names (SEAT_FIELDS, `winners`) is no seat of a table of `seats`."""
    for field in SEAT_FIELDS:
        value = getattr(event, field, None)
        if value is not None and not 0 <= value < seats:
            return f"names seat {value} as its {field}: the table's seats are 0 to {seats - 1}"
    if any(not 0 <= seat < seats for seat in getattr(event, "winners", ())):
        return f"names winners that are not seats of the table: {list(event.winners)}"
    return None


def _unfit_seed(created: object) -> str | None:
    if isinstance(created.seed, str) and len(created.seed) > SEED_MAX_CHARS:
        return f"records a seed of more than {SEED_MAX_CHARS} characters"
    return None


def _unfit_players(created: object) -> str | None:
    """Why the profile of `created` (a GameCreated) is not played at its table: its `players`
    must be the number of seats (R1.1, R11.1), as a creation's must (service.profiles). A
    profile the fold cannot read is left to the fold's own refusal."""
    try:
        players = RuleProfile.from_json(created.profile).players
    except ValueError:
        return None
    if players != created.seats:
        return f"plays a profile of {players} players at a table of {created.seats} seats (R1.1)"
    return None


def _unfit_clock(clock_set: object) -> str | None:
    try:
        clock_event({field: getattr(clock_set, field) for field in CLOCK_FIELDS}, 1)
    except ValueError as error:
        return f"sets a clock out of its bounds: {error}"
    return None


def _unfit_end(ended: object, state: object) -> str | None:
    """Why `ended` (a RoundEnded) does not end the round of `state` as play ends it, or None."""
    names_winner = END_REASONS.get(ended.reason)
    if names_winner is None:
        return f"ends the round for a reason play has not: {ended.reason!r}"
    if names_winner != (ended.winner is not None):
        return "names a winner only when a seat went out (R5.7, R8.2, R10.2, R10.4)"
    rnd = getattr(state, "round", None)
    if ended.winner is not None and (rnd is None or rnd.hands[ended.winner]):
        return f"names seat {ended.winner} as the winner, whose hand did not go out (R5.7)"
    return None


def viewable(state: object) -> bool:
    """Whether the public and the full view of `state` are built without error."""
    try:
        full_view(state), public_view(state)
    except Exception:  # noqa: BLE001 - any error here is a table no game could have made
        return False
    return True


def out_of_order(name: str, before: tuple[str, object] | None, state: object,
                 event: object) -> str | None:
    """Why the event `name` cannot come after `before` ((name, event) of the event of play
    before it, seat control left out; None: the first) on `state`, or None when it can. The
    fold applies what it is given; the scoring and the deals are where a record could skip a
    round or end the game with winners of its own: a round ends only scored (R9.1), a game
    ends only by the scoring of its last round (R9.4), a round after the first is dealt only
    once the one before is scored (R2.2), a cut comes only when one is awaited and deals the
    shuffled deck turned where it lifted (R11.19), and a lobby only before the first deal."""
    last = before[0] if before else None
    rnd = getattr(state, "round", None)
    if name in BEGINNINGS and state is not None:
        return "begins a game: only a record's first event may"
    if last == "RoundEnded" and name != "RoundScored" and name not in SEAT_CONTROL:
        return "follows RoundEnded: a round that ended is scored next (R9.1)"
    if name == "GameEnded" and last != "RoundScored":
        return "ends the game without the scoring of its last round (R9.4)"
    if name in LOBBY and rnd is not None:
        return "comes after the first deal: a lobby is before it (L1)"
    if name == "DeckCut" and not _cut_as_lifted(state, event):
        return ("is not a cut awaited of the seat at the dealer's right, exact as it lifted "
                "(R11.19)")
    if name in DEALS and rnd is not None and last != "RoundScored":
        if name == "RoundDealt" and last == "DeckCut" and _dealt_as_cut(rnd, before[1], event):
            return None
        return "deals a round before the one before it is scored (R2.2, R9.1, R11.19)"
    return None


def _cut_as_lifted(state: object, cut: object) -> bool:
    """Whether `cut` (a DeckCut) is awaited (the round's phase is the cut) of the cutter, and
    exact exactly when it lifted the cards the deal takes (domain.decide_cut)."""
    rnd = getattr(state, "round", None)
    if rnd is None or rnd.phase != CUT:
        return False
    dealt = state.seats * state.profile.deal_size(rnd.number)
    return cut.seat == rnd.turn and cut.exact is (cut.lifted == dealt)


def _dealt_as_cut(rnd: object, cut: object, dealt: object) -> bool:
    """Whether `dealt` (a RoundDealt after the DeckCut `cut`) deals the round awaiting the cut,
    by its dealer, from its shuffled deck turned at the lifted card (domain.decide_cut)."""
    deck = tuple(rnd.stock)
    return (dealt.round == rnd.number and dealt.dealer == rnd.dealer
            and tuple(dealt.deck) == deck[cut.lifted:] + deck[:cut.lifted])


def rescored(state: object, scored: object, following: object) -> str | None:
    """Which of `scored` (a RoundScored) and the event `following` it (None: none) is not what
    scoring `state` decides ("scored", "following"), or None when both are: the same scores
    and totals (R9.1-R9.3, R11.11, R11.12, R11.19), then the same GameEnded (R9.4) or a deal
    of the next round by the next dealer (R2.2, R11.16; its deck is the record's own
    shuffle)."""
    try:
        decided, then = decide(state, None, SCORE, random.Random(0))
    except Exception:  # noqa: BLE001 - no round awaited its scoring there (R9)
        return "scored"
    if scored != decided:
        return "scored"
    if following is None:
        return None
    if type(then).__name__ == "GameEnded":
        same = following == then
    else:
        same = (type(following) is type(then) and following.round == then.round
                and following.dealer == then.dealer)
    return None if same else "following"


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
