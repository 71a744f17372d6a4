"""The committed openapi.yaml is what the code generates, and it is a valid OpenAPI document."""
from pathlib import Path

import yaml
from openapi_spec_validator import validate

from api.cli import openapi_yaml

COMMITTED = Path(__file__).resolve().parents[2] / "openapi.yaml"


def test_committed_openapi_yaml_equals_the_generated_document():
    assert COMMITTED.read_text(encoding="utf-8") == openapi_yaml(), (
        "openapi.yaml is stale: run `make openapi` and commit it")


def test_openapi_yaml_is_a_valid_openapi_document():
    validate(yaml.safe_load(COMMITTED.read_text(encoding="utf-8")))


def test_every_operation_documents_problem_json_errors():
    document = yaml.safe_load(COMMITTED.read_text(encoding="utf-8"))
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method == "parameters":
                continue
            assert "default" in operation["responses"], (method, path)
    default = document["components"]["responses"]["DEFAULT_ERROR"]
    assert list(default["content"]) == ["application/problem+json"]
