"""The integrator's settings (service.integration_config): read from the environment, refused
at startup when they cannot work."""
import base64

import pytest

from service.config import Settings
from service.integration_config import IntegrationSettings

SECRET = "whsec_" + base64.b64encode(bytes(range(32))).decode()


def test_the_settings_come_from_the_environment():
    env = {"RUMMY_INTEGRATION_KEY": "k" * 32, "RUMMY_WEBHOOK_URL": "https://hooks.example/x",
           "RUMMY_WEBHOOK_SECRET": SECRET, "RUMMY_JWT_ISSUER": ""}
    found = Settings.from_env(env).integration
    assert found.integration_key == "k" * 32 and found.webhook_url == "https://hooks.example/x"
    assert not found.jwt_enabled
    assert "k" * 32 not in repr(found) and SECRET not in repr(found)  # never logged


@pytest.mark.parametrize("values, message", [
    ({"integration_key": "short"}, "RUMMY_INTEGRATION_KEY"),
    ({"jwt_issuer": "https://id.example/"}, "together"),
    ({"webhook_url": "https://hooks.example/x"}, "needs RUMMY_WEBHOOK_SECRET"),
    ({"webhook_url": "ftp://hooks.example/x", "webhook_secret": SECRET}, "http"),
    ({"webhook_secret": "whsec_c2hvcnQ="}, "RUMMY_WEBHOOK_SECRET"),
    ({"webhook_secret": "not base64 at all!"}, "RUMMY_WEBHOOK_SECRET"),
])
def test_settings_that_cannot_work_are_refused(values, message):
    with pytest.raises(ValueError, match=message):
        IntegrationSettings(**values)
