"""Melding on a turn: the opening (R4, R8.2), lay-offs (R7.1-R7.4) and joker swaps (R7.5)."""
from __future__ import annotations

import random

from domain.cards import JOKER, joker_as, physical_card
from domain.contracts import FINAL_ROUND, check_opening
from domain.decide_common import Batch, end_field, entry_field, card_field, meld_index, require_turn
from domain.errors import MalformedAction, RuleViolation
from domain.events import CardLaidOff, ContractOpened, Event, JokerSwapped, RoundEnded
from domain.melds import GROUP, Meld, lay_off as lay_off_meld, swap_joker as swap_meld_joker
from domain.state import PLAY, GameState, RoundState


def open_contract(state: GameState, seat: object, action: dict, rng: random.Random) -> list[Event]:
    """`{"type": "open", "melds": [[...], ...]}`: go down with the contract (R4.2, R4.3).

    In round 7 the opening lays the whole hand and goes out (R8.2). Raises RuleViolation R4.4
    (opened already), R5.6 (an opening may not empty the hand in rounds 1-6), and whatever
    `check_opening` raises (R3.x, R4.2, R4.3, R8.2, R1.4), plus the turn guards.
    """
    rnd = require_turn(state, seat, PLAY)
    if rnd.opened[seat] is not None:
        raise RuleViolation("R4.4", "you have opened already: no new melds this round")
    melds = check_opening(rnd.number, action.get("melds"), rnd.hands[seat], seat)
    laid = sum(len(meld.cards) for meld in melds)
    final = rnd.number == FINAL_ROUND
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
    placed = lay_off_meld(meld, entry, end)
    return [CardLaidOff(seat=seat, meld=index, card=entry, end=_end_used(meld, placed))]


def swap_joker(state: GameState, seat: object, action: dict, rng: random.Random) -> list[Event]:
    """`{"type": "swap_joker", "meld": i, "card": "6C", "joker_to": {"meld", "as", "end"?}}`.

    R7.5: the natural replaces the run joker standing for it, and the released joker is laid
    off at once where it fits (any meld, the same run included), declared as `as` (null on a
    group). Raises RuleViolation R7.5 (group joker, not the exact card, joker cannot be
    placed, not opened on an earlier turn), R4.5, R8.1, R1.4, R5.6/R7.6, plus the turn guards.
    """
    rnd = _lay_off_phase(state, seat, "R7.5")
    index = meld_index(rnd, action.get("meld"))
    natural = card_field(action)
    target = action.get("joker_to")
    if not isinstance(target, dict):
        raise MalformedAction("R7.5", "joker_to names the meld the released joker goes onto")
    to_index = meld_index(rnd, target.get("meld"))
    joker_entry = _joker_entry(target.get("as"))
    end = end_field(target.get("end"))
    _require_in_hand(rnd, seat, natural)
    _require_card_left(rnd, seat)
    swapped = swap_meld_joker(rnd.melds[index], natural)
    receiver = swapped if to_index == index else rnd.melds[to_index]
    try:
        placed = lay_off_meld(receiver, joker_entry, end)
    except RuleViolation as refusal:
        raise RuleViolation("R7.5", f"the released joker must be laid off at once: "
                                    f"{refusal.message}") from None
    return [JokerSwapped(seat=seat, meld=index, card=natural, joker_to=to_index,
                         joker_card=joker_entry, joker_end=_end_used(receiver, placed))]


def _lay_off_phase(state: GameState, seat: object, not_opened_rule: str) -> RoundState:
    rnd = require_turn(state, seat, PLAY)
    if rnd.number == FINAL_ROUND:
        raise RuleViolation("R8.1", "there is no laying off in round 7")
    opened = rnd.opened[seat]
    if opened is None:
        raise RuleViolation(not_opened_rule, "open with the contract before laying off")
    if opened == "this_turn" and not state.profile.lay_off_on_opening_turn:
        raise RuleViolation("R4.5", "you opened this turn: lay-offs and swaps start next turn")
    return rnd


def _require_in_hand(rnd: RoundState, seat: int, card: str) -> None:
    if card not in rnd.hands[seat]:
        raise RuleViolation("R1.4", f"{card} is not in your hand")


def _require_card_left(rnd: RoundState, seat: int) -> None:
    if len(rnd.hands[seat]) <= 1:
        raise RuleViolation("R5.6", "keep a card to discard: only a discard empties a hand (R7.6)")


def _joker_entry(declared: object) -> str:
    if declared is None:
        return JOKER
    return joker_as(card_field({"as": declared}, "as"))


def _end_used(before: Meld, after: Meld) -> str | None:
    if before.kind == GROUP:
        return None
    return "low" if after.cards[1:] == before.cards else "high"
