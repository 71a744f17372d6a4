"""Card codes (R1.2, R1.3, R9.1).

A card is a plain string: ``"10H"``, ``"AS"``, ``"JK"``. Plain strings keep hands, melds and
events cheap to copy, hash and serialize. In a meld a joker is written with the card it stands
for, ``"JK=6C"`` in a run (FORMAT.md); ``"JK"`` alone is a joker in hand or in a group.
"""

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("C", "D", "H", "S")
JOKER = "JK"
JOKER_PREFIX = "JK="

# Ace is 1 (low); an ace at the top of a run counts as ACE_HIGH (R3.2, R4.3).
RANK_NUMBERS = {rank: number for number, rank in enumerate(RANKS, start=1)}
ACE_HIGH = 14

NATURALS = tuple(rank + suit for suit in SUITS for rank in RANKS)
_RANK_SUIT = {code: (code[:-1], code[-1]) for code in NATURALS}
_NUMBER_SUIT = {code: (RANK_NUMBERS[r], s) for code, (r, s) in _RANK_SUIT.items()}
_CODE_AT = {(RANK_NUMBERS[r], s): code for code, (r, s) in _RANK_SUIT.items()}
_CODE_AT.update({(ACE_HIGH, s): "A" + s for s in SUITS})
_POINTS = {code: (15 if r == "A" else 10 if r in "JQK" else int(r))
           for code, (r, s) in _RANK_SUIT.items()}
_POINTS[JOKER] = 15


def full_deck(packs=2, jokers=3):
    """Return the card codes of the game, unshuffled (R1.2; R11.2, R11.3 for other decks).

    `packs` 52-card packs (each natural code `packs` times) and `jokers` jokers: 107 cards
    by default.
    """
    return NATURALS * packs + (JOKER,) * jokers


def parse_card(code):
    """Return ``code`` if it is a card code (``"10H"``, ``"AS"``, ``"JK"``).

    Raises ``ValueError`` for anything else, including the meld form ``"JK=6C"`` (use
    :func:`parse_entry` for meld entries) and lower-case or padded strings.
    """
    if code in _RANK_SUIT or code == JOKER:
        return code
    raise ValueError(f"{code!r} is not a card code (ranks A 2-10 J Q K, suits C D H S, or JK)")


def parse_entry(entry):
    """Return ``entry`` if it is a card code, a declared joker ``"JK=<natural>"`` or a wild
    deuce ``"2C=<natural>"`` / ``"2C=<rank>"`` (R11.15; whether deuces are wild is the
    profile's to say).

    Raises ``ValueError`` otherwise.
    """
    if entry in _RANK_SUIT or entry == JOKER:
        return entry
    if entry.startswith(JOKER_PREFIX) and entry[3:] in _RANK_SUIT:
        return entry
    head, _, declared = entry.partition("=")
    if head[:-1] == "2" and head in _RANK_SUIT and (declared in _RANK_SUIT or declared in RANKS):
        return entry
    raise ValueError(f"{entry!r} is neither a card code nor a declared joker like JK=6C")


def is_joker(code):
    """True for ``"JK"`` and for a declared joker ``"JK=<card>"`` (R1.3: only jokers are wild)."""
    return code[:2] == JOKER


def is_natural(code):
    """True for one of the 52 natural card codes."""
    return code in _RANK_SUIT


def physical_card(entry):
    """The card a meld entry is made of: ``"JK"`` for ``"JK=6C"``, ``"2C"`` for a wild deuce
    ``"2C=7S"`` or ``"2C=7"`` (R11.15), else the code itself."""
    if entry[:2] == JOKER:
        return JOKER
    return entry.split("=", 1)[0]


def declared_card(entry):
    """The natural a meld entry stands for: ``"6C"`` for ``"JK=6C"`` or ``"6C"``.

    Raises ``ValueError`` for a bare ``"JK"``, which stands for nothing yet.
    """
    if entry[:3] == JOKER_PREFIX:
        return entry[3:]
    if entry in _RANK_SUIT:
        return entry
    raise ValueError(f"{entry!r} does not name a natural card")


def joker_as(card):
    """The meld entry of a joker declared as ``card``: ``joker_as("6C") == "JK=6C"``."""
    return JOKER_PREFIX + card


def rank_of(code):
    """Rank string of a natural (``"10"`` for ``"10H"``) or of a declared joker's card.

    Raises ``ValueError`` for a bare joker (it has no rank until declared, R3.3).
    """
    return _RANK_SUIT[_natural(code)][0]


def suit_of(code):
    """Suit letter of a natural (``"H"`` for ``"10H"``) or of a declared joker's card.

    Raises ``ValueError`` for a bare joker.
    """
    return _RANK_SUIT[_natural(code)][1]


def rank_number(code):
    """Rank of a natural or declared joker as a number, ace low: A=1, 2-10, J=11, Q=12, K=13.

    An ace at the high end of a run counts 14 (``ACE_HIGH``); callers that know the position
    decide. Raises ``ValueError`` for a bare joker.
    """
    return _NUMBER_SUIT[_natural(code)][0]


def number_and_suit(code):
    """``(rank_number, suit)`` of a natural or declared joker, e.g. ``(1, "S")`` for ``"AS"``."""
    return _NUMBER_SUIT[_natural(code)]


def card_at(number, suit):
    """The natural code of rank number 1..14 in ``suit`` (1 and 14 are both the ace)."""
    return _CODE_AT[(number, suit)]


def card_points(code):
    """Penalty points of a card left in hand (R9.1): 2-10 face, J Q K 10, A 15, joker 15.

    Raises ``ValueError`` for anything that is not a card code.
    """
    try:
        return _POINTS[code]
    except KeyError:
        raise ValueError(f"{code!r} is not a card code") from None


def _natural(code):
    if code in _RANK_SUIT:
        return code
    if code[:3] == JOKER_PREFIX and code[3:] in _RANK_SUIT:
        return code[3:]
    raise ValueError(f"{code!r} has no rank or suit (a bare joker, or not a card)")
