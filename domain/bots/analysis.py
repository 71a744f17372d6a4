"""The result of a planning analysis (domain/bots/planning.py): a hand's distance from its
contract and what each card is worth to it (RULES.md R2.1, R4.2, R8.2). Pure data."""
from __future__ import annotations


class Analysis:
    """How far a hand is from the contract, and what each card is worth to it.

    - ``need``: cards still to draw before opening with the best plan (0: the contract is in
      hand, or in round 7 the whole hand is three runs as far as the heuristic sees).
    - ``wanted``: card codes that fill a gap of some best plan (taking one lowers ``need``).
    - ``support``: code -> weight of plans using that code (best plans 1, next best less),
      per copy held; cards with no support are the spare cards.
    - ``plans``: the best ``(need, groups, runs)`` found, best first.
    - ``options``: ``(need, used codes, slots)`` of every plan within ``NEAR`` of the best;
      a slot is one missing card, given as the tuple of codes that fill it (a run hole: one
      code; a group hole: the four codes of its rank). The strong bot re-weighs these.

    ``frame`` (rounds 1-6) is the `frame.Frame` of the candidates, None in round 7;
    ``scored`` (rounds 1-6) maps each candidate plan ``(groups, runs)`` to its ``(need, used,
    slots)``, which the analysis of a hand one card away reuses for the plans that card
    does not touch (see `_analyze`). Nothing may mutate these lists.
    """

    __slots__ = ("need", "wanted", "support", "plans", "jokers", "options", "frame", "scored")

    def __init__(self, need, wanted, support, plans, jokers, options=(), frame=None,
                 scored=None):
        self.need, self.wanted, self.support = need, wanted, support
        self.plans, self.jokers, self.options = plans, jokers, options
        self.frame, self.scored = frame, scored
