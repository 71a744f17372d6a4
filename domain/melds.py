"""Groups and runs: validating a meld as written, laying off, swapping jokers (R3, R7.2-R7.5).

A meld is written as in FORMAT.md: a run lists its cards low to high, an ace first is low (1)
and an ace last is high (14), a joker in a run is ``"JK=<card>"``; a joker in a group is
``"JK"``. Everything here works on plain strings and precomputed tables so that the engine can
check thousands of lay-offs a second.
"""

from dataclasses import dataclass
from functools import lru_cache

from domain.cards import ACE_HIGH, JOKER, NATURALS, SUITS, card_at, joker_as, number_and_suit
from domain.errors import MalformedAction, RuleViolation
from domain.profile.options import STANDARD_MELDS

GROUP = "group"
RUN = "run"
MIN_LENGTH = {GROUP: 3, RUN: 4}

# entry -> (rank number 1..13, suit, is_joker) for naturals and declared jokers.
_ENTRY = {code: number_and_suit(code) + (False,) for code in NATURALS}
_ENTRY.update({joker_as(code): (number, suit, True) for code, (number, suit, _) in _ENTRY.items()})


@dataclass(frozen=True, slots=True)
class Meld:
    """An exposed meld: ``owner`` seat, ``kind`` ``"group"`` or ``"run"``, ``cards`` as written.

    Build it with :func:`make_meld` (which validates); a run's cards are low to high.
    """

    owner: int
    kind: str
    cards: tuple


def _general(rules):
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
    if _general(rules):
        return _variant.make_meld(owner, cards, rules)
    cards = tuple(cards)
    for entry in cards:
        if entry not in _ENTRY and entry != JOKER:
            raise MalformedAction("R1.2", f"{entry!r} is not a card (or a joker written JK=<card>)")
    kind = meld_kind(cards)
    if kind == GROUP:
        _check_group(cards)
    else:
        _check_run(cards)
    return Meld(owner, kind, cards)


def run_span(meld):
    """``(suit, low, high)`` of a run, ranks as numbers (ace low 1, ace high 14)."""
    first = _ENTRY.get(meld.cards[0])
    if first is None:  # a wild deuce (R11.15)
        return _variant.run_span(meld)
    low, suit, _ = first
    return suit, low, low + len(meld.cards) - 1


def group_rank(meld):
    """Rank number (1..13) of a group: the rank of its natural cards (R3.1)."""
    for entry in meld.cards:
        info = _ENTRY.get(entry)
        if info is not None:
            return info[0]
    raise ValueError("a group without a natural card")  # make_meld never builds one (R3.3)


def lay_off(meld, card, end=None, rules=None):
    """Return a new meld with ``card`` laid off onto ``meld`` (R7.2-R7.4); ``meld`` is unchanged.

    ``card`` is a natural code, ``"JK"`` onto a group, or ``"JK=<card>"`` onto a run (R7.4: the
    player declares it). ``end`` is ``"low"``, ``"high"`` or None; it is needed only where a
    card fits both ends (an ace onto 2..K). Raises :class:`RuleViolation` citing R7.2 (wrong
    rank or a declared joker on a group), R7.3 (not the card just below or above an end, wrong
    suit, beyond an ace), R7.4 (joker not declared, or an ambiguous end) or R3.4 (a natural
    equal to a joker's declared card joins only by a swap, R7.5). Other `rules`: see
    `domain.variants.melds.lay_off`.
    """
    if _general(rules):
        return _variant.lay_off(meld, card, end, rules)
    if card not in _ENTRY and card != JOKER:
        raise MalformedAction("R1.2", f"{card!r} is not a card (or a joker written JK=<card>)")
    if meld.kind == GROUP:
        return _lay_off_group(meld, card)
    return _lay_off_run(meld, card, end)


def swap_joker(meld, natural):
    """Return ``meld`` with ``natural`` in place of the joker declared as that card (R7.5).

    Only runs give up jokers, and only to the exact card (rank and suit) the joker stands for.
    The released joker is the caller's to lay off at once (R7.5). Raises :class:`RuleViolation`
    (R7.5) for a group, for a joker or unknown card, or when no joker of the run stands for
    ``natural``.
    """
    if meld.kind == GROUP:
        raise RuleViolation("R7.5", "a joker in a group is never taken; only run jokers are swapped")
    if natural not in _ENTRY or _ENTRY[natural][2]:
        raise RuleViolation("R7.5", f"a joker is swapped out with a natural card, not {natural!r}")
    entry = joker_as(natural)
    if entry not in meld.cards:
        raise RuleViolation("R7.5", f"no joker in this run stands for {natural}; "
                                    f"a swap needs the exact card the joker stands for")
    i = meld.cards.index(entry)
    return Meld(meld.owner, meld.kind, meld.cards[:i] + (natural,) + meld.cards[i + 1:])


def layoff_targets(meld, rules=None):
    """Every ``(entry, end)`` that may be laid off onto ``meld`` (R7.2, R7.3).

    Entries are naturals, ``"JK"`` for a group and ``"JK=<card>"`` for a run; ``end`` is None
    except for an ace that fits both ends of a 2..K run (two pairs, ``"low"`` and ``"high"``).
    Cached: melds are immutable.
    """
    if _general(rules):
        return _variant.layoff_targets(meld, rules)
    if meld.kind == GROUP:
        return _GROUP_TARGETS[group_rank(meld)]
    return _run_targets(*run_span(meld))


