"""service.config.Settings: the one reader of the service's environment variables."""
import re
from pathlib import Path

import pytest

from api import create_app
from service.config import PROCESS_SECRET, Settings
from workers import worker

ALL = {"REDIS_URL": "redis://r:6379/0", "RUMMY_ADMIN_KEY": "k" * 32, "RUMMY_SECRET": "s3cret",
       "RUMMY_OFFER_DEADLINE_S": "7", "RUMMY_MAX_WAIT_S": "11", "RUMMY_SSE_MAX_S": "120",
       "RUMMY_SSE_HEARTBEAT_S": "3", "RUMMY_SWEEP_INTERVAL_S": "2", "RUMMY_SWEEP_STALE_S": "9"}


def test_every_variable_is_read_by_settings():
    settings = Settings.from_env(ALL)
    assert (settings.redis_url, settings.admin_key, settings.secret) == (
        "redis://r:6379/0", "k" * 32, "s3cret")
    assert (settings.offer_deadline_s, settings.max_wait_s, settings.sse_max_s,
            settings.sse_heartbeat_s, settings.sweep_interval_s, settings.sweep_stale_s) == (
        7, 11, 120, 3, 2, 9)


def test_unset_or_empty_variables_take_the_defaults():
    settings = Settings.from_env({"RUMMY_SWEEP_STALE_S": ""})
    assert settings == Settings()
    assert (settings.max_wait_s, settings.sse_max_s, settings.sse_heartbeat_s,
            settings.sweep_interval_s, settings.sweep_stale_s) == (30, 300, 15, 5, 30)
    assert settings.secret == PROCESS_SECRET and "secret" not in repr(settings)


@pytest.mark.parametrize("name", [n for n in ALL if n.endswith("_S")])
@pytest.mark.parametrize("value", ["0", "-1", "soon", "nan"])
def test_a_duration_that_is_not_a_positive_number_is_refused(name, value):
    with pytest.raises(ValueError, match=name):
        Settings.from_env({name: value})


@pytest.mark.parametrize("key", ["change-me", "short-key", "CHANGE-ME"])
def test_a_weak_admin_key_is_refused_at_startup(key):
    with pytest.raises(ValueError, match="RUMMY_ADMIN_KEY"):
        Settings.from_env({"RUMMY_ADMIN_KEY": key})
    with pytest.raises(ValueError, match="RUMMY_ADMIN_KEY"):
        Settings(admin_key=key)


def test_the_fixtures_admin_keys_are_accepted(admin_key):
    harness = Path(__file__).resolve().parents[1] / "e2e" / "e2e_harness.py"
    ADMIN_KEY = re.search(r'^ADMIN_KEY = "([^"]+)"', harness.read_text(), re.M).group(1)
    assert Settings(admin_key=admin_key).admin_key == admin_key
    assert Settings(admin_key=ADMIN_KEY).admin_key == ADMIN_KEY


def test_the_api_reads_its_waits_from_the_environment_unless_the_test_config_sets_them(monkeypatch):
    for name in ("RUMMY_MAX_WAIT_S", "RUMMY_SSE_MAX_S", "RUMMY_SSE_HEARTBEAT_S"):
        monkeypatch.setenv(name, "4")
    app = create_app({"RUMMY_SERVICE": None})
    assert [app.config[n] for n in ("RUMMY_MAX_WAIT_S", "RUMMY_SSE_MAX_S",
                                    "RUMMY_SSE_HEARTBEAT_S")] == [4, 4, 4]
    assert create_app({"RUMMY_SERVICE": None, "RUMMY_SSE_MAX_S": 1}).config["RUMMY_SSE_MAX_S"] == 1


def test_the_worker_reads_its_sweep_interval_through_settings(monkeypatch):
    monkeypatch.setenv("RUMMY_SWEEP_INTERVAL_S", "2.5")
    assert worker.sweep_interval_s() == 2.5
    monkeypatch.setenv("RUMMY_SWEEP_INTERVAL_S", "0")
    with pytest.raises(ValueError):
        worker.sweep_interval_s()
