"""`make bench` (`python -m bench`) runs the quick benchmarks, the stack ones only on request,
and bench/README.md lists every benchmark command."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def bench(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bench", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)


def test_python_m_bench_list_names_the_quick_benchmarks_and_skips_the_stack_ones():
    listed = bench("--list")
    assert listed.returncode == 0, listed.stderr
    commands = [line for line in listed.stdout.splitlines() if line.startswith("== ")]
    assert [c.split("python -m ")[1] for c in commands] == [
        "bench.fold_bench", "bench.simulate_bench", "bench.search_bench", "bench.view_bench"]
    assert "need --stack" in listed.stdout


def test_python_m_bench_fold_runs_the_fold_benchmark_and_prints_its_figure():
    ran = bench("fold")
    assert ran.returncode == 0, ran.stderr
    out = ran.stdout
    assert "== fold: python -m bench.fold_bench" in out
    assert re.search(r"fold of a finished game \(\d+ games, [\d-]+ events\): "
                     r"mean [\d.]+ ms, median [\d.]+ ms, max [\d.]+ ms", out), out
    assert re.search(r"== fold: ok in [\d.]+ s", out), out
    assert "simulate" not in out and "need --stack" not in out


def test_the_stack_benchmarks_run_only_with_the_flag():
    listed = bench("--list", "--stack").stdout
    assert "bench.bot_latency" in listed and "bench.bot_game" in listed


def test_an_unknown_benchmark_is_refused():
    refused = bench("nope")
    assert refused.returncode == 2 and "unknown benchmark nope" in refused.stderr


def test_the_bench_readme_lists_every_benchmark_command():
    readme = (ROOT / "bench" / "README.md").read_text()
    modules = [p.stem for p in (ROOT / "bench").glob("*.py")
               if p.stem not in {"__init__", "__main__", "stack", "stats",  # helpers
                                 "webhook_receiver",
                                 "locustfile"}]  # run by locust -f (bench.load_knee)
    assert modules
    for module in modules:
        assert f"python -m bench.{module}" in readme, module


def test_the_engine_benchmark_prints_games_per_second_against_the_goal():
    ran = subprocess.run([sys.executable, "-m", "bench.engine", "--games", "1", "--repeats", "1"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    assert re.search(r"engine: [\d.]+ games per second, best of 1 \(four basic bots, 1 games, "
                     r"one core\); goal >= 50: (met|not met)", ran.stdout), ran.stdout