def layoffs_for_hand(melds, hand, rules=None):
    """Lay-offs the cards of ``hand`` allow onto ``melds``: ``[(meld_index, entry, end)]``.

    Deterministic order: by meld index, then the order of :func:`layoff_targets`. A joker in
    hand yields every declared card it could take. Legality beyond the fit (R4.5, R5.6, R7.1)
    is the caller's.
    """
    if _general(rules):
        return _variant.layoffs_for_hand(melds, hand, rules)
    have = set(hand)
    joker = JOKER in have
    out = []
    for index, meld in enumerate(melds):
        for entry, end in layoff_targets(meld):
            if entry in have or (joker and entry[:2] == JOKER):
                out.append((index, entry, end))
    return out


def joker_swaps(melds, hand, rules=None):
    """Swaps the cards of ``hand`` allow: ``[(meld_index, natural)]`` for run jokers (R7.5).

    Placing the released joker is the caller's (it must go onto a meld at once, R7.5).
    """
    if _general(rules):
        return _variant.joker_swaps(melds, hand)
    have = set(hand)
    out = []
    for index, meld in enumerate(melds):
        if meld.kind == RUN:
            for entry in meld.cards:
                if entry[:3] == "JK=" and entry[3:] in have:
                    out.append((index, entry[3:]))
    return out


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
    if _general(rules):
        return _variant.meld_kind(cards, rules)
    naturals = [e for e in cards if e != JOKER and not _ENTRY[e][2]]
    if not naturals:
        raise RuleViolation("R3.3", "every meld needs at least one natural card besides its jokers")
    ranks = {_ENTRY[e][0] for e in cards if e != JOKER}
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
    low, suit, _ = _ENTRY[cards[0]]
    if any(_ENTRY[entry][1] != suit for entry in cards):  # said first: it may be a group meant
        raise RuleViolation("R3.2", mixed_suits(cards))
    if len(cards) < MIN_LENGTH[RUN]:
        raise RuleViolation("R3.2", f"a run needs at least 4 cards, not {len(cards)}")
    for offset, entry in enumerate(cards):
        number, _, joker = _ENTRY[entry]
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
    if _ENTRY[entry][0] == 1:
        return "R3.2", "the ace is low (first) or high (last), never in the middle: K-A-2-3 is no run"
    if joker:
        return "R3.3", f"{entry} sits where the run needs {card_at(want, _ENTRY[entry][1])}"
    return "R3.2", (f"a run is consecutive ranks listed low to high: "
                    f"{entry} comes where {card_at(want, _ENTRY[entry][1])} belongs")


# -- lay-offs --------------------------------------------------------------------------------

_GROUP_TARGETS = {
    number: tuple((card_at(number, suit), None) for suit in SUITS) + ((JOKER, None),)
    for number in range(1, 14)
}


@lru_cache(maxsize=None)
def _run_targets(suit, low, high):
    """(entry, end) pairs that extend the run low..high of ``suit`` (R7.3)."""
    spots = []
    if low > 1:
        spots.append((card_at(low - 1, suit), "low"))
    if high < ACE_HIGH:
        spots.append((card_at(high + 1, suit), "high"))
    # An ace fits both ends of 2..K; only then does the end need naming (R7.4).
    ambiguous = len(spots) == 2 and spots[0][0] == spots[1][0]
    naturals = [(card, end if ambiguous else None) for card, end in spots]
    return tuple(naturals + [(joker_as(card), end) for card, end in naturals])


def _lay_off_group(meld, card):
    if card == JOKER:
        return Meld(meld.owner, meld.kind, meld.cards + (JOKER,))
    number, _, joker = _ENTRY[card]
    if joker:
        raise RuleViolation("R7.2", "a joker laid off onto a group is written JK: "
                                    "it takes the group's rank")
    if number != group_rank(meld):
        raise RuleViolation("R7.2", f"{card} is not of this group's rank")
    return Meld(meld.owner, meld.kind, meld.cards + (card,))


def _lay_off_run(meld, card, end):
    if card == JOKER:
        raise RuleViolation("R7.4", "name the card a joker stands for on a run, e.g. JK=9S")
    if end not in (None, "low", "high"):
        raise MalformedAction("R7.4", f"end is 'low' or 'high', not {end!r}")
    suit, low, high = run_span(meld)
    ends = [e for e, fits in (("low", card in (_low_of(suit, low), _joker_low(suit, low))),
                              ("high", card in (_high_of(suit, high), _joker_high(suit, high))))
            if fits and (end is None or e == end)]
    if len(ends) == 2:
        raise RuleViolation("R7.4", f"{card} fits both ends of this run: say end low or high")
    if ends:
        cards = (card,) + meld.cards if ends[0] == "low" else meld.cards + (card,)
        return Meld(meld.owner, meld.kind, cards)
    if joker_as(card) in meld.cards:
        raise RuleViolation("R3.4", f"a joker stands for {card} in this run: "
                                    f"{card} can enter only by swapping that joker out (R7.5)")
    raise RuleViolation("R7.3", _no_fit_message(card, suit, low, high, end))


def _low_of(suit, low):
    return card_at(low - 1, suit) if low > 1 else None


def _high_of(suit, high):
    return card_at(high + 1, suit) if high < ACE_HIGH else None


def _joker_low(suit, low):
    return joker_as(card_at(low - 1, suit)) if low > 1 else None


def _joker_high(suit, high):
    return joker_as(card_at(high + 1, suit)) if high < ACE_HIGH else None


def _no_fit_message(card, suit, low, high, end):
    options = [c for c in (_low_of(suit, low), _high_of(suit, high)) if c]
    if not options:
        return "this run is complete from ace to ace: nothing goes beyond an ace"
    where = f" at the {end} end" if end else ""
    fits = " or ".join(options)
    beyond = "; nothing goes beyond an ace" if low == 1 or high == ACE_HIGH else ""
    return (f"{card} does not fit this run{where}: only {fits} (or a joker declared as one) "
            f"extends it{beyond}")


from domain.variants import melds as _variant  # noqa: E402  (it builds on the names above)
