"""Retention (issue 7 item 9, docs/retention.md) on a real Redis: finished games archived after
RUMMY_RETENTION_DAYS, abandoned ones after RUMMY_ABANDON_DAYS, every key and index member
removed, the archive replayable through import, a re-run a no-op. Time is injected (`now_ms`
days ahead), never slept."""
from __future__ import annotations

import json
import time

import pytest

from domain import awaiting, full_view
from service import GameNotFound, Principal
from service.bootstrap import wire
from service.config import Settings
from service.index import index_keys
from service.keys import summary_key
from service.retention import DAY_MS, Retention, RetentionPolicy
from tests.conftest import SECRET
from tests.integration.api_client import PROBLEM, app, bearer, client  # noqa: F401 (fixtures)
from tests.integration.records import finished_record

HUMANS = [{"kind": "human", "name": f"P{i}"} for i in range(4)]
ADMIN = Principal(admin=True, server=True)  # the server admin key: exports live games too


@pytest.fixture
def wired(redis_url, redis_client, admin_key, tmp_path):
    """The service wired with an archive directory, no follow-up jobs."""
    return wire(Settings(redis_url=redis_url, admin_key=admin_key, secret=SECRET,
                         archive_dir=str(tmp_path / "archive")))


@pytest.fixture
def service(wired):
    return wired.service


@pytest.fixture
def archive(service):
    return service.archive


@pytest.fixture
def retention(wired):
    """Finished games kept 1 day, abandoned after 7."""
    return Retention(wired.service, wired.client, RetentionPolicy(DAY_MS, 7 * DAY_MS),
                     wired.queue_client)


def days_ahead(days: float) -> int:
    return int(time.time() * 1000 + days * DAY_MS)


def finished_game(service, admin_key) -> str:
    return service.import_game(finished_record(), admin_key)["id"]


def keys_of(client, game_id: str) -> list[bytes]:
    """Every key whose name holds the game id (its own keys, or any other)."""
    return list(client.scan_iter(f"*{game_id}*", count=1000))


def members_of(client, game_id: str) -> list[str]:
    """The keys of the game's index shard that still hold the game."""
    versions, *sets = index_keys(game_id)[1:]
    held = [versions] if client.hexists(versions, game_id) else []
    return held + [key for key in sets if client.zscore(key, game_id) is not None]


def act_with_key(service, game_id: str, key: str) -> None:
    """The seat that must act draws from the stock with an idempotency key (an idem key)."""
    _, state = service.load(game_id)
    seat = awaiting(state).seats[0]
    service.act(game_id, Principal(seat=seat), {"type": "draw", "from": "stock"},
                idempotency_key=key)


def test_a_finished_game_past_the_retention_is_archived_as_its_export_and_leaves_redis(
        service, retention, archive, redis_client, admin_key):
    game_id = finished_game(service, admin_key)
    export = service.export(game_id, ADMIN)
    _, final = service.load(game_id)
    assert keys_of(redis_client, game_id) and members_of(redis_client, game_id)

    report = retention.run(now_ms=days_ahead(2))

    assert report.finished == [game_id] and report.archived == 1
    assert archive.get(game_id) == export
    assert json.loads(archive.path(game_id).read_text()) == export
    assert keys_of(redis_client, game_id) == []
    assert members_of(redis_client, game_id) == []
    with pytest.raises(GameNotFound):
        service.load(game_id)
    assert service.archived(game_id)
    assert game_id not in [g["id"] for g in service.list_games(limit=100)["items"]]

    again = service.import_game(archive.get(game_id), admin_key)["id"]
    assert full_view(service.load(again)[1]) == full_view(final)


def test_a_rerun_is_a_no_op_and_a_crash_between_archive_and_removal_is_finished_once(
        service, retention, archive, redis_client, admin_key, tmp_path):
    first, second = finished_game(service, admin_key), finished_game(service, admin_key)
    # A run that crashed after storing `first`'s record, before removing it from Redis.
    archive.put(first, service.export(first, ADMIN))

    report = retention.run(now_ms=days_ahead(2))
    assert sorted(report.finished) == sorted([first, second])
    files = sorted(p.name for p in archive.root.rglob("*") if p.is_file())
    assert files == sorted([f"{first}.json", f"{second}.json"])

    before = {p: p.read_bytes() for p in archive.root.rglob("*.json")}
    assert retention.run(now_ms=days_ahead(2)).archived == 0
    assert {p: p.read_bytes() for p in archive.root.rglob("*.json")} == before


