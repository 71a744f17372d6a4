"""The strong bot (level "strong"): plans its contract, counts live cards, watches the table.

`choose(view, rng) -> action` reads one seat's view (docs/architecture.md §1 "Views") and
returns one of FORMAT.md's actions. Over the basic bot it adds:

- plans weighed by live cards: a gap whose every copy is dead (in this hand, on the table,
  buried in the discard pile) makes its plan worse (R1.2: two copies of each natural);
- danger: the more opponents have opened and the fewer cards they hold, the likelier the
  round ends soon (R5.7), so costly spare cards are dropped first (R9.1);
- no feeding: a card that an opened opponent could lay off (R7.1-R7.3), or a rank/suit an
  opponent has been taking from the discard pile, is discarded last;
- buying (R6) only while the purchase brings the contract near and the two extra cards are
  not likely to be caught in hand;
- openings (R4.2) that keep jokers in hand when the search finds one without them: a joker
  can always be laid off on the next turn (R7.2, R7.3), a natural may not;
- lay-offs and joker swaps shed the costliest cards first, and it goes out as soon as it can.

Public history: ``view["discard_taken"]`` (optional; per seat, the cards that seat took from
the discard pile this round by drawing or buying) sharpens the "no feeding" rule; without it
the bot reads only the pile and the melds. Pure: randomness only through ``rng`` (unused).
"""
from __future__ import annotations

from collections import Counter

from domain.bots import basic
from domain.bots import planning as P
from domain.cards import JOKER
from domain.bots.profiles import final_round, opening_with
from domain.legal import DRAW_DISCARD, DRAW_STOCK

# Tuning (chosen with bench/strength.py; see docs/bots.md).
DEAD_SLOT = 0.6          # extra cost of a plan gap with no live copy
THIN_SLOT = 0.2          # ... with one live copy
SUPPORT_WEIGHT = 10.0    # a card in the best plan outweighs any spare-card consideration
POINTS_CALM, POINTS_DANGER = 0.05, 0.6   # weight of a card's points, calm .. danger
FEED_TABLE = 6.0         # an opened opponent could lay the card off
FEED_TAKEN = 1.0         # per opponent: it took this rank (groups) or a suit neighbour (runs)
BUY_MAX_NEED = 2         # buy when the contract is then at most this far ...
BUY_EARLY_TURNS = 12     # ... or at any need this early in the round (turns of the table)


class Seat:
    """What the strong bot derives from one view, once per decision."""

    def __init__(self, view):
        self.view = view
        self.me = view["seat"]
        self.kinds = tuple(view["contract"])
        self.final = final_round(view)
        self.hand = tuple(view["hand"])
        self.opened = view["opened"][self.me] is not None
        self._seen = None

    @property
    def analysis(self):
        """The planning analysis of our hand (`planning.analyze`, cached per hand)."""
        return P.analyze(self.kinds, self.hand, self.final)

    def opponents_opened(self):
        """Seats other than ours that have laid their contract."""
        return [s for s, o in enumerate(self.view["opened"]) if o is not None and s != self.me]

    def danger(self):
        """0..1: how likely the round ends before our next turns (R5.7)."""
        opened = self.opponents_opened()
        if not opened:
            return min(0.4, self.view.get("turns_this_round", 0) / 100)
        fewest = min(self.view["hand_sizes"][s] for s in opened)
        return 1.0 if fewest <= 2 else 0.8 if fewest <= 4 else 0.6

    def seen(self):
        """Counter of natural cards we can see and nobody can draw soon (hand, melds, pile)."""
        if self._seen is None:
            seen = Counter(c for c in self.hand if c != JOKER)
            for meld in self.view["melds"]:
                seen.update(c for c in meld["cards"] if c[:2] != JOKER)
            pile = self.view.get("discard_pile") or ()
            seen.update(c for c in pile[:-1] if c != JOKER)   # the top can still be taken
            self._seen = seen
        return self._seen

    def live(self, code):
        """Copies of ``code`` still drawable (R1.2: two of each natural)."""
        return max(0, 2 - self.seen()[code])


def choose(view, rng):
    """Return the strong bot's action for ``view`` (a seat view dict with legal actions)."""
    legal = view["legal_actions"]
    if not legal:
        raise ValueError("the seat has no legal action")
    types = {a["type"] for a in legal}
    seat = Seat(view)
    if "buy" in types:
        return decide_buy(seat)
    if "draw" in types:
        return decide_draw(seat, legal)
    if "open" in types:
        return pick_opening(seat, [a for a in legal if a["type"] == "open"])
    shed = basic.pick_shed(view, legal)
    if shed is not None:
        return shed
    if "discard" in types:
        return {"type": "discard", "card": pick_discard(seat)}
    return legal[0]


# ---- drawing and buying (R5.1-R5.3, R6) ----

