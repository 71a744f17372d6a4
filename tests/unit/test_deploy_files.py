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


def test_the_cluster_variants_put_the_store_on_a_cluster_and_the_queues_on_one_redis():
    """docs/cluster.md: compose override and k8s folder, six cluster nodes, every process with
    a redis+cluster:// REDIS_URL and a single-Redis RUMMY_QUEUE_URL that the settings accept."""
    from service.config import Settings

    override = yaml.safe_load((DEPLOY / "docker-compose.cluster.yml").read_text())["services"]
    base = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())["services"]
    nodes = [name for name in override if name.startswith("redis-") and name[6:].isdigit()]
    assert len(nodes) == 6 and "--cluster-enabled" in override[nodes[0]]["command"]
    assert "--cluster-replicas 1" in " ".join(override["redis-cluster-init"]["command"])
    for name in ("api", "worker", "webhooks"):
        env = {**base[name]["environment"], **override[name]["environment"]}
        Settings(redis_url=env["REDIS_URL"], queue_url=env["RUMMY_QUEUE_URL"])
        assert env["REDIS_URL"].startswith("redis+cluster://")
        assert env["RUMMY_QUEUE_URL"].split("//")[1].startswith("redis:")  # the single Redis
    documents = {f"{d['kind']}/{d['metadata']['name']}": d for path in
                 (DEPLOY / "k8s" / "cluster").glob("*.yaml")
                 for d in yaml.safe_load_all(path.read_text())}
    assert documents["StatefulSet/rummy-redis-cluster"]["spec"]["replicas"] == 6
    config = documents["ConfigMap/rummy-config"]["data"]
    Settings(redis_url=config["REDIS_URL"], queue_url=config["RUMMY_QUEUE_URL"])
    assert config["REDIS_URL"].startswith("redis+cluster://")
    assert "Job/rummy-redis-cluster-init" in documents
    single = k8s_documents()["ConfigMap/rummy-config"]["data"]
    assert set(single) <= set(config) | {"RUMMY_ARCHIVE_DIR"}  # the variant keeps every setting
