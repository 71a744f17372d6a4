"""Melds under any profile's meld rules: runs and groups of any minimum length (R11.5), the
ace high only (R11.14), wild deuces (R11.15) and a cap on a run's wild cards (R11.13).

Entries are FORMAT.md's: a natural code, ``JK`` (a joker in a group), ``JK=7S`` (a joker in
a run) and, under `wild_twos`, ``2C=7S`` (a wild deuce in a run) or ``2C=7`` (in a group).
An entry's info is ``(number, suit, wild)``: a group wild has suit None, a bare joker number
None too. Functions take a `MeldRules` and return `domain.melds.Meld` objects.
"""
from __future__ import annotations

from functools import lru_cache

from domain.cards import ACE_HIGH, JOKER, NATURALS, RANKS, RANK_NUMBERS, SUITS, card_at, joker_as
from domain.errors import MalformedAction, RuleViolation
from domain.melds import GROUP, RUN, Meld, mixed_suits, wild_index
from domain.cards import number_and_suit

DEUCES = tuple("2" + suit for suit in SUITS)
_NATURAL = {code: number_and_suit(code) + (False,) for code in NATURALS}
_JOKERS = {joker_as(code): (n, s, True) for code, (n, s, _) in _NATURAL.items()}
_JOKERS[JOKER] = (None, None, True)
_DEUCE_WILD = {f"{d}={code}": (n, s, True) for d in DEUCES for code, (n, s, _) in _NATURAL.items()}
_DEUCE_WILD.update({f"{d}={rank}": (RANK_NUMBERS[rank], None, True)
                    for d in DEUCES for rank in RANKS if rank != "2"})


def entry_info(entry: object, rules) -> tuple:
    """`(number, suit, wild)` of a meld entry; MalformedAction R1.2 (R11.15 for a wild deuce
    while deuces are natural)."""
    info = _NATURAL.get(entry) or _JOKERS.get(entry)
    if info is not None:
        return info
    if entry in _DEUCE_WILD:
        if rules.wild_twos:
            return _DEUCE_WILD[entry]
        raise MalformedAction("R11.15", f"{entry}: deuces are natural in this profile")
    raise MalformedAction("R1.2", f"{entry!r} is not a card (or a wild card written "
                                  f"JK=<card>)")


def make_meld(owner: int, cards, rules) -> Meld:
    """Validate `cards` as one meld under `rules`; RuleViolation R3.1-R3.3, R11.13-R11.15."""
    cards = tuple(cards)
    infos = [entry_info(e, rules) for e in cards]
    kind = _kind(cards, infos)
    (_check_group if kind == GROUP else _check_run)(cards, infos, rules)
    return Meld(owner, kind, cards)


def meld_kind(cards, rules) -> str:
    """`"run"` or `"group"` for entries written as one meld (R3.3)."""
    return _kind(tuple(cards), [entry_info(e, rules) for e in cards])


def _kind(cards, infos) -> str:
    naturals = [i for i in infos if not i[2]]
    if not naturals:
        raise RuleViolation("R3.3", "every meld needs at least one natural card besides "
                                    "its wild cards")
    declared = any(i[2] and i[1] is not None for i in infos)
    ranks = {i[0] for i in infos if i[0] is not None}
    if declared and len(ranks) == 1 and len(cards) > 1:
        raise RuleViolation("R3.3", "a wild card in a group is written JK or 2C=<rank>")
    return RUN if declared or len(ranks) > 1 else GROUP


def _check_group(cards, infos, rules) -> None:
    if len(cards) < rules.group_min:
        raise RuleViolation("R3.1", f"a group needs at least {rules.group_min} cards of one "
                                    f"rank, not {len(cards)}")


def _check_run(cards, infos, rules) -> None:
    if any(i[2] and i[1] is None for i in infos):
        raise RuleViolation("R3.3", "a wild card in a run is written with its card, e.g. JK=6C")
    if len({i[1] for i in infos}) > 1:  # said first: it may be a group meant
        raise RuleViolation("R3.2", mixed_suits(cards))
    if len(cards) < rules.run_min:
        raise RuleViolation("R3.2", f"a run needs at least {rules.run_min} cards, not "
                                    f"{len(cards)}")
    low, suit = infos[0][0], infos[0][1]
    if rules.ace_high_only and low == 1:
        raise RuleViolation("R11.14", "the ace is high only: A-2-3-4 is no run")
    for offset, (number, _, wild) in enumerate(infos):
        want = low + offset
        if want > ACE_HIGH:
            raise RuleViolation("R3.2", "nothing goes beyond an ace: a run does not wrap")
        if number != want and not (number == 1 and want == ACE_HIGH):
            rule = "R3.3" if wild else "R3.2"
            raise RuleViolation(rule, f"{cards[offset]} comes where {card_at(want, suit)} "
                                      f"belongs: a run is consecutive ranks, low to high")
    _check_wild_cap(infos, rules)


def _check_wild_cap(infos, rules) -> None:
    cap = rules.jokers_per_run
    if cap is not None and sum(1 for i in infos if i[2]) > cap:
        raise RuleViolation("R11.13", f"a run holds at most {cap} wild card(s)")


def run_span(meld, rules=None) -> tuple[str, int, int]:
    """`(suit, low, high)` of a run (ace low 1, ace high 14)."""
    number, suit, _ = _NATURAL.get(meld.cards[0]) or _JOKERS.get(meld.cards[0]) or \
        _DEUCE_WILD[meld.cards[0]]
    return suit, number, number + len(meld.cards) - 1


