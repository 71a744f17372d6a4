"""Player JWTs (docs/players.md "JWT"): a bearer JWT of the configured identity provider acts
for its `sub`'s seats and reads that player's inbox; every other token is a 401. Keys are
generated in the test."""
import json
import time

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import ec, rsa

from service.integration_config import IntegrationSettings
from service.jwt_identity import JwtVerifier
from tests.integration.api_client import HUMANS, app, bearer, client  # noqa: F401
from tests.integration.players_fixtures import (AUDIENCE, INTEGRATION_KEY, ISSUER, PUBLIC_PEM,
                                                service, token)  # noqa: F401

KEY = {"X-Integration-Key": INTEGRATION_KEY}


@pytest.fixture
def game(client):
    body = {"seats": [{**h, "player_id": p} for h, p in zip(HUMANS, ["ann", "bob", "cy", "dee"])],
            "seed": 5}
    return client.post("/v1/games", json=body, headers=KEY).get_json()


def test_a_valid_jwt_acts_for_its_players_seat_and_reads_its_inbox(client, game):
    gid = game["id"]
    view = client.get(f"/v1/games/{gid}/view", headers=bearer(token("bob")))
    assert view.status_code == 200 and view.get_json()["seat"] == 1
    own = client.get(f"/v1/games/{gid}/view", headers=bearer(game["seats"][1]["token"]))
    assert view.get_json() == own.get_json()
    inbox = client.get("/v1/players/bob/games", headers=bearer(token("bob")))
    assert [(i["game_id"], i["seat"]) for i in inbox.get_json()["items"]] == [(gid, 1)]
    other = client.get("/v1/players/ann/games", headers=bearer(token("bob")))
    assert other.status_code == 403
    assert client.get(f"/v1/games/{gid}/view", headers=bearer(token("zed"))).status_code == 403


def test_a_jwt_may_name_only_its_own_player_at_creation(client):
    mine = {"seats": [{**HUMANS[0], "player_id": "ann"}, *HUMANS[1:]]}
    assert client.post("/v1/games", json=mine, headers=bearer(token("ann"))).status_code == 201
    assert client.post("/v1/games", json=mine, headers=bearer(token("bob"))).status_code == 403


def _hs256_with_the_public_key() -> str:
    """The algorithm-confusion attack: HS256 keyed with the PEM public key (RFC 8725 §2.1).
    PyJWT refuses to sign so with a PEM, so the token is assembled by hand."""
    import base64
    import hashlib
    import hmac

    def b64(data: bytes) -> str:
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()
    head = b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    body = b64(json.dumps({"sub": "bob", "iss": ISSUER, "aud": AUDIENCE,
                           "exp": int(time.time()) + 300}).encode())
    signature = hmac.new(PUBLIC_PEM.encode(), f"{head}.{body}".encode(), hashlib.sha256).digest()
    return f"{head}.{body}.{b64(signature)}"


BAD = {
    "expired": lambda: token("bob", exp=int(time.time()) - 120),
    "not yet valid": lambda: token("bob", nbf=int(time.time()) + 600),
    "other issuer": lambda: token("bob", iss="https://evil.example/"),
    "other audience": lambda: token("bob", aud="someone-else"),
    "no exp": lambda: token("bob", exp=None),
    "no sub": lambda: token(None),
    "a sub that is no player id": lambda: token("b o b"),
    "alg none": lambda: jwt.encode({"sub": "bob", "iss": ISSUER, "aud": AUDIENCE,
                                    "exp": int(time.time()) + 300}, None, algorithm="none"),
    "HS256 keyed with the public key": _hs256_with_the_public_key,
    "another RSA key": lambda: token("bob", key=rsa.generate_private_key(65537, 2048)),
    "tampered": lambda: token("bob")[:-4] + "AAAA",
}


@pytest.mark.parametrize("case", BAD)
def test_every_other_jwt_is_a_401_that_changes_nothing(client, game, case):
    gid = game["id"]
    before = client.get(f"/v1/games/{gid}").get_json()["version"]
    headers = bearer(BAD[case]())
    assert client.get(f"/v1/games/{gid}/view", headers=headers).status_code == 401
    assert client.get("/v1/players/bob/games", headers=headers).status_code == 401
    acted = client.post(f"/v1/games/{gid}/actions", json={"type": "draw", "from": "stock"},
                        headers=headers)
    assert acted.status_code == 401 and acted.get_json()["status"] == 401
    assert client.get(f"/v1/games/{gid}").get_json()["version"] == before


def test_a_jwks_file_picks_the_key_by_kid_with_its_curves_algorithm(tmp_path):
    signer = ec.generate_private_key(ec.SECP256R1())
    public = json.loads(jwt.algorithms.ECAlgorithm.to_jwk(signer.public_key()))
    (tmp_path / "jwks.json").write_text(json.dumps({"keys": [{**public, "kid": "k1"}]}))
    verifier = JwtVerifier(str(tmp_path / "jwks.json"), ISSUER, AUDIENCE)
    assert verifier.keys["k1"][1] == ("ES256",)
    good = token("ann", key=signer, algorithm="ES256", headers={"kid": "k1"})
    assert verifier.player(good) == "ann"
    from service.errors import Unauthorized
    with pytest.raises(Unauthorized):
        verifier.player(token("ann", key=signer, algorithm="ES256", headers={"kid": "k2"}))


@pytest.mark.parametrize("setting", ["not a key", '{"keys": [{"kty": "oct", "k": "c2VjcmV0"}]}'])
def test_a_jwt_setting_that_is_no_public_key_is_refused_at_startup(tmp_path, setting):
    path = tmp_path / "key"
    path.write_text(setting)
    with pytest.raises(ValueError, match="RUMMY_JWT_PUBLIC_KEY"):
        JwtVerifier(str(path), ISSUER, AUDIENCE)
    with pytest.raises(ValueError, match="together"):
        IntegrationSettings(jwt_public_key=str(path))


def test_a_server_admin_key_with_dots_is_never_taken_for_a_jwt(redis_url, redis_client):
    from api import create_app
    from service.bootstrap import wire
    from service.config import Settings
    from tests.integration.players_fixtures import integration_settings
    dotted = "admin.key.0123456789abcdef"
    svc = wire(Settings(redis_url=redis_url, admin_key=dotted,
                        integration=integration_settings())).service
    app = create_app({"RUMMY_SERVICE": svc, "TESTING": True, "RUMMY_RATE_LIMITS": "off"})
    test_client = app.test_client()
    gid = test_client.post("/v1/games", json={"seats": HUMANS}).get_json()["id"]
    assert test_client.get(f"/v1/games/{gid}/export", headers=bearer(dotted)).status_code == 200
