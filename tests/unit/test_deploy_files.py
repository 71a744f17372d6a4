"""The deployment files (issue 7): valid YAML, every service restarts by itself, the API has a
liveness (GET /health) and a readiness (GET /ready) check, the worker a liveness check that is
a real command of this package, and Redis keeps an append-only file."""
from __future__ import annotations

from pathlib import Path

import yaml

from workers.cli import main

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def k8s_documents() -> dict[str, dict]:
    """Every k8s document by `<kind>/<name>`."""
    found = {}
    for path in sorted((DEPLOY / "k8s").glob("*.yaml")):
        for document in yaml.safe_load_all(path.read_text()):
            found[f"{document['kind']}/{document['metadata']['name']}"] = document
    return found


def container(document: dict) -> dict:
    return document["spec"]["template"]["spec"]["containers"][0]


def test_compose_restarts_everything_and_checks_health():
    services = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())["services"]
    assert {name: s.get("restart") for name, s in services.items()} == {
        "redis": "unless-stopped", "api": "unless-stopped", "worker": "unless-stopped",
        "webhooks": "unless-stopped"}
    assert "--appendonly" in services["redis"]["command"]
    assert services["redis"]["command"][services["redis"]["command"].index("--appendonly") + 1] == "yes"
    assert "/health" in " ".join(services["api"]["healthcheck"]["test"])
    for name in ("worker", "webhooks"):
        assert services[name]["healthcheck"]["test"][:3] == ["CMD", "rummy", "worker-health"]
    assert services["webhooks"]["command"] == ["rummy", "webhook-worker"]
    assert "worker-health" in main.commands


def test_k8s_probes_and_restarts():
    documents = k8s_documents()
    api = documents["Deployment/rummy-api"]
    probes = container(api)
    assert probes["livenessProbe"]["httpGet"]["path"] == "/health"
    assert probes["readinessProbe"]["httpGet"]["path"] == "/ready"
    worker = documents["Deployment/rummy-worker"]
    assert container(worker)["livenessProbe"]["exec"]["command"][:2] == ["rummy", "worker-health"]
    webhooks = documents["Deployment/rummy-webhooks"]
    assert container(webhooks)["command"] == ["rummy", "webhook-worker"]
    assert container(webhooks)["livenessProbe"]["exec"]["command"][:2] == ["rummy", "worker-health"]
    for deployment in (api, worker, webhooks):
        assert deployment["spec"]["template"]["spec"].get("restartPolicy", "Always") == "Always"
    redis = container(documents["StatefulSet/rummy-redis"])
    assert redis["args"][redis["args"].index("--appendonly") + 1] == "yes"
    assert "livenessProbe" in redis and "readinessProbe" in redis
