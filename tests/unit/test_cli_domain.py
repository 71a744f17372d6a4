"""`rummy conformance`, `rummy simulate` and the arguments of `rummy play-bots` from the
command line."""
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from workers.cli import main

CASES = Path(__file__).parents[1] / "conformance" / "cases"


def test_conformance_prints_one_line_per_case_and_the_counts():
    result = CliRunner().invoke(main, ["conformance", str(CASES)])
    lines = result.output.splitlines()
    assert result.exit_code == 0
    assert lines[-1] == "63 passed, 0 failed" and lines[0].startswith("PASS ")


def test_conformance_searches_folders_recursively(tmp_path):
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "one.json").write_text((CASES / "r9.1-card-values.json").read_text())
    result = CliRunner().invoke(main, ["conformance", str(tmp_path)])
    assert result.exit_code == 0
    assert result.output.splitlines() == ["PASS r9.1-card-values", "1 passed, 0 failed"]


def test_conformance_with_no_case_file_is_an_error_not_a_success(tmp_path):
    result = CliRunner().invoke(main, ["conformance", str(tmp_path)])
    assert result.exit_code == 2 and "no case files" in result.output


def test_an_unreadable_case_file_is_a_failure(tmp_path):
    (tmp_path / "broken.json").write_text("{not json")
    result = CliRunner().invoke(main, ["conformance", str(tmp_path)])
    assert result.exit_code == 1 and result.output.splitlines()[-1] == "0 passed, 1 failed"


def test_a_failing_case_exits_1(tmp_path):
    case = json.loads((CASES / "r6.5-all-pass-then-stock.json").read_text())
    case["final"]["phase"] = "draw"
    (tmp_path / "bad.json").write_text(json.dumps(case))
    result = CliRunner().invoke(main, ["conformance", str(tmp_path / "bad.json")])
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        "FAIL r6.5-all-pass-then-stock: phase: got 'play', expected 'draw'", "0 passed, 1 failed"]


def test_simulate_reports_penalties_turns_and_speed():
    result = CliRunner().invoke(main, ["simulate", "--games", "2", "--seed", "3",
                                       "--levels", "random,basic"])
    assert result.exit_code == 0, result.output
    assert "seat 0: mean penalty" in result.output
    rows = [line for line in result.output.splitlines() if line.startswith("| ")][1:]
    assert [row.split(" | ")[0:2] for row in rows] == [["| random", "4"], ["| basic", "4"]]
    assert "mean turns per round:" in result.output and "games per second:" in result.output


def test_simulate_refuses_an_unknown_level():
    result = CliRunner().invoke(main, ["simulate", "--games", "1", "--levels", "grandmaster"])
    assert result.exit_code == 2 and "grandmaster" in result.output


def test_conformance_runs_the_variant_cases():
    variants = Path(__file__).parents[1] / "conformance" / "variants"
    result = CliRunner().invoke(main, ["conformance", str(variants)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "20 passed, 0 failed"


def test_simulate_plays_a_preset_at_another_table_size():
    result = CliRunner().invoke(main, ["simulate", "--games", "1", "--seed", "2", "--levels",
                                       "basic", "--profile", "liverpool", "--players", "3"])
    assert result.exit_code == 0, result.output
    assert "seat 2: mean penalty" in result.output and "seat 3" not in result.output
    assert result.output.splitlines()[-1].startswith("games per second: ")


def test_simulate_refuses_a_profile_naming_its_rule():
    result = CliRunner().invoke(main, ["simulate", "--games", "1", "--profile",
                                       '{"preset": "shanghai", "packs": 9}'])
    assert result.exit_code == 2 and "R11.2" in result.output


@pytest.mark.parametrize("arguments,hint,says", [
    (["simulate", "--games", "0"], "'--games'", "0 is not in the range"),
    (["simulate", "--games", "-1"], "'--games'", "-1 is not in the range"),
    (["play-bots", "--url", "notaurl"], "--url", "not an http(s) URL"),
    (["play-bots", "--profile", "{bad"], "--profile", "not JSON"),
    (["play-bots", "--seats", "3", *["--level", "basic"] * 4], "--level", "4 levels for 3 seats"),
])
def test_a_bad_argument_is_a_usage_error_not_a_traceback(arguments, hint, says):
    """The newcomer tester's: `simulate --games 0` divided by zero, `play-bots` printed a
    JSONDecodeError or ValueError traceback, or silently dropped levels past --seats."""
    result = CliRunner().invoke(main, arguments)
    assert result.exit_code == 2, result.output
    assert f"Invalid value for {hint}" in result.output and says in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
