"""Run the benchmarks in turn and print each one's figures (`make bench`).

    python -m bench              # the quick ones: fold, simulate, search, view
    python -m bench --stack      # and those that start gunicorn + workers (bench/stack.py)
    python -m bench fold view    # only these
    python -m bench --list       # what would run, without running it

Each benchmark runs as `python -m bench.<module>` with its default arguments, one after the
other (never two at once: they time the same cores). bench/README.md says what each measures.
"""
from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import time

# name -> module, in the order they run. QUICK need nothing running (view_bench starts an
# embedded Redis unless REDIS_URL is set); STACK start the API and workers (bench/stack.py).
QUICK = {"fold": "bench.fold_bench", "simulate": "bench.simulate_bench",
         "search": "bench.search_bench", "view": "bench.view_bench"}
STACK = {"bot-latency": "bench.bot_latency", "bot-game": "bench.bot_game",
         "http": "bench.http_bench", "idle": "bench.idle_connections",
         "deadline-precision": "bench.deadline_precision",
         "rate-limit-fairness": "bench.rate_limit_fairness",
         "webhook-latency": "bench.webhook_latency"}


def selected(names: list[str], stack: bool) -> dict[str, str]:
    """The benchmarks to run: `names` (any of QUICK or STACK), else QUICK (+ STACK if `stack`).
    Modules that do not exist in this checkout are left out. Raises ValueError for an unknown
    name."""
    known = {**QUICK, **STACK}
    unknown = [name for name in names if name not in known]
    if unknown:
        raise ValueError(f"unknown benchmark {', '.join(unknown)}; known: {', '.join(known)}")
    chosen = {name: known[name] for name in names} if names else {
        **QUICK, **(STACK if stack else {})}
    return {name: module for name, module in chosen.items()
            if importlib.util.find_spec(module) is not None}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help=f"some of: {', '.join({**QUICK, **STACK})}")
    parser.add_argument("--stack", action="store_true",
                        help="also run the benchmarks that start gunicorn and workers")
    parser.add_argument("--list", action="store_true", help="print the commands and stop")
    args = parser.parse_args(argv)
    try:
        chosen = selected(args.names, args.stack)
    except ValueError as error:
        parser.error(str(error))
    failed = []
    for name, module in chosen.items():
        command = [sys.executable, "-m", module]
        print(f"== {name}: python -m {module}", flush=True)
        if args.list:
            continue
        started = time.perf_counter()
        code = subprocess.call(command)
        print(f"== {name}: {'ok' if code == 0 else f'FAILED (exit {code})'} in "
              f"{time.perf_counter() - started:.1f} s\n", flush=True)
        if code:
            failed.append(name)
    if not args.stack and not args.names:
        print(f"(skipped, need --stack: {', '.join(STACK)})")
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
