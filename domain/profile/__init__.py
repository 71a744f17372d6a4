"""The rule profile of RULES.md §11: options, presets (R11.20), validation as a whole."""
from domain.profile.options import (
    GROUP, MAX_PLAY_OFFS, RUN, STANDARD_CONTRACTS, STANDARD_MELDS, MeldRules, RuleProfile,
    requirement,
)
from domain.profile.presets import PRESETS
from domain.profile.resolve import (
    CUT_BONUS_MAX, OPTION_CHECKS, SAFE_INT, UnsupportedProfile, resolve,
)

__all__ = ["GROUP", "MAX_PLAY_OFFS", "RUN", "STANDARD_CONTRACTS", "STANDARD_MELDS", "MeldRules",
           "RuleProfile", "requirement", "PRESETS", "OPTION_CHECKS", "UnsupportedProfile",
           "resolve", "SAFE_INT", "CUT_BONUS_MAX"]
