"""Helpers of the players' tests (docs/players.md): a service with the integration key and a
JWT identity provider whose RSA key is generated here, and tokens of that provider."""
from __future__ import annotations

import time

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from service.bootstrap import wire
from service.config import Settings
from service.integration_config import IntegrationSettings
from tests.conftest import ADMIN_KEY, SECRET

INTEGRATION_KEY = "test-integration-key-0123456789"
ISSUER, AUDIENCE = "https://id.example.test/", "contract-rummy-test"
PRIVATE_KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)
PUBLIC_PEM = PRIVATE_KEY.public_key().public_bytes(
    serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode()


def token(sub: str, key=PRIVATE_KEY, algorithm: str = "RS256", headers: dict | None = None,
          **claims) -> str:
    """A JWT for `sub` signed by `key`: issuer, audience and a 5-minute expiry unless `claims`
    replace them (a claim given as None is left out)."""
    body = {"sub": sub, "iss": ISSUER, "aud": AUDIENCE, "exp": int(time.time()) + 300, **claims}
    return jwt.encode({k: v for k, v in body.items() if v is not None}, key,
                      algorithm=algorithm, headers=headers)


def as_player(player: str, seat: int | None = None) -> dict:
    """The headers of the integration key acting for `player` (and `seat`)."""
    headers = {"X-Integration-Key": INTEGRATION_KEY, "X-Player-Id": player}
    return headers if seat is None else {**headers, "X-Seat": str(seat)}


def integration_settings(**overrides) -> IntegrationSettings:
    """The test's integration settings: the key and the JWT provider of this module."""
    values = {"integration_key": INTEGRATION_KEY, "jwt_public_key": PUBLIC_PEM,
              "jwt_issuer": ISSUER, "jwt_audience": AUDIENCE, **overrides}
    return IntegrationSettings(**values)


@pytest.fixture
def service(redis_url, redis_client):
    """A GameService with the server admin key, the integration key and the JWT provider."""
    settings = Settings(redis_url=redis_url, admin_key=ADMIN_KEY, secret=SECRET,
                        max_wait_s=5.0, integration=integration_settings())
    return wire(settings).service