def group_rank(meld) -> int:
    """Rank number of a group (R3.1)."""
    for entry in meld.cards:
        info = _NATURAL.get(entry)
        if info is not None:
            return info[0]
    raise ValueError("a group without a natural card")


def lay_off(meld, card, end, rules) -> Meld:
    """`meld` with `card` laid off (R7.2-R7.4, R11.13-R11.15); RuleViolation otherwise."""
    number, suit, wild = entry_info(card, rules)
    if meld.kind == GROUP:
        if (number is None and card == JOKER) or (number == group_rank(meld) and suit is None) \
                or (not wild and number == group_rank(meld)):
            return Meld(meld.owner, GROUP, meld.cards + (card,))
        raise RuleViolation("R7.2", f"{card} does not fit this group: a card of its rank, or "
                                    f"a wild card written JK or 2C=<rank>")
    if suit is None:
        raise RuleViolation("R7.4", "name the card a wild card stands for on a run, e.g. JK=9S")
    run_suit, low, high = run_span(meld)
    fits = [e for e, spot in (("low", low - 1), ("high", high + 1))
            if _fits(spot, number, suit, run_suit, rules) and end in (None, e)]
    if len(fits) == 2:
        raise RuleViolation("R7.4", f"{card} fits both ends of this run: say end low or high")
    if not fits:
        if wild_index(meld.cards, card) is not None:
            raise RuleViolation("R3.4", f"a wild card stands for {card} in this run: it "
                                        f"enters only by a swap (R7.5)")
        raise RuleViolation("R7.3", f"{card} does not fit either end of this run")
    cards = (card,) + meld.cards if fits[0] == "low" else meld.cards + (card,)
    _check_wild_cap([entry_info(e, rules) for e in cards], rules)
    return Meld(meld.owner, RUN, cards)


def _fits(spot: int, number: int, suit: str, run_suit: str, rules) -> bool:
    if suit != run_suit or not (2 if rules.ace_high_only else 1) <= spot <= ACE_HIGH:
        return False
    return number == spot or (number == 1 and spot == ACE_HIGH)


def swap_joker(meld, natural, rules) -> tuple[Meld, str]:
    """`meld` with `natural` in place of the wild card standing for it, and that wild card's
    physical code (``JK`` or a deuce) (R7.5, R11.15); RuleViolation R7.5 otherwise."""
    if meld.kind == GROUP:
        raise RuleViolation("R7.5", "a wild card in a group is never taken")
    if natural not in _NATURAL:
        raise RuleViolation("R7.5", f"a wild card is swapped out with a natural card, "
                                    f"not {natural!r}")
    i = wild_index(meld.cards, natural)
    if i is None:
        raise RuleViolation("R7.5", f"no wild card of this run stands for {natural}")
    released = meld.cards[i].split("=", 1)[0]
    return Meld(meld.owner, RUN, meld.cards[:i] + (natural,) + meld.cards[i + 1:]), released


def released_entry(released: str, declared: str | None, receiver: Meld) -> str:
    """The entry of a released wild card laid as `declared` (None on a group) (R7.5, R11.15):
    a deuce laid as itself is natural."""
    if declared == released:
        return released
    if released == JOKER:
        return JOKER if declared is None else joker_as(declared)
    if declared is None:
        rank = RANKS[group_rank(receiver) - 1]
        return released if rank == "2" else f"{released}={rank}"
    return f"{released}={declared}"


def layoff_targets(meld, rules) -> tuple:
    """Every `(entry, end)` that may be laid off onto `meld` (R7.2, R7.3, R11.13-R11.15)."""
    if meld.kind == GROUP:
        return _group_targets(group_rank(meld), rules.wild_twos)
    suit, low, high = run_span(meld)
    capped = rules.jokers_per_run is not None and sum(
        1 for e in meld.cards if "=" in e) >= rules.jokers_per_run
    return _run_targets(suit, low, high, rules.ace_high_only, rules.wild_twos, capped)


@lru_cache(maxsize=None)
def _group_targets(rank: int, wild_twos: bool) -> tuple:
    naturals = [(card_at(rank, s), None) for s in SUITS]
    wilds = [(JOKER, None)] + ([(f"{d}={RANKS[rank - 1]}", None) for d in DEUCES]
                               if wild_twos and rank != 2 else [])
    return tuple(naturals + wilds)


@lru_cache(maxsize=None)
def _run_targets(suit, low, high, high_only, wild_twos, capped) -> tuple:
    spots = [(card_at(s, suit), e) for s, e in ((low - 1, "low"), (high + 1, "high"))
             if (2 if high_only else 1) <= s <= ACE_HIGH]
    ambiguous = len(spots) == 2 and spots[0][0] == spots[1][0]
    spots = [(card, end if ambiguous else None) for card, end in spots]
    out = list(spots)
    if not capped:
        out += [(joker_as(card), end) for card, end in spots]
        if wild_twos:
            out += [(f"{d}={card}", end) for card, end in spots for d in DEUCES]
    return tuple(out)


def layoffs_for_hand(melds, hand, rules) -> list:
    """`[(meld_index, entry, end)]` the cards of `hand` allow onto `melds`."""
    have = set(hand)
    out = []
    for index, meld in enumerate(melds):
        for entry, end in layoff_targets(meld, rules):
            if entry.split("=", 1)[0] in have:
                out.append((index, entry, end))
    return out


def joker_swaps(melds, hand) -> list:
    """`[(meld_index, natural)]`: run wild cards standing for a card of `hand` (R7.5)."""
    have = set(hand)
    return [(index, entry.split("=", 1)[1]) for index, meld in enumerate(melds)
            if meld.kind == RUN for entry in meld.cards
            if "=" in entry and entry.split("=", 1)[1] in have]
