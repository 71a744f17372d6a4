"""Melding on a turn: the opening (R4, R8.2), lay-offs (R7.1-R7.4) and joker swaps (R7.5)."""
from __future__ import annotations

import random

from domain.cards import JOKER, joker_as, physical_card
from domain.contracts import check_opening
from domain.decide_common import Batch, end_field, entry_field, card_field, meld_index, require_turn
from domain.errors import MalformedAction, RuleViolation
from domain.events import CardLaidOff, ContractOpened, Event, JokerSwapped, RoundEnded
from domain.layoffs import lay_off as lay_off_meld, swap_joker as swap_meld_joker
from domain.melds import GROUP, Meld
from domain.state import PLAY, GameState, RoundState
from domain.variants import melds as general


def open_contract(state: GameState, seat: object, action: dict, rng: random.Random) -> list[Event]:
    """`{"type": "open", "melds": [[...], ...]}`: go down with the contract (R4.2, R4.3).

    In round 7 the opening lays the whole hand and goes out (R8.2). Raises RuleViolation R4.4
    (opened already), R5.6 (an opening may not empty the hand in rounds 1-6), and whatever
    `check_opening` raises (R3.x, R4.2, R4.3, R8.2, R1.4), plus the turn guards.
    """
    rnd = require_turn(state, seat, PLAY)
    if rnd.opened[seat] is not None:
        raise RuleViolation("R4.4", "you have opened already: no new melds this round")
    melds = check_opening(rnd.number, action.get("melds"), rnd.hands[seat], seat, state.profile)
    laid = sum(len(meld.cards) for meld in melds)
    final = state.profile.final_whole_hand(rnd.number)
    if not final and laid == len(rnd.hands[seat]):
        raise RuleViolation("R5.6", "keep a card to discard: only a discard empties a hand")
    batch = Batch(state)
    batch.add(ContractOpened(seat=seat, melds=tuple(meld.cards for meld in melds)))
    if final:
        batch.add(RoundEnded(winner=seat, reason="went_out"))
    return batch.events


def lay_off(state: GameState, seat: object, action: dict, rng: random.Random) -> list[Event]:
    """`{"type": "lay_off", "meld": i, "card": "9S"|"JK"|"JK=9S", "end"?}` (R7.1-R7.4).

    Raises RuleViolation R8.1 (round 7), R7.1 (not opened), R4.5 (opened this turn), R1.4
    (not in hand), R5.6/R7.6 (would leave no card to discard), R7.2/R7.3/R7.4/R3.4 (does not
    fit), plus the turn guards; MalformedAction for a bad meld index, card or end.
    """
    rnd = _lay_off_phase(state, seat, "R7.1")
    index = meld_index(rnd, action.get("meld"))
    entry = entry_field(action)
    end = end_field(action.get("end"))
    _require_in_hand(rnd, seat, physical_card(entry))
    _require_card_left(rnd, seat)
    meld = rnd.melds[index]
    placed = lay_off_meld(meld, entry, end, state.profile.meld_rules)
    return [CardLaidOff(seat=seat, meld=index, card=entry, end=_end_used(meld, placed))]


def swap_joker(state: GameState, seat: object, action: dict, rng: random.Random) -> list[Event]:
    """`{"type": "swap_joker", "meld": i, "card": "6C", "joker_to": {"meld", "as", "end"?}}`.

    R7.5: the natural replaces the run joker standing for it, and the released joker is laid
    off at once where it fits (any meld, the same run included), declared as `as` (null on a
    group). Raises RuleViolation R7.5 (group joker, not the exact card, joker cannot be
    placed, not opened on an earlier turn), R4.5, R8.1, R1.4, R5.6/R7.6, plus the turn guards.
    """
    rnd = _lay_off_phase(state, seat, "R7.5", swap=True)
    index = meld_index(rnd, action.get("meld"))
    natural = card_field(action)
    target = action.get("joker_to")
    if not isinstance(target, dict):
        raise MalformedAction("R7.5", "joker_to names the meld the released joker goes onto")
    to_index = meld_index(rnd, target.get("meld"))
    end = end_field(target.get("end"))
    _require_in_hand(rnd, seat, natural)
    _require_card_left(rnd, seat)
    rules = state.profile.meld_rules
    if rules.wild_twos:  # the released card may be a deuce (R11.15)
        swapped, released = general.swap_joker(rnd.melds[index], natural, rules)
    else:
        swapped, released = swap_meld_joker(rnd.melds[index], natural), JOKER
    receiver = swapped if to_index == index else rnd.melds[to_index]
    joker_entry = _joker_entry(target.get("as"), released, receiver)
    try:
        placed = lay_off_meld(receiver, joker_entry, end, rules)
    except RuleViolation as refusal:
        raise RuleViolation("R7.5", f"the released joker must be laid off at once: "
                                    f"{refusal.message}") from None
    return [JokerSwapped(seat=seat, meld=index, card=natural, joker_to=to_index,
                         joker_card=joker_entry, joker_end=_end_used(receiver, placed))]


def _lay_off_phase(state: GameState, seat: object, not_opened_rule: str,
                   swap: bool = False) -> RoundState:
    rnd = require_turn(state, seat, PLAY)
    if state.profile.final_whole_hand(rnd.number):
        raise RuleViolation("R8.1", "there is no laying off in the final round")
    opened = rnd.opened[seat]
    if opened is None:
        raise RuleViolation(not_opened_rule, "open with the contract before laying off")
    # R11.7 lifts the wait for lay-offs only: a swap needs an earlier opening (R7.5).
    if opened == "this_turn" and (swap or not state.profile.lay_off_on_opening_turn):
        raise RuleViolation("R4.5", "you opened this turn: lay-offs and swaps start next turn")
    return rnd


def _require_in_hand(rnd: RoundState, seat: int, card: str) -> None:
    if card not in rnd.hands[seat]:
        raise RuleViolation("R1.4", f"{card} is not in your hand")


def _require_card_left(rnd: RoundState, seat: int) -> None:
    if len(rnd.hands[seat]) <= 1:
        raise RuleViolation("R5.6", "keep a card to discard: only a discard empties a hand (R7.6)")


def _joker_entry(declared: object, released: str, receiver: Meld) -> str:
    if declared is not None:
        declared = card_field({"as": declared}, "as")
    if released == JOKER:
        return JOKER if declared is None else joker_as(declared)
    return general.released_entry(released, declared, receiver)


def _end_used(before: Meld, after: Meld) -> str | None:
    if before.kind == GROUP:
        return None
    return "low" if after.cards[1:] == before.cards else "high"
