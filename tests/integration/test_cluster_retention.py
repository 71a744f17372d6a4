"""Retention on a real Redis Cluster (issue 12, docs/cluster.md): the same tests as
test_retention.py (imported here, so they run again with this `wired` service and `redis_client`),
where a game's keys leave in one script on its slot and its index shard is cleaned after."""
from __future__ import annotations

import pytest

from service.bootstrap import wire
from service.config import Settings
from tests.conftest import SECRET

from tests.integration.test_retention import (  # noqa: F401 (fixtures and tests run here too)
    archive, retention, service,
    test_a_finished_game_past_the_retention_is_archived_as_its_export_and_leaves_redis,
    test_a_rerun_is_a_no_op_and_a_crash_between_archive_and_removal_is_finished_once,
    test_an_abandoned_game_is_aborted_then_archived_with_its_abandonment_and_leaves_no_key)


@pytest.fixture
def redis_client(cluster_client):
    return cluster_client


@pytest.fixture
def wired(redis_cluster, cluster_client, redis_url, admin_key, tmp_path):
    """The service on the cluster, its queues on the session's single server (RQ's failed
    job registries, which retention also cleans)."""
    return wire(Settings(redis_url=redis_cluster.url, queue_url=redis_url, admin_key=admin_key,
                         secret=SECRET, archive_dir=str(tmp_path / "archive")))
