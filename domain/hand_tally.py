"""A hand's naturals counted for the opening search (domain/search.py, domain/search_final.py):
per suit and rank, per rank, and each suit's positions held (R1.2, R3.2). Pure."""
from domain.cards import ACE_HIGH, JOKER, SUITS, card_at

RUN_LEN = 4
GROUP_LEN = 3
RUN_LOWS = range(1, ACE_HIGH - RUN_LEN + 2)  # low ranks of 4-card runs: A-2-3-4 .. J-Q-K-A

# natural code -> (rank number, suit index, its position bits: an ace is at 1 and 14)
NATURAL = {card_at(n, suit): (n, si, (1 << n) | ((1 << ACE_HIGH) if n == 1 else 0))
           for si, suit in enumerate(SUITS) for n in range(1, 14)}


def tally(hand):
    """(jokers, counts[suit][rank 1..13], totals[rank], held[suit]) of a hand.

    ``held[suit]`` has bit p set when position p (1..14, an ace at both ends) has a natural.
    """
    counts = [[0] * 14 for _ in SUITS]
    totals = [0] * 14
    held = [0] * len(SUITS)
    jokers = 0
    for code in hand:
        if code == JOKER:
            jokers += 1
            continue
        found = NATURAL.get(code)
        if found is None:
            raise ValueError(f"{code!r} is not a card code")
        number, si, bits = found
        counts[si][number] += 1
        totals[number] += 1
        held[si] |= bits
    return jokers, counts, totals, held


def position_rank(position):
    """The rank number at run position 1..14 (14: the high ace)."""
    return 1 if position == ACE_HIGH else position
