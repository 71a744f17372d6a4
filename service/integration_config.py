"""Settings of the integrator's channels (docs/players.md, issue 8 "Players, inbox, webhooks"):
the integration key, the JWT identity provider and the webhooks. Read by
`service.config.Settings.from_env` (the one place the environment is read) into
`Settings.integration`."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping
from urllib.parse import urlsplit

from standardwebhooks.webhooks import Webhook

MIN_INTEGRATION_KEY = 16


def check_webhook_url(url: str, name: str = "webhook_url") -> str:
    """`url` when it is an absolute http(s) URL with a host, else ValueError naming `name`."""
    parts = urlsplit(url) if isinstance(url, str) else None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname or len(url) > 2000:
        raise ValueError(f"{name} must be an absolute http or https URL of at most 2000 "
                         "characters")
    return url


def check_game_webhook_url(url: str) -> str:
    """`check_webhook_url` for a game's own `webhook_url`, which also carries no user or
    password: it is listed with the game's deliveries, and the receiver authenticates a
    delivery by its signature. ValueError otherwise."""
    parts = urlsplit(check_webhook_url(url))
    if parts.username is not None or parts.password is not None:
        raise ValueError("a webhook_url carries no user or password: the receiver checks each "
                         "delivery's signature instead")
    return url


def check_webhook_secret(secret: str) -> str:
    """`secret` when the standardwebhooks package reads it (`whsec_` + base64 of at least 24
    bytes, Standard Webhooks "Signature scheme"), else ValueError."""
    try:
        key = Webhook(secret)._whsecret  # noqa: SLF001 - the decoded key, to check its length
    except Exception:  # noqa: BLE001 - any refusal of the package is a bad secret
        key = b""
    if len(key) < 24:
        raise ValueError("RUMMY_WEBHOOK_SECRET must be 'whsec_' followed by the base64 of at "
                         "least 24 random bytes (e.g. \"whsec_$(openssl rand -base64 32)\")")
    return secret


@dataclass(frozen=True)
class IntegrationSettings:
    """`integration_key` (RUMMY_INTEGRATION_KEY): the server-level key an integrator sends as
    `X-Integration-Key` to act for any player (>= 16 characters; None: refused).
    `jwt_public_key` (RUMMY_JWT_PUBLIC_KEY): a PEM public key, or the path of a PEM or JWKS
    file; with `jwt_issuer` (RUMMY_JWT_ISSUER) and `jwt_audience` (RUMMY_JWT_AUDIENCE) a
    bearer JWT acts for the player its `sub` names (all three or none).
    `webhook_url` (RUMMY_WEBHOOK_URL) and `webhook_secret` (RUMMY_WEBHOOK_SECRET, `whsec_...`):
    where the workers deliver webhooks and the key that signs them; a game's own
    `webhook_url` needs the secret too. Raises ValueError for a bad combination."""

    integration_key: str | None = field(default=None, repr=False)
    jwt_public_key: str | None = field(default=None, repr=False)
    jwt_issuer: str | None = None
    jwt_audience: str | None = None
    webhook_url: str | None = None
    webhook_secret: str | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.integration_key is not None and len(self.integration_key) < MIN_INTEGRATION_KEY:
            raise ValueError(f"RUMMY_INTEGRATION_KEY must be a secret of at least "
                             f"{MIN_INTEGRATION_KEY} characters (e.g. `openssl rand -hex 32`)")
        jwt = (self.jwt_public_key, self.jwt_issuer, self.jwt_audience)
        if any(jwt) and not all(jwt):
            raise ValueError("RUMMY_JWT_PUBLIC_KEY, RUMMY_JWT_ISSUER and RUMMY_JWT_AUDIENCE are "
                             "set together or not at all")
        if self.webhook_url is not None:
            check_webhook_url(self.webhook_url, "RUMMY_WEBHOOK_URL")
            if self.webhook_secret is None:
                raise ValueError("RUMMY_WEBHOOK_URL needs RUMMY_WEBHOOK_SECRET")
        if self.webhook_secret is not None:
            check_webhook_secret(self.webhook_secret)

    @property
    def jwt_enabled(self) -> bool:
        """Whether bearer JWTs are accepted."""
        return self.jwt_public_key is not None

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> "IntegrationSettings":
        """The settings of `env` (an empty value counts as unset). Raises ValueError."""
        names = {"integration_key": "RUMMY_INTEGRATION_KEY",
                 "jwt_public_key": "RUMMY_JWT_PUBLIC_KEY", "jwt_issuer": "RUMMY_JWT_ISSUER",
                 "jwt_audience": "RUMMY_JWT_AUDIENCE", "webhook_url": "RUMMY_WEBHOOK_URL",
                 "webhook_secret": "RUMMY_WEBHOOK_SECRET"}
        return cls(**{name: env.get(variable) or None for name, variable in names.items()})