def test_an_abandoned_game_is_aborted_then_archived_with_its_abandonment_and_leaves_no_key(
        service, retention, archive, redis_client):
    game_id = service.create_game(HUMANS, seed=3)["id"]
    act_with_key(service, game_id, "k-1")
    export = service.export(game_id, ADMIN)
    assert any(b":idem:" in key for key in keys_of(redis_client, game_id))

    assert retention.run(now_ms=days_ahead(6)).archived == 0  # idle 6 days: not yet
    report = retention.run(now_ms=days_ahead(8))

    assert report.abandoned == [game_id]
    record = archive.get(game_id)
    abandoned = record.pop("abandoned")
    aborted = record["events"].pop()  # aborted first: nothing more may be appended
    assert aborted["type"] == "GameAborted" and aborted["version"] == export["version"] + 1
    assert {**record, "version": export["version"]} == export
    assert abandoned["status"] == "playing" and abandoned["archived_ms"] >= abandoned["last_event_ms"]
    assert keys_of(redis_client, game_id) == [] and members_of(redis_client, game_id) == []


def test_live_and_recent_games_are_untouched(service, retention, archive, redis_client, admin_key):
    finished = finished_game(service, admin_key)
    playing = service.create_game(HUMANS, seed=4)["id"]
    act_with_key(service, playing, "k-2")
    before = {g: sorted(keys_of(redis_client, g)) for g in (finished, playing)}
    versions = {g: service.load(g)[0] for g in (finished, playing)}

    report = retention.run(now_ms=days_ahead(0.5))

    assert report.archived == 0 and list(archive.root.rglob("*.json")) == []
    assert {g: sorted(keys_of(redis_client, g)) for g in (finished, playing)} == before
    assert {g: service.load(g)[0] for g in (finished, playing)} == versions


def test_a_dry_run_lists_what_is_due_and_changes_nothing(service, retention, archive,
                                                         redis_client, admin_key):
    finished = finished_game(service, admin_key)
    playing = service.create_game(HUMANS, seed=5)["id"]
    keys = sorted(redis_client.keys("*"))

    report = retention.run(now_ms=days_ahead(8), dry_run=True)

    assert (report.finished, report.abandoned) == ([finished], [playing])
    assert sorted(redis_client.keys("*")) == keys and not archive.root.exists()


def test_a_game_whose_summary_predates_updated_ms_starts_its_clock_at_the_first_run(
        service, retention, redis_client):
    game_id = service.create_game(HUMANS, seed=6)["id"]
    redis_client.hdel(summary_key(game_id), "updated_ms")

    assert retention.run(now_ms=days_ahead(30), dry_run=True).abandoned == []
    assert not redis_client.hexists(summary_key(game_id), "updated_ms")  # a dry run writes nothing
    assert retention.run(now_ms=days_ahead(30)).archived == 0
    stamped = int(redis_client.hget(summary_key(game_id), "updated_ms"))
    assert abs(stamped - time.time() * 1000) < 60_000


def test_a_game_that_moved_on_after_its_export_stays_in_redis(service, retention, archive,
                                                              redis_client, admin_key):
    game_id = finished_game(service, admin_key)
    version = service.load(game_id)[0]
    due = next(retention.due(days_ahead(31)))
    real_put = archive.put

    def put_then_append(game, record):  # an append lands between the export and the removal
        location = real_put(game, record)
        service.store.append(game, [{"type": "Noted", "schema": 1, "data": {}}], version)
        return location

    archive.put = put_then_append
    assert retention.archive_game(due) == "kept"
    assert service.store.version(game_id) == version + 1
    assert members_of(redis_client, game_id)


def test_an_abandoned_game_that_moves_on_before_its_abort_is_kept_live(service, retention,
                                                                       redis_client):
    game_id = service.create_game(HUMANS, seed=8)["id"]
    version = service.load(game_id)[0]
    due = next(retention.due(days_ahead(8)))
    real_abort = service.abort

    def act_then_abort(game, *args):  # a seat acts after the load, before the abort
        act_with_key(service, game, "late")
        return real_abort(game, *args)

    service.abort = act_then_abort
    assert retention.archive_game(due) == "kept"
    _, state = service.load(game_id)
    assert awaiting(state).status == "playing" and service.load(game_id)[0] > version
    assert members_of(redis_client, game_id)


