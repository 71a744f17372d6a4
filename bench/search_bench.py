"""Time find_opening (and deficit) on 16-card hands holding all 3 jokers, rounds 1-7.

Run: ``python -m bench.search_bench [--hands N] [--seed S]``. Prints, per round, the worst and
mean time of find_opening over random hands and over adversarial ones (many near-runs in one or
two suits, pairs everywhere, long single-suit runs that only split into touching pieces), and
the same for deficit. Every call starts cold (the search's caches cleared). Each hand is timed
``--repeat`` times and its fastest run kept, as timeit does, so that other processes on the
machine do not pass for search time; the worst single cold run is printed too. The budget is
10 ms worst case per call.
"""

import argparse
import gc
import random
import time

from domain.cards import JOKER, RANKS, full_deck
from domain.search import _deficit, deficit, find_opening
from domain.search_final import _step, _suit_runs

NATURALS = [c for c in full_deck() if c != JOKER]


def random_hands(rng, n):
    return [rng.sample(NATURALS, 13) + [JOKER] * 3 for _ in range(n)]


def adversarial_hands(rng, n):
    """Hands that give the search many near-misses to consider."""
    fixed = [
        [r + "H" for r in RANKS],                                   # one suit, every rank
        [r + "H" for r in RANKS[::2]] + [r + "S" for r in RANKS[1::2]],   # alternating suits
        [r + s for r in RANKS[:6] for s in "HS"] + ["7H"],          # pairs, two suits
        [r + s for r in RANKS[3:10] for s in "CD"][:13],            # doubled run ranks
        [r + "D" for r in RANKS[:8]] + [r + "D" for r in RANKS[2:7]],  # overlapping copies
        [r + s for r in ("2", "5", "8", "J") for s in "CDH"] + ["AS"],  # gapped, no runs
    ]
    hands = [h + [JOKER] * 3 for h in fixed]
    two_suits = [c for c in NATURALS if c[-1] in "HS"]
    while len(hands) < n:
        hands.append(rng.sample(two_suits, 13) + [JOKER] * 3)  # dense: windows everywhere
    return hands


def clear_caches():
    for cached in (_deficit, _step, _suit_runs):
        cached.cache_clear()


def timed(fn, hands, round_, repeat):
    """(worst of per-hand best, mean of per-hand best, worst single run), in seconds."""
    best, single = [], 0.0
    gc.disable()
    try:
        for hand in hands:
            runs = []
            for _ in range(repeat):
                clear_caches()
                start = time.perf_counter()
                fn(round_, hand)
                runs.append(time.perf_counter() - start)
            best.append(min(runs))
            single = max(single, runs[0])
    finally:
        gc.enable()
    return max(best), sum(best) / len(best), single


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000, help="hands per kind and round")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="cold runs per hand; the best counts")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    kinds = {"random": random_hands(rng, args.hands), "adversarial": adversarial_hands(rng, args.hands)}
    print(f"{args.hands} hands of 16 cards (13 naturals + 3 jokers) per kind and round, cold "
          f"caches, best of {args.repeat} per hand; times in ms")
    print(f"{'round':>5} {'hands':>12} {'found':>6} {'find worst':>11} {'find mean':>10}"
          f" {'deficit worst':>14} {'deficit mean':>13} {'1st-run worst':>14}")
    overall = single_overall = 0.0
    for round_ in range(1, 8):
        for kind, hands in kinds.items():
            found = sum(find_opening(round_, h) is not None for h in hands)
            worst, mean, single = timed(find_opening, hands, round_, args.repeat)
            d_worst, d_mean, d_single = timed(deficit, hands, round_, args.repeat)
            overall = max(overall, worst)
            single_overall = max(single_overall, single, d_single)
            print(f"{round_:>5} {kind:>12} {found:>6} {worst * 1e3:>11.3f} {mean * 1e3:>10.3f}"
                  f" {d_worst * 1e3:>14.3f} {d_mean * 1e3:>13.3f} {max(single, d_single) * 1e3:>14.3f}")
    print(f"worst find_opening (best of {args.repeat}): {overall * 1e3:.3f} ms (budget 10 ms); "
          f"worst single cold run of either: {single_overall * 1e3:.3f} ms")


if __name__ == "__main__":
    main()
