"""The incremental planning analysis (domain/bots/frame.py) equals a from-scratch analysis.

`planning.analyze` reuses the analysis of a hand one card away when the frame says that card
leaves it unchanged; these properties check, on random hands of every contract (R2.1), that
every field of the reused analysis equals the one `_analyze` computes for the new hand, and
that the shortcuts of `need_with` and `lowers_need` agree with full analyses.
"""
import random

from hypothesis import given, settings, strategies as st

from domain.bots import planning
from domain.bots.frame import keeps_with, keeps_without
from domain.bots.plans import candidates, candidates_with
from domain.cards import full_deck
from domain.contracts import CONTRACTS, DEAL_SIZES

DECK = full_deck()


def fields(analysis):
    """Every field of an analysis, the frame's included, in comparable form."""
    frame = analysis.frame
    return (analysis.need, analysis.wanted, analysis.support, analysis.plans, analysis.jokers,
            analysis.options, frame.ranks, frame.rank_cut, frame.codes, frame.window_cut)


def deal(seed, extra):
    """A random round 1-6, its contract and a sorted hand of the deal size plus ``extra``."""
    rng = random.Random(seed)
    round_ = rng.randint(1, 6)
    cards = rng.sample(DECK, DEAL_SIZES[round_] + extra)
    return CONTRACTS[round_], tuple(sorted(cards))


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 11), st.integers(0, 2))
def test_a_kept_card_changes_no_field_of_the_analysis(seed, pick, extra):
    """Adding a card the frame keeps, or removing one, gives the from-scratch analysis."""
    kinds, hand = deal(seed, extra)
    base = planning._analyze(kinds, hand)
    card = random.Random(seed + 1).choice(DECK)
    if keeps_with(base.frame, hand, card):
        assert fields(planning._analyze(kinds, tuple(sorted(hand + (card,))))) == fields(base)
    gone = hand[pick % len(hand)]
    if keeps_without(base.frame, gone):
        smaller = hand[:pick % len(hand)] + hand[pick % len(hand) + 1:]
        assert fields(planning._analyze(kinds, smaller)) == fields(base)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32))
def test_cached_neighbours_give_the_from_scratch_analysis(seed):
    """analyze() through the cache (neighbours reused) equals `_analyze` along a walk of draws
    and discards, as a seat's hand changes over a round."""
    planning._cache.clear()
    planning._needs.clear()
    rng = random.Random(seed)
    kinds, hand = deal(seed, 0)
    for _ in range(12):
        card = rng.choice(DECK)
        assert planning.need_with(kinds, hand, card) == planning._analyze(
            kinds, tuple(sorted(hand + (card,)))).need
        need = planning.analyze(kinds, hand).need
        assert planning.lowers_need(kinds, hand, card, need) == (
            planning._analyze(kinds, tuple(sorted(hand + (card,)))).need < need)
        hand = tuple(sorted(hand + (card,)))
        assert fields(planning.analyze(kinds, hand)) == fields(planning._analyze(kinds, hand))
        hand = _drop(hand, rng)
        assert fields(planning.analyze(kinds, hand)) == fields(planning._analyze(kinds, hand))


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 2))
def test_candidates_with_a_card_are_the_candidates_of_the_larger_hand(seed, extra):
    """`plans.candidates_with` (the hand's frame with the card's rank let in) gives the plans
    `plans.candidates` finds for the hand plus the card, and `lowers_need` given the frame
    answers as the from-scratch analyses do."""
    kinds, hand = deal(seed, extra)
    base = planning._analyze(kinds, hand)
    card = random.Random(seed + 1).choice([c for c in DECK if c != "JK"])
    naturals = planning.naturals_of(hand + (card,))[0]
    groups, runs = candidates_with(kinds, naturals, base.frame, card)
    full_groups, full_runs = candidates(kinds, naturals)
    assert ({frozenset(g) for g in groups}, runs) == ({frozenset(g) for g in full_groups},
                                                      full_runs)
    if not keeps_with(base.frame, hand, card):
        assert planning.lowers_need(kinds, hand, card, base.need, False, base.frame) == (
            planning._analyze(kinds, tuple(sorted(hand + (card,)))).need < base.need)


def _drop(hand, rng):
    """``hand`` without one card chosen at random."""
    i = rng.randrange(len(hand))
    return hand[:i] + hand[i + 1:]


def test_the_frame_is_used_on_a_spare_draw_and_discard():
    """A drawn card far from every candidate, then discarded, reuses one analysis object."""
    planning._cache.clear()
    kinds = CONTRACTS[1]   # two groups: ranks with most cards are the candidates
    hand = tuple(sorted(("7H", "7S", "7D", "KC", "KD", "QS", "2C", "5D", "9H", "10S")))
    first = planning.analyze(kinds, hand)
    drawn = planning.analyze(kinds, hand + ("3H",))
    assert drawn is first
    assert planning.analyze(kinds, tuple(c for c in hand if c != "10S")) is first


def scored_fields(analysis):
    """`fields` plus every scored plan (the table a neighbour's analysis reuses)."""
    return fields(analysis) + (analysis.scored,)


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 11), st.integers(0, 2))
def test_plans_reused_from_a_neighbour_equal_the_from_scratch_analysis(seed, pick, extra):
    """`_analyze` given the analysis of the hand one card away (a draw, a discard) as its base
    equals the analysis from scratch in every field, scored plans included."""
    kinds, hand = deal(seed, extra)
    card = random.Random(seed + 1).choice(DECK)
    bigger = tuple(sorted(hand + (card,)))
    base = planning._analyze(kinds, hand)
    assert scored_fields(planning._analyze(kinds, bigger, base, card)) == scored_fields(
        planning._analyze(kinds, bigger))
    gone = hand[pick % len(hand)]
    smaller = hand[:pick % len(hand)] + hand[pick % len(hand) + 1:]
    assert scored_fields(planning._analyze(kinds, smaller, base, gone)) == scored_fields(
        planning._analyze(kinds, smaller))
