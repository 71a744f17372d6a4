"""The Shanghai call and claims (RULES.md R11.18): a fitting uncalled discard may be claimed
by the first claimer clockwise from the discarder's left, who lays it on a meld and gives the
discarder a card chosen at random from its hand."""
from __future__ import annotations

import random

from domain.decide_common import (
    Batch, end_field, meld_index, require_answered, require_in_play, require_seat,
)
from domain.errors import RuleViolation
from domain.events import Event
from domain.events_variants import (
    CardClaimed, ClaimClosed, ClaimOpened, ClaimPassed, ClaimRequested, ShanghaiCalled,
)
from domain.cards import JOKER
from domain.layoffs import lay_off, layoffs_for_hand
from domain.melds import GROUP
from domain.state import Claim, GameState, RoundState
from domain.variants.melds import released_entry

PENDING = "pending"


def after_discard(batch: Batch, seat: int, card: str, called: bool) -> None:
    """After a discard that did not end the round: record a Shanghai call, or open a claim
    when the uncalled discard fits an exposed meld and some seat may claim it (R11.18)."""
    if called:
        batch.add(ShanghaiCalled(seat=seat, card=card))
        return
    rnd = batch.round
    if not layoffs_for_hand(rnd.melds, (card,), batch.state.profile.meld_rules):
        return
    if claimers(rnd, seat, batch.state.seats):
        batch.add(ClaimOpened(card=card, discarder=seat))


def claimers(rnd: RoundState, discarder: int, seats: int) -> tuple[int, ...]:
    """Seats that may claim, in priority order from the discarder's left: every other seat
    holding more than one card (R11.18, R5.6)."""
    order = ((discarder + step) % seats for step in range(1, seats))
    return tuple(s for s in order if len(rnd.hands[s]) > 1)


def outcome(claim: Claim, rnd: RoundState, seats: int) -> tuple | None | str:
    """The winning `(seat, meld, entry, end)` request, None when all declined, or PENDING
    while a seat ahead of the best request has not answered (as R6.9)."""
    asked = {request[0]: request for request in claim.claims}
    for seat in claimers(rnd, claim.discarder, seats):
        if seat in asked:
            return asked[seat]
        if seat not in claim.passed:
            return PENDING
    return None


def waiting_for_claim(claim: Claim, rnd: RoundState, seats: int) -> tuple[int, ...]:
    """Seats whose answer to the claim still matters (ahead of the best request)."""
    asked = {request[0] for request in claim.claims}
    waiting = []
    for seat in claimers(rnd, claim.discarder, seats):
        if seat in asked:
            break
        if seat not in claim.passed:
            waiting.append(seat)
    return tuple(waiting)


def claim(state: GameState, seat: object, action: dict, rng: random.Random) -> list[Event]:
    """`{"type": "claim", "meld": i, "as"?, "end"?, "card"?}` on the open claim (R11.18);
    `card`, optional: the card the seat claims, refused if another card is open to a claim now.

    Raises RuleViolation R11.18 (no claim open, own discard, answered already, another card
    named), R5.6 (a seat holding one card), or the lay-off's refusal (R7.2, R7.3, R7.4,
    R11.13, ...); MalformedAction R1.2 for a `card` that is not a card code.
    """
    rnd, seat = _open_claim(state, seat, action)
    if len(rnd.hands[seat]) <= 1:
        raise RuleViolation("R5.6", "a seat holding one card may not claim: its hand would "
                                    "empty")
    index = meld_index(rnd, action.get("meld"))
    end = end_field(action.get("end"))
    meld = rnd.melds[index]
    rules = state.profile.meld_rules
    entry = _entry(rnd.claim.card, action.get("as"), meld, rules)
    placed = lay_off(meld, entry, end, rules)
    used = None if meld.kind == GROUP else ("low" if placed.cards[1:] == meld.cards else "high")
    batch = Batch(state)
    batch.add(ClaimRequested(seat=seat, meld=index, card=entry, end=used))
    resolve_claim(batch, rng)
    return batch.events


def claim_pass(state: GameState, seat: object, action: dict, rng: random.Random) -> list[Event]:
    """`{"type": "pass", "card"?}` while a claim is open (R11.18); a seat that may not claim
    passes without effect. Refused (R11.18) when `card` names another card than the one open
    to a claim."""
    rnd, seat = _open_claim(state, seat, action)
    if seat not in claimers(rnd, rnd.claim.discarder, state.seats):
        return []
    batch = Batch(state)
    batch.add(ClaimPassed(seat=seat))
    resolve_claim(batch, rng)
    return batch.events


def close_claim(state: GameState, seat: None, action: dict, rng: random.Random) -> list[Event]:
    """System action at the claim deadline: every seat still owing an answer passes (R11.18).

    Raises RuleViolation R11.18 when no claim is open.
    """
    rnd = require_in_play(state)
    if rnd.claim is None:
        raise RuleViolation("R11.18", "no claim is open")
    batch = Batch(state)
    for silent in waiting_for_claim(rnd.claim, rnd, state.seats):
        batch.add(ClaimPassed(seat=silent))
    resolve_claim(batch, rng)
    return batch.events


def resolve_claim(batch: Batch, rng: random.Random) -> None:
    """Close the claim once its outcome is certain: the claimer lays the card and the
    discarder takes a random card of the claimer's hand (R11.18)."""
    rnd = batch.round
    won = outcome(rnd.claim, rnd, batch.state.seats)
    if won == PENDING:
        return
    card, discarder = rnd.claim.card, rnd.claim.discarder
    batch.add(ClaimClosed(card=card, claimer=None if won is None else won[0]))
    if won is not None:
        seat, meld, entry, end = won
        given = rng.choice(rnd.hands[seat])
        batch.add(CardClaimed(seat=seat, meld=meld, card=entry, end=end, discarder=discarder,
                              given=given))


def _open_claim(state: GameState, seat: object, action: dict) -> tuple[RoundState, int]:
    rnd = require_in_play(state)
    seat = require_seat(state, seat)
    if rnd.claim is None:
        raise RuleViolation("R11.18", "no claim is open")
    require_answered(action, rnd.claim.card, "R11.18", "claim")
    if seat == rnd.claim.discarder:
        raise RuleViolation("R11.18", "you discarded this card: the others may claim it")
    if seat in rnd.claim.passed or any(r[0] == seat for r in rnd.claim.claims):
        raise RuleViolation("R11.18", "you have answered this claim already")
    return rnd, seat


def _entry(card: str, declared: object, meld, rules) -> str:
    """The claimed card as laid: a natural as itself, a wild card as declared (`as`: its
    card on a run, null on a group; a deuce without `as` on a run is itself) (R11.15)."""
    wild = card == JOKER or (rules.wild_twos and card[:-1] == "2")
    if not wild:
        return card
    if declared is not None and not isinstance(declared, str):
        raise RuleViolation("R7.4", "as names the card a wild card stands for, e.g. 9S")
    if declared is None and meld.kind != GROUP and card != JOKER:
        return card
    return released_entry(card, declared, meld)
