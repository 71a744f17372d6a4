"""Groups and runs: a meld as written, validated (R3). Laying off and swapping jokers onto
melds (R7.2-R7.5) are `domain.layoffs`.

A meld is written as in FORMAT.md: a run lists its cards low to high, an ace first is low (1)
and an ace last is high (14), a joker in a run is ``"JK=<card>"``; a joker in a group is
``"JK"``. Everything here works on plain strings and precomputed tables (``ENTRY_INFO``) so
that the engine can check thousands of melds a second.
"""

from dataclasses import dataclass

from domain.cards import ACE_HIGH, JOKER, NATURALS, card_at, joker_as, number_and_suit
from domain.errors import MalformedAction, RuleViolation
from domain.profile.options import STANDARD_MELDS

GROUP = "group"
RUN = "run"
MIN_LENGTH = {GROUP: 3, RUN: 4}

# entry -> (rank number 1..13, suit, is_joker) for naturals and declared jokers.
ENTRY_INFO = {code: number_and_suit(code) + (False,) for code in NATURALS}
ENTRY_INFO.update({joker_as(code): (number, suit, True)
                   for code, (number, suit, _) in ENTRY_INFO.items()})


@dataclass(frozen=True, slots=True)
class Meld:
    """An exposed meld: ``owner`` seat, ``kind`` ``"group"`` or ``"run"``, ``cards`` as written.

    Build it with :func:`make_meld` (which validates); a run's cards are low to high.
    """

    owner: int
    kind: str
    cards: tuple


def needs_variant(rules):
    """True when `rules` (a MeldRules or None: standard) needs `domain.variants.melds`."""
    return rules is not None and rules is not STANDARD_MELDS


def make_meld(owner, cards, rules=None):
    """Validate ``cards`` as one meld written in FORMAT.md notation and return a :class:`Meld`.

    The kind is read from the cards: declared jokers or several ranks make a run, one rank a
    group. Raises :class:`MalformedAction` (R1.2) for a string that is not a card or
    ``JK=<card>``, and :class:`RuleViolation` citing R3.1 (group), R3.2 (run: one suit,
    consecutive, ace only at an end, at most 14) or R3.3 (jokers: declared in runs, at least
    one natural card per meld). Under other `rules` (a profile's MeldRules) see
    `domain.variants.melds.make_meld` (R11.5, R11.13-R11.15).
    """
    if needs_variant(rules):
        return _variant.make_meld(owner, cards, rules)
    cards = tuple(cards)
    for entry in cards:
        if entry not in ENTRY_INFO and entry != JOKER:
            raise MalformedAction("R1.2", f"{entry!r} is not a card (or a joker written JK=<card>)")
    kind = meld_kind(cards)
    if kind == GROUP:
        _check_group(cards)
    else:
        _check_run(cards)
    return Meld(owner, kind, cards)


def run_span(meld):
    """``(suit, low, high)`` of a run, ranks as numbers (ace low 1, ace high 14)."""
    first = ENTRY_INFO.get(meld.cards[0])
    if first is None:  # a wild deuce (R11.15)
        return _variant.run_span(meld)
    low, suit, _ = first
    return suit, low, low + len(meld.cards) - 1


def group_rank(meld):
    """Rank number (1..13) of a group: the rank of its natural cards (R3.1)."""
    for entry in meld.cards:
        info = ENTRY_INFO.get(entry)
        if info is not None:
            return info[0]
    raise ValueError("a group without a natural card")  # make_meld never builds one (R3.3)


# -- validation ------------------------------------------------------------------------------

def wild_index(cards, natural):
    """Index of the wild entry of a run standing for `natural` (``JK=9S``, ``2C=9S``), or None."""
    entry = joker_as(natural)
    if entry in cards:
        return cards.index(entry)
    tail = "=" + natural
    for i, card in enumerate(cards):
        if card.endswith(tail):
            return i
    return None


def meld_kind(cards, rules=None):
    """The kind of ``cards`` written as one meld: ``"run"`` or ``"group"`` (R3.3).

    A declared joker (``JK=<card>``) or two ranks make a run. Entries must already be cards or
    declared jokers. Raises :class:`RuleViolation` (R3.3) for a meld without a natural card
    or with jokers written both ways. `domain.fold` uses it for melds already validated.
    """
    if needs_variant(rules):
        return _variant.meld_kind(cards, rules)
    naturals = [e for e in cards if e != JOKER and not ENTRY_INFO[e][2]]
    if not naturals:
        raise RuleViolation("R3.3", "every meld needs at least one natural card besides its jokers")
    ranks = {ENTRY_INFO[e][0] for e in cards if e != JOKER}
    declared = len(naturals) != len(cards) - cards.count(JOKER)
    if declared and JOKER in cards:
        raise RuleViolation("R3.3", "a joker is written JK in a group and JK=<card> in a run, "
                                    "not both in one meld")
    if declared and len(ranks) == 1 and len(cards) > 1:
        raise RuleViolation("R3.3", "a joker in a group is written JK (it takes the group's rank)")
    return RUN if declared or len(ranks) > 1 else GROUP


def _check_group(cards):
    if len(cards) < MIN_LENGTH[GROUP]:
        raise RuleViolation("R3.1", f"a group needs at least 3 cards of one rank, not {len(cards)}")


def _check_run(cards):
    if JOKER in cards:
        raise RuleViolation("R3.3", "a joker in a run must be written with its card, e.g. JK=6C")
    low, suit, _ = ENTRY_INFO[cards[0]]
    if any(ENTRY_INFO[entry][1] != suit for entry in cards):  # said first: it may be a group meant
        raise RuleViolation("R3.2", mixed_suits(cards))
    if len(cards) < MIN_LENGTH[RUN]:
        raise RuleViolation("R3.2", f"a run needs at least 4 cards, not {len(cards)}")
    for offset, entry in enumerate(cards):
        number, _, joker = ENTRY_INFO[entry]
        want = low + offset
        if number == want or (number == 1 and want == ACE_HIGH):
            continue
        raise RuleViolation(*_run_break(cards, offset, want, joker))


def mixed_suits(cards):
    """The reason a meld whose entries (written codes) hold two suits and two ranks is refused:
    said for both kinds, since the player may have meant a group (R3.1) as well as a run (R3.2)."""
    written = " ".join(cards)
    return f"{written} is no meld: a run is all one suit (R3.2) and a group all one rank (R3.1)"


def _run_break(cards, offset, want, joker):
    entry = cards[offset]
    if want > ACE_HIGH:
        return "R3.2", ("nothing goes beyond an ace: a run does not wrap (K-A-2 is no run) "
                        "and holds 14 cards at most")
    if ENTRY_INFO[entry][0] == 1:
        return "R3.2", "the ace is low (first) or high (last), never in the middle: K-A-2-3 is no run"
    if joker:
        return "R3.3", f"{entry} sits where the run needs {card_at(want, ENTRY_INFO[entry][1])}"
    return "R3.2", (f"a run is consecutive ranks listed low to high: "
                    f"{entry} comes where {card_at(want, ENTRY_INFO[entry][1])} belongs")


from domain.variants import melds as _variant  # noqa: E402  (it builds on the names above)
