"""domain.strength: the rotation of levels over seats and the per-level statistics."""
import pytest

from domain.strength import Sample, markdown, seating, summarize


def test_every_level_sits_at_every_seat_equally_often():
    levels = ("strong", "basic", "random")
    counts = {}
    for game in range(12):
        for seat, level in enumerate(seating(levels, game)):
            counts[seat, level] = counts.get((seat, level), 0) + 1
    assert set(counts.values()) == {4} and len(counts) == 12


def test_the_summary_gives_mean_interval_and_wins_per_level():
    samples = [Sample("a", 10, True), Sample("a", 20, False), Sample("b", 100, False),
               Sample("b", 100, True)]
    a, b = summarize(samples, ("a", "b"))
    assert (a.n, a.mean, a.wins) == (2, 15.0, 0.5)
    assert a.low == pytest.approx(15 - 1.96 * 7.0710678 / 2 ** 0.5)
    assert (b.low, b.mean, b.high) == (100.0, 100.0, 100.0)
    assert markdown([a, b]).splitlines()[2].startswith("| a | 2 | 15.0 | ")
