"""Folding the events of the §11 options (RULES.md R11.10, R11.18, R11.19): the cut, further
penalty cards and Shanghai claims. `domain.fold` registers HANDLERS; those of BY_SEAT are a
seat's own choices (they reset its timeouts, as domain.fold._by_seat says)."""
from __future__ import annotations

from domain import events_variants as evv
from domain.fold_tuples import give as _give, placed as _placed, replaced as _replaced
from domain.fold_tuples import with_card as _with, without as _without
from domain.state import CLAIM, CUT, DRAW, PLAYING, Claim, RoundState

Fields = dict


def _deck_shuffled(game: Fields, _: Fields | None, e: evv.DeckShuffled) -> tuple[Fields, Fields]:
    seats = game["seats"]
    game["timed_out"] = None
    rnd = RoundState(number=e.round, dealer=e.dealer, turn=(e.dealer - 1) % seats, phase=CUT,
                     hands=((),) * seats, opened=(None,) * seats, stock=e.deck,
                     discard_taken=((),) * seats, purchases=(0,) * seats)
    game["status"] = PLAYING
    return game, dict(rnd.__dict__)


def _deck_cut(game: Fields, rnd: Fields, e: evv.DeckCut) -> tuple[Fields, Fields]:
    rnd["cut_bonus_seat"] = e.seat if e.exact else None
    return game, rnd


def _penalty_card_taken(game: Fields, rnd: Fields,
                        e: evv.PenaltyCardTaken) -> tuple[Fields, Fields]:
    _give(rnd, e.seat, _with(rnd["hands"][e.seat], e.card))
    rnd["stock"] = rnd["stock"][1:]
    return game, rnd



def _shanghai_called(game: Fields, rnd: Fields, _: evv.ShanghaiCalled) -> tuple[Fields, Fields]:
    return game, rnd


def _claim_opened(game: Fields, rnd: Fields, e: evv.ClaimOpened) -> tuple[Fields, Fields]:
    rnd["phase"], rnd["claim"] = CLAIM, Claim(card=e.card, discarder=e.discarder)
    return game, rnd


def _claim_requested(game: Fields, rnd: Fields, e: evv.ClaimRequested) -> tuple[Fields, Fields]:
    c = rnd["claim"]
    rnd["claim"] = Claim(c.card, c.discarder, c.claims + ((e.seat, e.meld, e.card, e.end),),
                         c.passed)
    return game, rnd


def _claim_passed(game: Fields, rnd: Fields, e: evv.ClaimPassed) -> tuple[Fields, Fields]:
    c = rnd["claim"]
    rnd["claim"] = Claim(c.card, c.discarder, c.claims, c.passed + (e.seat,))
    return game, rnd


def _claim_closed(game: Fields, rnd: Fields, _: evv.ClaimClosed) -> tuple[Fields, Fields]:
    rnd["phase"], rnd["claim"] = DRAW, None
    return game, rnd


def _card_claimed(game: Fields, rnd: Fields, e: evv.CardClaimed) -> tuple[Fields, Fields]:
    melds = rnd["melds"]
    rnd["melds"] = _replaced(melds, e.meld, _placed(melds[e.meld], e.card, e.end))
    rnd["discard"] = rnd["discard"][:-1]
    _give(rnd, e.seat, _without(rnd["hands"][e.seat], e.given))
    _give(rnd, e.discarder, _with(rnd["hands"][e.discarder], e.given))
    return game, rnd


HANDLERS = {
    evv.ShanghaiCalled: _shanghai_called,
    evv.ClaimOpened: _claim_opened,
    evv.ClaimRequested: _claim_requested,
    evv.ClaimPassed: _claim_passed,
    evv.ClaimClosed: _claim_closed,
    evv.CardClaimed: _card_claimed,
    evv.PenaltyCardTaken: _penalty_card_taken,
    evv.DeckShuffled: _deck_shuffled,
    evv.DeckCut: _deck_cut,
}
BY_SEAT = frozenset({evv.ClaimRequested, evv.DeckCut})
