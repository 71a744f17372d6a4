"""The contract of each round and the check of an opening (R2.1, R4.2, R4.3, R8.2, R1.4)."""

from collections import Counter

from domain.cards import physical_card
from domain.errors import MalformedAction, RuleViolation
from domain.melds import GROUP, MIN_LENGTH, RUN, make_meld, run_span

# R2.1: the melds each round's contract asks for, and the cards dealt.
CONTRACTS = {
    1: (GROUP, GROUP),
    2: (GROUP, RUN),
    3: (RUN, RUN),
    4: (GROUP, GROUP, GROUP),
    5: (GROUP, GROUP, RUN),
    6: (GROUP, RUN, RUN),
    7: (RUN, RUN, RUN),
}
DEAL_SIZES = {1: 10, 2: 10, 3: 10, 4: 12, 5: 12, 6: 12, 7: 12}
FINAL_ROUND = 7
# Cards laid at an opening in rounds 1-6 (every meld at its minimum length, R4.2).
OPENING_SIZES = {r: sum(MIN_LENGTH[k] for k in kinds) for r, kinds in CONTRACTS.items()}

_NUMBER_WORDS = {1: "one", 2: "two", 3: "three"}


def describe_contract(round_):
    """The contract in words, e.g. ``"one group and two runs"`` (R2.1)."""
    kinds = CONTRACTS[round_]
    parts = []
    for kind in (GROUP, RUN):
        n = kinds.count(kind)
        if n:
            parts.append(f"{_NUMBER_WORDS[n]} {kind}{'s' if n > 1 else ''}")
    return " and ".join(parts)


def check_opening(round_, melds, hand, owner=0, profile=None):
    """Validate an opening and return its melds as :class:`~domain.melds.Meld` objects.

    ``melds`` is a list of card lists in FORMAT.md notation; ``hand`` the opener's cards (a
    multiset); ``owner`` the opener's seat. Rounds 1-6: exactly the contract, each meld at its
    minimum length (R4.2). Round 7: the whole hand as exactly three runs (R8.2). Same-suit runs
    must not be contiguous in both (R4.3).

    Raises :class:`~domain.errors.MalformedAction` for input that is not a list of card lists,
    and :class:`~domain.errors.RuleViolation` citing R3.x (a meld is invalid), R4.2 (wrong
    shape, extra meld or card), R8.2 (round 7 shape or cards left), R4.3 (contiguous runs) or
    R1.4 (cards the opener does not hold; a joker counts once, R3.5).

    Another `profile` (RULES.md §11) is checked by `domain.variants.contracts.check_opening`.
    """
    if profile is not None and not profile.standard_melding:
        from domain.variants.contracts import check_opening as general
        return general(profile, round_, melds, hand, owner)
    if profile is not None:  # a play-off deal plays the last contract (R11.16)
        round_ = profile.contract_index(round_) + 1
    if round_ not in CONTRACTS:
        raise MalformedAction("R2.1", f"there is no round {round_!r}; rounds are 1-7")
    if not isinstance(melds, (list, tuple)) or not all(isinstance(m, (list, tuple)) for m in melds):
        raise MalformedAction("R4.2", "an opening lists its melds, each a list of card codes")
    built = [make_meld(owner, cards) for cards in melds]
    if round_ == FINAL_ROUND:
        _check_final_shape(built)
    else:
        _check_shape(round_, built)
    used = Counter(physical_card(entry) for meld in built for entry in meld.cards)
    check_in_hand(used, Counter(hand))
    check_runs_apart(built)
    if round_ == FINAL_ROUND and used != Counter(hand):
        left = sorted((Counter(hand) - used).elements())
        raise RuleViolation("R8.2", f"going out in round 7 lays the whole hand; {', '.join(left)} "
                                    f"would be left")
    return built


def check_runs_apart(melds):
    """Raise RuleViolation R4.3 if two runs of one suit in ``melds`` touch end to start.

    Intervals [a,b] and [c,d] with b < c need c >= b+2; overlapping runs are fine. Jokers count
    at their declared ranks, ace low 1 and ace high 14.
    """
    spans = sorted(run_span(m) for m in melds if m.kind == RUN)
    for i, (suit, low, high) in enumerate(spans):
        for other_suit, other_low, other_high in spans[i + 1:]:
            if other_suit == suit and other_low == high + 1:
                raise RuleViolation("R4.3", "two runs of one suit in an opening must not be "
                                            "contiguous: leave a rank gap or overlap them")


def _check_shape(round_, melds):
    want = CONTRACTS[round_]
    if sorted(m.kind for m in melds) != sorted(want):
        raise RuleViolation("R4.2", f"round {round_} is opened with exactly "
                                    f"{describe_contract(round_)}, no other melds")
    for meld in melds:
        if len(meld.cards) != MIN_LENGTH[meld.kind]:
            raise RuleViolation("R4.2", f"at the opening each {meld.kind} has exactly "
                                        f"{MIN_LENGTH[meld.kind]} cards; extra cards wait "
                                        f"for a later lay-off")


def _check_final_shape(melds):
    if len(melds) != 3 or any(m.kind != RUN for m in melds):
        raise RuleViolation("R8.2", "round 7 is won by laying the whole hand as exactly "
                                    "three runs")


def check_in_hand(used, hand):
    """Raise RuleViolation R1.4 when the Counter `used` needs cards the Counter `hand` lacks."""
    missing = used - hand
    if missing:
        card = sorted(missing)[0]
        if card == "JK":
            raise RuleViolation("R1.4", f"you hold {hand['JK']} joker(s); one joker serves "
                                        f"one meld only (R3.5)")
        raise RuleViolation("R1.4", f"you can only lay cards you hold: {card} is not in your hand")
