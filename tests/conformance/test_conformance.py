"""Every conformance case file (shared cases and our extra ones) passes through run_case."""
import json
from pathlib import Path

import pytest

from domain.conformance import run_case

HERE = Path(__file__).parent
CASE_FILES = sorted(HERE.glob("cases/*.json")) + sorted(HERE.glob("cases_extra/*.json"))
# The §11 variant cases, copied unchanged from the specification, and our own (one or more
# per rule R11.1-R11.19).
VARIANT_FILES = sorted(HERE.glob("variants/*.json"))
VARIANT_EXTRA_FILES = sorted(HERE.glob("variants_extra/*.json"))


@pytest.mark.parametrize("path", CASE_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_case_passes(path):
    result = run_case(json.loads(path.read_text()))
    assert result.passed, "\n".join(result.failures)


@pytest.mark.parametrize("path", VARIANT_FILES + VARIANT_EXTRA_FILES,
                         ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_variant_case_passes(path):
    result = run_case(json.loads(path.read_text()))
    assert result.passed, "\n".join(result.failures)


def test_all_shared_cases_are_present():
    assert len(list(HERE.glob("cases/*.json"))) == 63
    assert len(VARIANT_FILES) == 20


def test_a_wrong_expectation_fails():
    case = json.loads((HERE / "cases" / "r6.5-all-pass-then-stock.json").read_text())
    case["final"]["discard_top"] = "2C"
    result = run_case(case)
    assert not result.passed
    assert result.failures == ["discard_top: got '9H', expected '2C'"]
