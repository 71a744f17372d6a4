"""Card codes (R1.2, R1.3, R9.1)."""

from collections import Counter

import pytest

from domain.cards import (
    JOKER, RANKS, SUITS, card_at, card_points, declared_card, full_deck, is_joker, is_natural,
    joker_as, number_and_suit, parse_card, parse_entry, physical_card, rank_number, rank_of,
    suit_of,
)


def test_r1_2_the_deck_is_two_packs_and_three_jokers():
    deck = full_deck()
    counts = Counter(deck)
    assert len(deck) == 107
    assert counts[JOKER] == 3
    assert len(counts) == 53
    assert all(counts[r + s] == 2 for r in RANKS for s in SUITS)


def test_r1_2_identical_cards_share_one_code():
    deck = full_deck()
    assert deck.count("10H") == 2 and deck.count("AS") == 2


def test_r1_3_only_jokers_are_wild():
    assert is_joker("JK") and is_joker("JK=6C")
    assert not any(is_joker(code) for code in full_deck() if code != JOKER)
    assert not is_joker("2S") and is_natural("2S")


@pytest.mark.parametrize("code", ["10H", "AS", "2C", "KD", "JK"])
def test_r1_2_parse_card_accepts_deck_codes(code):
    assert parse_card(code) == code


@pytest.mark.parametrize("code", ["", "1H", "11H", "10X", "ah", " AS", "JK=6C", "T H", "JOKER", "AS "])
def test_r1_2_parse_card_refuses_strings_that_are_not_cards(code):
    with pytest.raises(ValueError):
        parse_card(code)


def test_r3_3_meld_entries_name_a_declared_card():
    assert parse_entry("JK=6C") == "JK=6C"
    assert physical_card("JK=6C") == JOKER and physical_card("6C") == "6C"
    assert declared_card("JK=6C") == "6C" and joker_as("6C") == "JK=6C"
    for bad in ("JK=", "JK=JK", "JK=1C"):
        with pytest.raises(ValueError):
            parse_entry(bad)
    with pytest.raises(ValueError):
        declared_card("JK")


def test_r3_2_rank_numbers_put_the_ace_low_and_court_cards_above_ten():
    assert [rank_number(r + "S") for r in RANKS] == list(range(1, 14))
    assert rank_of("10H") == "10" and suit_of("10H") == "H"
    assert number_and_suit("JK=QD") == (12, "D")
    assert card_at(14, "H") == "AH" and card_at(1, "H") == "AH" and card_at(11, "C") == "JC"


def test_r3_3_a_bare_joker_has_no_rank_or_suit():
    with pytest.raises(ValueError):
        rank_of("JK")
    with pytest.raises(ValueError):
        suit_of("JK")


@pytest.mark.parametrize("code,points", [
    ("2C", 2), ("9H", 9), ("10D", 10), ("JS", 10), ("QH", 10), ("KC", 10), ("AD", 15), ("JK", 15),
])
def test_r9_1_card_points(code, points):
    assert card_points(code) == points


def test_r9_1_example_k_a_5_and_joker_score_45():
    assert sum(card_points(c) for c in ("KS", "AH", "5D", "JK")) == 45


def test_r9_1_points_refuse_non_cards():
    with pytest.raises(ValueError):
        card_points("JK=5D")