def decide_draw(seat, legal):
    """The discard top when it helps (contract, going out, or a lay-off), else the stock."""
    top = seat.view.get("discard_top")
    if top is None or DRAW_DISCARD not in legal:
        return DRAW_STOCK
    if seat.final:
        if basic.helps_contract(seat.view, top) or basic.goes_out_with(seat.view, top):
            return DRAW_DISCARD
    elif not seat.opened:
        if top == JOKER or basic.helps_contract(seat.view, top):
            return DRAW_DISCARD
    elif top == JOKER or P.fits_table(seat.view["melds"], top):
        return DRAW_DISCARD
    return DRAW_STOCK


def decide_buy(seat):
    """R6.2/R6.3: buy when the card brings the contract near enough to pay for the penalty.

    Never after opening or in the final round: both extra cards would have to be shed.
    """
    card = seat.view["discard_top"]   # the card on offer (R6.1), as basic.decide_buy reads it
    if seat.opened or seat.final:
        return basic.PASS
    need = seat.analysis.need
    after = need - 1 if card == JOKER and need else P.need_with(seat.kinds, seat.hand, card)
    if after >= need:
        return basic.PASS
    early = seat.view.get("turns_this_round", 0) <= BUY_EARLY_TURNS
    if after <= BUY_MAX_NEED or (early and seat.danger() < 0.5):
        return basic.BUY
    return basic.PASS


# ---- opening (R4.2, R8.2) ----

def pick_opening(seat, openings):
    """The offered opening, or one found without some jokers so they stay in hand (R7)."""
    jokers = seat.hand.count(JOKER)
    if not seat.final and jokers:
        naturals = [c for c in seat.hand if c != JOKER]
        for keep in range(jokers, 0, -1):
            melds = opening_with(seat.view, naturals + [JOKER] * (jokers - keep))
            if melds is not None:
                return {"type": "open", "melds": melds}
    return basic.pick_opening(seat.view, openings)


# ---- discarding (R5.5) ----

def pick_discard(seat):
    """The card whose loss costs least: plan support, potential, points, feeding."""
    hand = seat.hand
    candidates = basic.discard_candidates(seat.view)
    if seat.opened:
        return _discard_after_opening(seat, candidates)
    support = _weighted_support(seat)
    counts = Counter(hand)
    groups, runs = "group" in seat.kinds, "run" in seat.kinds
    danger = seat.danger()
    points_weight = POINTS_CALM + (POINTS_DANGER - POINTS_CALM) * danger

    def keep_value(code):
        """Sort key, first discarded first: the weighted worth of keeping ``code``; jokers last."""
        if code == JOKER:
            return (1, 0.0, code)
        value = (SUPPORT_WEIGHT * support.get(code, 0.0)
                 + P.potential(counts, code, groups, runs) * (1.0 - 0.5 * danger)
                 - points_weight * P.POINTS[code]
                 + _feeding(seat, code))
        return (0, value, code)
    return min(candidates, key=keep_value)


def _weighted_support(seat):
    """Per-copy support of each card over the near-best plans, re-ranked by live gaps."""
    options = seat.analysis.options
    if not options:
        return {}
    scored = [(need + _slot_cost(seat, slots), used) for need, used, slots in options]
    best = min(cost for cost, _ in scored)
    weights = [1.0 / (1.0 + 3.0 * (cost - best)) for cost, _ in scored]
    support = Counter()
    for weight, (_, used) in zip(weights, scored):
        for code in used:
            support[code] += weight
    counts = Counter(seat.hand)
    total = sum(weights)
    return {code: w / (total * counts[code]) for code, w in support.items()}


def _slot_cost(seat, slots):
    """Extra cost of a plan whose missing cards are scarce (dead or single copies)."""
    cost = 0.0
    for slot in slots:
        live = sum(seat.live(code) for code in slot)
        if live == 0:
            cost += DEAD_SLOT
        elif live == 1:
            cost += THIN_SLOT
    return cost


def _feeding(seat, code):
    """How much discarding ``code`` would help an opponent (higher: keep it)."""
    view = seat.view
    cost = 0.0
    if seat.opponents_opened() and P.fits_table(view["melds"], code):
        cost += FEED_TABLE
    taken = view.get("discard_taken")
    if taken:
        n, s = P.NUM[code], P.SUIT[code]
        for other, cards in enumerate(taken):
            if other == seat.me or view["opened"][other] is not None:
                continue
            best = 0.0   # one match per opponent counts: summing every card over-weighted it
            for card in cards:
                if card == JOKER:
                    continue
                if P.NUM[card] == n and "group" in seat.kinds:
                    best = FEED_TAKEN
                elif P.SUIT[card] == s and abs(P.NUM[card] - n) <= 2 and "run" in seat.kinds:
                    best = max(best, FEED_TAKEN / 2)
            cost += best
    return cost


def _discard_after_opening(seat, candidates):
    """Only lay-offs remain (R4.4): drop the costliest card that fits no meld, not feeding."""
    melds = seat.view["melds"]
    feeds = bool(seat.opponents_opened())

    def keep_value(code):
        """Sort key, first discarded first: fits no meld, costliest unless it feeds; jokers last."""
        if code == JOKER:
            return (2, 0, code)
        fits = P.fits_table(melds, code)
        return (1 if fits else 0, -P.POINTS[code] + (FEED_TABLE if feeds and fits else 0), code)
    return min(candidates, key=keep_value)