def test_retention_needs_an_archive(redis_client, make_service):
    with pytest.raises(ValueError, match="RUMMY_ARCHIVE_DIR"):
        Retention(make_service(), redis_client, RetentionPolicy(DAY_MS, DAY_MS))


def test_the_archive_refuses_what_is_not_a_game_id(archive):
    with pytest.raises(ValueError):
        archive.path("../etc/passwd")
    assert not archive.exists("../etc/passwd") and archive.get("0123abcd") is None


def test_retention_settings_are_read_from_the_environment():
    settings = Settings.from_env({"RUMMY_RETENTION_DAYS": "0.5", "RUMMY_ABANDON_DAYS": "2",
                                  "RUMMY_ARCHIVE_DIR": "/srv/archive",
                                  "RUMMY_RETENTION_INTERVAL_S": "60"})
    assert (settings.retention_days, settings.abandon_days, settings.archive_dir,
            settings.retention_interval_s) == (0.5, 2, "/srv/archive", 60)
    policy = RetentionPolicy.from_settings(settings)
    assert (policy.finished_ms, policy.abandoned_ms) == (DAY_MS // 2, 2 * DAY_MS)
    defaults = Settings.from_env({})
    assert (defaults.retention_days, defaults.abandon_days, defaults.archive_dir) == (30, 7, None)
    for name in ("RUMMY_RETENTION_DAYS", "RUMMY_ABANDON_DAYS"):
        with pytest.raises(ValueError, match=name):
            Settings.from_env({name: "0"})


def test_the_api_answers_410_for_an_archived_game_and_404_for_an_unknown_one(
        service, retention, admin_key, client):
    game_id = finished_game(service, admin_key)
    retention.run(now_ms=days_ahead(2))

    for path in (f"/v1/games/{game_id}", f"/v1/games/{game_id}/replay?version=1",
                 f"/v1/games/{game_id}/events", f"/v1/games/{game_id}/export"):
        response = client.get(path, headers=bearer(admin_key))
        assert response.status_code == 410, path
        assert response.content_type == PROBLEM
        assert response.get_json()["type"] == "/docs/problems#game-archived"
    assert client.get("/v1/games/0123456789abcdef").status_code == 404


def test_a_finished_game_keeps_no_snapshot_in_redis(service, redis_client, admin_key):
    game_id = finished_game(service, admin_key)  # the import folds past many multiples of 100
    assert service.load(game_id)[0] > 100
    assert not list(redis_client.scan_iter(f"rummy:{{{game_id}}}:snap*"))
    assert service.replay(game_id, ADMIN, 150)["version"] == 150


def test_an_archived_games_failed_jobs_leave_rqs_failed_registry(service, retention, redis_client,
                                                                 admin_key):
    from rq import Queue
    from rq.registry import FailedJobRegistry

    game_id, other = finished_game(service, admin_key), "0123456789abcdef"
    queue = Queue("rummy", connection=redis_client)
    registry = FailedJobRegistry(queue=queue)
    for job_id in (f"bot-{game_id}-7", f"score-{game_id}-9-s1", f"bot-{other}-7"):
        registry.add(queue.enqueue("workers.jobs.sweep", job_id=job_id), ttl=3600)

    assert retention.run(now_ms=days_ahead(2)).finished == [game_id]

    assert registry.get_job_ids() == [f"bot-{other}-7"]
    assert not list(redis_client.scan_iter(f"*{game_id}*"))


def test_index_members_of_a_game_without_events_are_removed_as_gone(service, retention,
                                                                     redis_client, admin_key):
    game_id = finished_game(service, admin_key)
    redis_client.delete(f"rummy:{{{game_id}}}:events")
    service.forget(game_id)

    report = retention.run(now_ms=days_ahead(2))

    assert report.gone == [game_id] and report.archived == 0
    assert members_of(redis_client, game_id) == [] and keys_of(redis_client, game_id) == []
