"""Clients generated from the committed openapi.yaml play whole games against gunicorn and a
worker (issue 9): a Python client (openapi-python-client) and a TypeScript one
(openapi-typescript + openapi-fetch, compiled by tsc, run by node). Each example program
(clients/*/examples/play.*) uses only generated functions and types; generation happens here,
so a document that the generators cannot type, or that the server does not keep, fails.

The npm packages are installed (versions pinned by clients/typescript/package.json) into a
cache directory; the TypeScript test skips only when the npm registry cannot be reached, and
never under CI (CI=true).
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CLIENTS = ROOT / "clients"
DOCUMENT = ROOT / "openapi.yaml"
GENERATOR = Path(sys.executable).with_name("openapi-python-client")
NPM_CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "contract-rummy-npm"
UNREACHABLE = ("ENOTFOUND", "ECONNREFUSED", "ETIMEDOUT", "EAI_AGAIN", "ENETUNREACH")


def run(args: list, cwd: Path, timeout: float = 300, env: dict | None = None) -> str:
    """Run a command, failing the test with its output when it fails; its stdout."""
    done = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, env=env)
    assert done.returncode == 0, f"{args[0]} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


def assert_played_to_the_end(summary: dict) -> None:
    print(json.dumps(summary))  # shown with -s: actions played and refusals by status
    assert summary["status"] == "finished", summary
    assert summary["played"] > 20 and set(summary["refused"]) <= {"409", "422"}, summary
    assert summary["events"] == summary["version"] and "GameEnded" in summary["event_types"]
    assert summary["replay_version"] == summary["version"] // 2
    assert summary["winners"], summary
    # Read with a stream ticket by a client without a token: the seat's own hands are shown,
    # and expires_at (RFC 3339) is a date-time both clients parse, 60 s after it was issued.
    assert summary["own_hands"] >= 1 and 50 < summary["ticket_s"] <= 61, summary


def test_the_generated_python_client_plays_a_human_seat_to_the_end(api_url, worker, tmp_path):
    package = tmp_path / "python"
    shutil.copytree(CLIENTS / "python", package)
    run([GENERATOR, "generate", "--path", DOCUMENT, "--meta", "none", "--overwrite", "--config",
         package / "config.yml", "--output-path", package / "contract_rummy_client"],
        cwd=package)
    out = run([sys.executable, package / "examples" / "play.py", api_url], cwd=package,
              env={**os.environ, "PYTHONPATH": str(package)})
    assert_played_to_the_end(json.loads(out.splitlines()[-1]))
    # Publishable: the package builds as a wheel with the generated code in it.
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", tmp_path / "dist", package], cwd=package)
    assert [w.name for w in (tmp_path / "dist").glob("contract_rummy_client-1.0.0-*.whl")]


def _node_modules() -> Path:
    """The pinned npm packages of clients/typescript, installed once into the cache."""
    manifest = (CLIENTS / "typescript" / "package.json").read_bytes()
    target = NPM_CACHE / hashlib.sha256(manifest).hexdigest()[:16]
    if not (target / "node_modules" / ".bin" / "tsc").exists():
        target.mkdir(parents=True, exist_ok=True)
        (target / "package.json").write_bytes(manifest)
        done = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--ignore-scripts"],
                              cwd=target, capture_output=True, text=True, timeout=600)
        if done.returncode != 0:
            if any(code in done.stderr for code in UNREACHABLE) and not os.environ.get("CI"):
                pytest.skip(f"the npm registry cannot be reached: {done.stderr[-300:]}")
            pytest.fail(f"npm install failed:\n{done.stderr[-3000:]}")
    return target / "node_modules"


def test_the_generated_typescript_client_plays_a_human_seat_to_the_end(api_url, worker,
                                                                      tmp_path):
    if shutil.which("npm") is None or shutil.which("node") is None:
        pytest.fail("node and npm are needed (Debian: apt-get install nodejs npm)")
    modules = _node_modules()
    package = tmp_path / "typescript"
    shutil.copytree(CLIENTS / "typescript", package,
                    ignore=shutil.ignore_patterns("node_modules", "dist", "schema.ts"))
    (package / "node_modules").symlink_to(modules)
    bins = modules / ".bin"
    run([bins / "openapi-typescript", DOCUMENT, "--default-non-nullable", "false", "-o",
         package / "src" / "schema.ts"], cwd=package)
    run([bins / "tsc", "-p", "."], cwd=package)  # strict: the example is typed by the document
    # Publishable: the package's files carry the client and the document's types.
    packed = json.loads(run(["npm", "pack", "--dry-run", "--json"], cwd=package))
    assert {"dist/src/index.js", "dist/src/index.d.ts", "dist/src/schema.d.ts"} <= {
        f["path"] for f in packed[0]["files"]}, packed
    out = run(["node", package / "dist" / "examples" / "play.js", api_url], cwd=package)
    assert_played_to_the_end(json.loads(out.splitlines()[-1]))
