"""Laying off onto melds and swapping their jokers (RULES.md R7.2-R7.5), on the melds of
`domain.melds`: the moves themselves, every target a meld offers and what a hand allows.

Plain strings and precomputed tables, as in `domain.melds`, so that the legal actions can list
thousands of lay-offs a second. Other meld rules (a profile's MeldRules, R11.13-R11.15) go
to `domain.variants.melds`.
"""
from functools import lru_cache

from domain.cards import ACE_HIGH, JOKER, SUITS, card_at, joker_as
from domain.errors import MalformedAction, RuleViolation
from domain.melds import ENTRY_INFO, GROUP, RUN, Meld, group_rank, needs_variant, run_span
from domain.variants import melds as _variant


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
    if needs_variant(rules):
        return _variant.lay_off(meld, card, end, rules)
    if card not in ENTRY_INFO and card != JOKER:
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
    if natural not in ENTRY_INFO or ENTRY_INFO[natural][2]:
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
    if needs_variant(rules):
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
    if needs_variant(rules):
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
    if needs_variant(rules):
        return _variant.joker_swaps(melds, hand)
    have = set(hand)
    out = []
    for index, meld in enumerate(melds):
        if meld.kind == RUN:
            for entry in meld.cards:
                if entry[:3] == "JK=" and entry[3:] in have:
                    out.append((index, entry[3:]))
    return out



# -- helpers ---------------------------------------------------------------------------------

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
    number, _, joker = ENTRY_INFO[card]
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
