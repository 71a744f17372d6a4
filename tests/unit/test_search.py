"""Finding openings and measuring a hand's distance to its contract (R4.2, R4.3, R8.2)."""

import gc
import random
import time
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from domain.cards import JOKER, card_at, full_deck, joker_as, physical_card
from domain.contracts import CONTRACTS, check_opening
from domain.errors import RuleViolation
from domain.search import deficit, find_opening
from domain.search_final import _step, _suit_runs

DECK = full_deck()
NATURAL_DECK = [c for c in DECK if c != JOKER]


def accepted(round_, hand, melds):
    """The arrangement passes check_opening and uses only cards of the hand (R1.4)."""
    check_opening(round_, melds, tuple(hand))
    used = Counter(physical_card(c) for m in melds for c in m)
    assert not used - Counter(hand)
    return True


# -- examples ---------------------------------------------------------------------------------

@pytest.mark.parametrize("round_,hand", [
    (1, ["7H", "7H", "7C", "KC", "KD", "KS", "2D", "5S", "9C", "10H", "QH"]),
    (2, ["9C", "9D", "9H", "JH", "QH", "KH", "JK", "2D", "5C"]),
    (3, ["3H", "4H", "5H", "6H", "JK", "9H", "10H", "JH", "2D", "9C", "KS"]),
    (4, ["7H", "JK", "7C", "2C", "2D", "JK", "3S", "3C", "JK"]),
    (6, ["9D", "9C", "9H", "AS", "2S", "3S", "4S", "JS", "QS", "KS", "AS", "5D", "8C"]),
])
def test_r4_2_find_opening_lays_exactly_the_contract(round_, hand):
    melds = find_opening(round_, hand)
    assert melds is not None and accepted(round_, hand, melds)
    assert deficit(round_, hand) == 0


