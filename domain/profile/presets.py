"""The named profiles of RULES.md §11 R11.20, with their sources and defaults by table size."""
from __future__ import annotations

from domain.profile.options import GROUP, RUN, STANDARD_CONTRACTS

EIGHT_DEALS_CONTRACTS = STANDARD_CONTRACTS[:6] + ((GROUP,) * 4, (RUN, RUN, RUN))

# name -> (options given by the preset, one-line description, source document)
PRESETS: dict[str, tuple[dict, str, str]] = {
    "standard": ({}, "Pagat's main Contract Rummy rules for a foursome: seven contracts, "
                     "buying with one penalty card", "seeds/000 (Pagat, Contract Rummy)"),
    "first_game": ({"buying": False}, "the standard game without buying, for a simpler "
                                      "first game", "seeds/003"),
    "shanghai": ({"deal_sizes": [11] * 7, "purchases_per_player_per_round": 2,
                  "penalty_cards_per_purchase": 2, "jokers_per_run": 1, "ace": "high_only",
                  "shanghai_call": True},
                 "Shanghai: eleven cards every deal, two purchases a round with two penalty "
                 "cards, one joker per run, aces high, the Shanghai call", "seeds/004 (Shanghai)"),
    "liverpool": ({"cut_bonus": 50}, "Liverpool Rummy: an exact cut before the deal earns "
                                     "50 points off", "seeds/004 (Liverpool)"),
    "eight_deals": ({"contracts": [list(c) for c in EIGHT_DEALS_CONTRACTS],
                     "deal_sizes": [10, 10, 10, 12, 12, 12, 12, 12]},
                    "an eighth deal of four groups before the final three runs",
                    "seeds/004 (eighth deal)"),
}


def default_packs(players: int) -> int:
    """Packs by table size (R11.2): 2 for 3-4 players, 3 for 5-6, 4 for 7-8."""
    return 2 if players <= 4 else 3 if players <= 6 else 4


def default_jokers(preset: str, players: int, packs: int) -> int:
    """Jokers by preset (R11.20): two per pack for `shanghai`, else one fewer than players."""
    return 2 * packs if preset == "shanghai" else players - 1
