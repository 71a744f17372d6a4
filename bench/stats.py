"""Figures the benchmarks print: one percentile rule for all of them."""


def percentile(values: list[float], share: float) -> float:
    """The `share` (0..1) percentile of `values` by nearest rank; inf for no value (nothing
    answered)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] if ordered else float("inf")
