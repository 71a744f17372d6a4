"""Finding an opening under any profile (R4.2, R8.2, R11.5, R11.13-R11.15).

A depth-first search over the contract's requirements (runs first, longest first): a run is
a window (suit, low rank) of its `min` positions, a group a rank; missing cards are filled by
wild cards (jokers, then wild deuces), at most `jokers_per_run` in a run. The final round of
R8 then lays every card left by growing the chosen melds. A node budget bounds the time, so
the search may miss an opening in a rare hand; whatever it returns is checked by
`domain.variants.contracts.check_opening`. Deuces are used only as wild cards here.
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache

from domain.cards import ACE_HIGH, JOKER, RANKS, SUITS, card_at, number_and_suit
from domain.errors import RuleViolation
from domain.melds import GROUP, RUN
from domain.variants.contracts import check_opening

BUDGET = 4000  # search nodes per hand: a few milliseconds


def find_opening(profile, number: int, hand) -> list[list[str]] | None:
    """A legal opening of round `number` under `profile` made of `hand`'s cards, or None.

    Deterministic for a given multiset; the melds are in FORMAT.md notation.
    """
    plan = _plan(profile, number, tuple(sorted(hand)))
    return None if plan is None else [list(meld) for meld in plan]


@lru_cache(maxsize=2048)  # bots ask again about the hand they hold
def _plan(profile, number: int, key: tuple[str, ...]):
    rules = profile.meld_rules
    wild_codes = {JOKER} | ({"2" + s for s in SUITS} if rules.wild_twos else set())
    counts = Counter(c for c in key if c not in wild_codes)
    wilds = sorted((c for c in key if c in wild_codes), key=lambda c: c != JOKER)
    reqs = sorted(zip(profile.kinds(number), profile.mins(number)),
                  key=lambda r: (r[0] != RUN, -r[1]))
    final = profile.final_whole_hand(number)
    search = _Search(rules, reqs, final)
    for melds in search.solutions(counts, wilds):
        try:
            check_opening(profile, number, melds, key)
        except RuleViolation:
            continue
        return tuple(tuple(m) for m in melds)
    return None


class _Search:
    """One search: the requirements in order, the meld rules, a node budget."""

    def __init__(self, rules, reqs, final: bool) -> None:
        self.rules, self.reqs, self.final, self.nodes = rules, reqs, final, 0

    def solutions(self, counts: Counter, wilds: list[str]):
        """Yield openings (lists of meld entry lists) until the budget is spent."""
        yield from self._dfs(0, counts, wilds, [], None)

    def _dfs(self, i: int, counts: Counter, wilds: list[str], chosen: list, floor):
        self.nodes += 1
        if self.nodes > BUDGET:
            return
        if i == len(self.reqs):
            melds = [list(m) for _, m in chosen]
            if not self.final:
                yield melds
            elif _absorb(melds, [k[0] for k, _ in chosen], counts, wilds, self.rules):
                yield melds
            return
        kind, low = self.reqs[i]
        same = i > 0 and self.reqs[i - 1] == self.reqs[i]
        makers = _runs if kind == RUN else _groups
        for cand_key, holes, build in makers(counts, len(wilds), low, self.rules, chosen):
            if same and floor is not None and cand_key < floor:
                continue  # identical requirements: one order of the same melds only
            left, rest, meld = build(counts, wilds)
            yield from self._dfs(i + 1, left, rest, chosen + [(cand_key, meld)], cand_key)
            if self.nodes > BUDGET:
                return


def _code(position: int, suit: str) -> str:
    return card_at(position, suit)


def _runs(counts: Counter, n_wilds: int, low: int, rules, chosen):
    """Run windows of `low` cards the hand can fill, fewest wild cards first."""
    spans = [(k[1], k[2], k[3]) for k, _ in chosen if k[0] == RUN]
    cap = rules.jokers_per_run
    first = 2 if rules.ace_high_only else 1
    found = []
    for suit in SUITS:
        for start in range(first, ACE_HIGH - low + 2):
            end = start + low - 1
            holes = sum(1 for p in range(start, end + 1) if not counts[_code(p, suit)])
            if holes > n_wilds or holes == low or (cap is not None and holes > cap):
                continue
            if any(s == suit and (lo == end + 1 or start == hi + 1) for s, lo, hi in spans):
                continue  # R4.3: same-suit runs of one opening are not contiguous
            found.append(((RUN, suit, start, end), holes, _run_builder(suit, start, end)))
    found.sort(key=lambda c: c[1])
    return found


def _run_builder(suit: str, start: int, end: int):
    def build(counts: Counter, wilds: list[str]):
        left, rest, meld = counts.copy(), list(wilds), []
        for p in range(start, end + 1):
            code = _code(p, suit)
            if left[code]:
                left[code] -= 1
                meld.append(code)
            else:
                meld.append(f"{rest.pop(0)}={code}")
        return left, rest, meld
    return build


def _groups(counts: Counter, n_wilds: int, low: int, rules, chosen):
    """Groups of `low` cards by rank, fewest wild cards first."""
    found = []
    for number in range(1, 14):
        rank = RANKS[number - 1]
        if rules.wild_twos and rank == "2":
            continue  # deuces serve as wild cards in this search
        have = sum(counts[card_at(number, s)] for s in SUITS)
        holes = max(0, low - have)
        if have and holes <= n_wilds:
            found.append(((GROUP, number), holes, _group_builder(number, rank, low)))
    found.sort(key=lambda c: c[1])
    return found


def _group_builder(number: int, rank: str, low: int):
    def build(counts: Counter, wilds: list[str]):
        left, rest, meld = counts.copy(), list(wilds), []
        for suit in SUITS:
            code = card_at(number, suit)
            while left[code] and len(meld) < low:
                left[code] -= 1
                meld.append(code)
        while len(meld) < low:
            meld.append(_group_wild(rest.pop(0), rank))
        return left, rest, meld
    return build


def _group_wild(physical: str, rank: str) -> str:
    return JOKER if physical == JOKER else f"{physical}={rank}"


def _absorb(melds: list[list[str]], kinds: list[str], counts: Counter, wilds: list[str],
            rules) -> bool:
    """Grow `melds` (in place) with every card left, naturals then wild cards, as the final
    round of R8.2 needs; False when some card fits nowhere."""
    left = +counts
    changed = True
    while changed and left:
        changed = False
        for code in list(left.elements()):
            if _grow(melds, kinds, code, rules):
                left[code] -= 1
                changed = True
        left = +left
    if left:
        return False
    return all(_grow_wild(melds, kinds, physical, rules) for physical in wilds)


def _grow(melds: list[list[str]], kinds: list[str], code: str, rules) -> bool:
    number, suit = number_and_suit(code)
    for meld, kind in zip(melds, kinds):
        if kind == GROUP:
            if _group_number(meld) == number:
                meld.append(code)
                return True
            continue
        run_suit, lo, hi = _run_span(meld)
        if run_suit != suit:
            continue
        if number == lo - 1 and lo - 1 >= (2 if rules.ace_high_only else 1):
            meld.insert(0, code)
            return True
        if hi < ACE_HIGH and (number == hi + 1 or (number == 1 and hi + 1 == ACE_HIGH)):
            meld.append(code)
            return True
    return False


def _grow_wild(melds: list[list[str]], kinds: list[str], physical: str, rules) -> bool:
    for meld, kind in zip(melds, kinds):
        if kind == GROUP:
            meld.append(_group_wild(physical, RANKS[_group_number(meld) - 1]))
            return True
        if rules.jokers_per_run is not None and \
                sum(1 for e in meld if "=" in e) >= rules.jokers_per_run:
            continue
        suit, lo, hi = _run_span(meld)
        if hi < ACE_HIGH:
            meld.append(f"{physical}={card_at(hi + 1, suit)}")
            return True
        if lo > (2 if rules.ace_high_only else 1):
            meld.insert(0, f"{physical}={card_at(lo - 1, suit)}")
            return True
    return False


def _group_number(meld: list[str]) -> int:
    return next(number_and_suit(e)[0] for e in meld if "=" not in e and e != JOKER)


def _run_span(meld: list[str]) -> tuple[str, int, int]:
    number, suit = number_and_suit(meld[0].split("=")[-1])
    return suit, number, number + len(meld) - 1
