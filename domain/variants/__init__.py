"""The engine's general paths for rule profiles other than `standard` (RULES.md §11).

The standard profile keeps its specialised, faster code in `domain.melds`, `domain.layoffs`,
`domain.contracts` and `domain.search`; those modules hand any other profile's melds to the
modules here.
"""