def test_r4_3_find_opening_will_not_offer_contiguous_runs():
    hand = ["3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "2D", "9C", "KS"]
    assert find_opening(3, hand) is None
    assert find_opening(3, hand[:4] + ["JK"] + hand[5:]) is not None  # 3-6 apart from 8-J
    assert deficit(3, hand) == 1


def test_r3_3_a_group_may_borrow_a_natural_from_a_run_with_jokers():
    hand = ["5H", "6H", "7H", "8H", "JK", "JK", "JK"]
    melds = find_opening(2, hand)
    assert melds is not None and accepted(2, hand, melds)


def test_r3_5_each_joker_serves_one_meld():
    assert find_opening(1, ["7D", "7S", "JK", "9S", "9C", "2D"]) is None
    assert find_opening(1, ["7D", "7S", "JK", "9S", "9C", "JK"]) is not None


def test_r8_2_round_7_lays_the_whole_hand_as_three_runs():
    hand = ["3D", "4D", "5D", "6D", "9C", "10C", "JC", "QC", "5S", "6S", "7S", "8S", "9S"]
    melds = find_opening(7, hand)
    assert accepted(7, hand, melds) and sum(map(len, melds)) == 13
    assert find_opening(7, hand + ["KH"]) is None


def test_r8_2_round_7_places_jokers_and_both_aces():
    hand = ["AD", "2D", "3D", "JD", "QD", "KD", "AD", "5S", "6S", "7S", "8S", "JK", "JK"]
    assert accepted(7, hand, find_opening(7, hand))


def test_r8_2_r4_3_round_7_cannot_split_one_long_run_in_touching_pieces():
    hand = ["3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D", "5S", "6S", "7S", "8S", "9S"]
    assert find_opening(7, hand) is None


def test_deficit_counts_missing_cards():
    assert deficit(1, ["7H", "7C", "KC", "2D", "5S"]) == 3  # one 7, two kings missing
    assert deficit(4, ["7H", "JK", "JK", "JK", "2C", "2D", "3S"]) == 2
    assert deficit(3, []) == 8


# -- independent brute force for rounds 1-6 ---------------------------------------------------

def brute_force_opening(round_, hand):
    """Every candidate meld at minimum length, combined naively; None if none fits."""
    have = Counter(hand)
    jokers = have[JOKER]
    candidates = {"group": [], "run": []}
    for rank in range(1, 14):
        naturals = [card_at(rank, s) for s in "CDHS" for _ in range(have[card_at(rank, s)])]
        for n in range(1, 4):
            for combo in set(combinations(naturals, n)):
                if 3 - n <= jokers:
                    candidates["group"].append(list(combo) + [JOKER] * (3 - n))
    for suit in "CDHS":
        for low in range(1, 12):
            cards = [card_at(p, suit) for p in range(low, low + 4)]
            for mask in range(1, 16):
                run = [c if mask >> i & 1 else joker_as(c) for i, c in enumerate(cards)]
                if all(have[c] for i, c in enumerate(cards) if mask >> i & 1):
                    candidates["run"].append(run)
    kinds = CONTRACTS[round_]

    def pick(i, first, chosen):
        if i == len(kinds):
            try:
                check_opening(round_, chosen, tuple(hand))
                return list(chosen)
            except RuleViolation:
                return None
        pool = candidates[kinds[i]]
        start = first if i and kinds[i] == kinds[i - 1] else 0
        for j in range(start, len(pool)):
            need = Counter(physical_card(c) for m in chosen + [pool[j]] for c in m)
            if need - have:
                continue
            found = pick(i + 1, j, chosen + [pool[j]])
            if found:
                return found
        return None

    return pick(0, 0, [])


DENSE = [r + s for r in ("A", "2", "3", "4", "5", "Q", "K") for s in ("H", "S")] * 2 + [JOKER] * 3


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(round_=st.integers(1, 6), cards=st.permutations(DENSE), size=st.integers(6, 11))
def test_r4_2_find_opening_agrees_with_brute_force(round_, cards, size):
    hand = cards[:size]
    found = find_opening(round_, hand)
    expected = brute_force_opening(round_, hand)
    assert (found is None) == (expected is None), (found, expected)
    assert (deficit(round_, hand) == 0) == (found is not None)
    if found:
        assert accepted(round_, hand, found)


# -- properties -------------------------------------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(round_=st.integers(1, 7), cards=st.permutations(DECK), size=st.integers(0, 18))
def test_r4_2_r8_2_whatever_find_opening_returns_is_accepted_and_from_the_hand(round_, cards, size):
    hand = cards[:size]
    melds = find_opening(round_, hand)
    if melds is not None:
        assert accepted(round_, hand, melds)


def _contract_hand(round_, rng):
    """A hand holding the round's contract at minimum lengths, some slots jokers, or None."""
    pool = Counter(NATURAL_DECK)
    melds, spans = [], []
    for kind in CONTRACTS[round_]:
        if kind == "group":
            rank = rng.randint(1, 13)
            codes = [card_at(rank, s) for s in "CDHS" for _ in range(pool[card_at(rank, s)])]
            if len(codes) < 3:
                return None
            meld = rng.sample(codes, 3)
        else:
            suit, low = rng.choice("CDHS"), rng.randint(1, 11)
            if any(s == suit and (low == h + 1 or l == low + 4) for s, l, h in spans):
                return None  # R4.3: keep the constructed contract legal
            spans.append((suit, low, low + 3))
            meld = [card_at(p, suit) for p in range(low, low + 4)]
        for c in meld:
            if pool[c] == 0:
                return None
            pool[c] -= 1
        melds.append(meld)
    slots = [(i, j) for i, m in enumerate(melds) for j in range(len(m))]
    for i, j in rng.sample(slots, rng.randint(0, 3)):
        if sum(1 for c in melds[i] if c != JOKER) > 1:
            pool[melds[i][j]] += 1
            melds[i][j] = JOKER
    hand = [c for m in melds for c in m]
    extra = rng.randint(0, 6)
    rest = list(pool.elements()) + [JOKER] * (3 - hand.count(JOKER))
    return hand + rng.sample(rest, extra)


@settings(max_examples=300, deadline=None)
@given(round_=st.integers(1, 6), rng=st.randoms(use_true_random=False))
def test_r4_2_a_hand_holding_the_contract_plus_extra_cards_can_open(round_, rng):
    hand = _contract_hand(round_, rng)
    assume(hand is not None)
    melds = find_opening(round_, hand)
    assert melds is not None, hand
    assert accepted(round_, hand, melds)
    assert deficit(round_, hand) == 0


def _final_hand(rng):
    """Three random runs obeying R4.3 and the deck's two copies, some cards turned jokers."""
    pool = Counter(NATURAL_DECK)
    spans, hand = [], []
    for _ in range(3):
        suit, length = rng.choice("CDHS"), rng.randint(4, 7)
        low = rng.randint(1, 15 - length)
        high = low + length - 1
        if any(s == suit and (low == h + 1 or l == high + 1) for s, l, h in spans):
            return None
        spans.append((suit, low, high))
        for p in range(low, high + 1):
            code = card_at(p, suit)
            if pool[code] == 0:
                return None
            pool[code] -= 1
            hand.append(code)
    for i in rng.sample(range(len(hand)), rng.randint(0, 3)):
        hand[i] = JOKER
    rng.shuffle(hand)
    return hand


@settings(max_examples=300, deadline=None)
@given(rng=st.randoms(use_true_random=False))
def test_r8_2_a_hand_of_three_legal_runs_goes_out(rng):
    hand = _final_hand(rng)
    assume(hand is not None)
    melds = find_opening(7, hand)
    assert melds is not None, hand
    assert accepted(7, hand, melds) and sum(map(len, melds)) == len(hand)


@settings(max_examples=200, deadline=None)
@given(round_=st.integers(1, 7), cards=st.permutations(DECK), size=st.integers(0, 14))
def test_deficit_never_grows_when_a_card_is_added(round_, cards, size):
    hand = cards[:size]
    assert deficit(round_, hand + [cards[size]]) <= deficit(round_, hand)


def test_search_is_fast_on_16_card_hands_with_3_jokers():
    """Cold caches, best of three runs per hand (as timeit), so machine load does not count."""
    rng = random.Random(7)
    worst = 0.0
    gc.disable()
    try:
        for i in range(350):
            hand = rng.sample(NATURAL_DECK, 13) + [JOKER] * 3
            runs = []
            for _ in range(3):
                for cached in (_step, _suit_runs):
                    cached.cache_clear()
                start = time.perf_counter()
                find_opening(1 + i % 7, hand)
                runs.append(time.perf_counter() - start)
            worst = max(worst, min(runs))
    finally:
        gc.enable()
    assert worst < 0.010


# -- the cheap pre-check before the search -----------------------------------------------------

@settings(max_examples=600, deadline=None)
@given(st.integers(1, 7), st.integers(0, 2**32))
def test_the_pre_check_never_rules_out_a_hand_that_opens(round_, seed):
    """`_may_open` (a necessary condition) holds whenever the full search finds an opening;
    hands are drawn from few suits and ranks (plus jokers) so that many of them open."""
    from domain.search import _contract_plan, _final_plan, _may_open
    rng = random.Random(seed)
    suits = rng.sample("CDHS", rng.randint(1, 3))
    low = rng.randint(1, 8)
    pool = [c for c in DECK if c == JOKER
            or (c[-1] in suits and low <= card_number(c) < low + 7)]
    hand = tuple(sorted(rng.sample(pool, min(len(pool), 10 + rng.randint(0, 4)))))
    if round_ == 7:
        searched = _final_plan(hand)
    else:
        searched = _contract_plan(CONTRACTS[round_], hand, True)[1]
    if searched is not None:
        assert _may_open(round_, hand)
    assert (find_opening(round_, hand) is None) == (searched is None)


def card_number(code):
    """Rank number of a natural (ace 1)."""
    return ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K").index(code[:-1]) + 1


def test_a_cached_opening_is_returned_as_new_lists():
    """find_opening caches its search per hand; a caller changing the lists it got never
    changes what the next caller gets (R4.2: the same opening, whole)."""
    hand = ["7H", "7S", "7D", "KC", "KD", "KS", "2C"]
    first = find_opening(1, hand)
    expected = [list(meld) for meld in first]
    first[0].append("XX")
    first.append(["junk"])
    again = find_opening(1, list(reversed(hand)))
    assert again == expected and accepted(1, hand, again)


@settings(max_examples=800, deadline=None)
@given(st.integers(0, 2**32))
def test_the_final_round_pre_check_keeps_every_hand_that_goes_out(seed):
    """Round 7 (R8.2): hands built from three runs (some cards turned into jokers) that the
    search lays whole always pass `_may_open`, whose hole bound must never rule one out."""
    from domain.search import _final_plan, _may_open
    rng = random.Random(seed)
    suits = rng.sample("CDHS", rng.randint(1, 3))
    cards = []
    for i in range(3):
        suit = suits[i % len(suits)] if i < len(suits) else rng.choice(suits)
        length = rng.randint(4, 6)
        low = rng.randint(1, 15 - length)
        names = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
        cards += [names[p - 1] + suit for p in range(low, low + length)]
    for i in rng.sample(range(len(cards)), rng.randint(0, 3)):
        cards[i] = JOKER
    if any(cards.count(c) > 2 for c in cards if c != JOKER):
        return                                   # two packs: no card three times (R1.2)
    hand = tuple(sorted(cards))
    if _final_plan(hand) is not None:
        assert _may_open(7, hand)
    assert (find_opening(7, hand) is None) == (_final_plan(hand) is None)
