"""Bearer JWTs of the integrator's identity provider (docs/players.md "JWT"): a token whose
signature, issuer, audience, expiry and not-before check out names the player in `sub`.

Checked with PyJWT against the configured public key(s) only: the algorithms are fixed by each
key's type (RSA: RS*/PS*, EC: the ES* of its curve, OKP: EdDSA), so neither `none` nor an HMAC
with the public key as its secret (the "algorithm confusion" of RFC 8725 §2.1) is ever
accepted. `exp`, `iss`, `aud` and `sub` are required; `nbf` is checked when present."""
from __future__ import annotations

import json
from pathlib import Path

import jwt
from cryptography.hazmat.primitives.asymmetric import ec, ed448, ed25519, rsa
from cryptography.hazmat.primitives.serialization import load_pem_public_key

from service.errors import Unauthorized
from service.players import player_id

RSA_ALGORITHMS = ("RS256", "RS384", "RS512", "PS256", "PS384", "PS512")
EC_ALGORITHMS = {"secp256r1": ("ES256",), "secp384r1": ("ES384",), "secp521r1": ("ES512",)}
LEEWAY_S = 30  # clock skew allowed on exp and nbf (RFC 7519 §4.1.4 "some small leeway")
REQUIRED = ["exp", "iss", "aud", "sub"]


def looks_like_jwt(token: str) -> bool:
    """Whether a bearer token is a JWS compact serialization (three dot-separated parts): the
    game's own tokens (service.tokens) never hold a dot."""
    return token.count(".") == 2


def _algorithms(key) -> tuple[str, ...]:
    """The algorithms a public key object may verify. Raises ValueError for another kind."""
    if isinstance(key, rsa.RSAPublicKey):
        return RSA_ALGORITHMS
    if isinstance(key, ec.EllipticCurvePublicKey) and key.curve.name in EC_ALGORITHMS:
        return EC_ALGORITHMS[key.curve.name]
    if isinstance(key, (ed25519.Ed25519PublicKey, ed448.Ed448PublicKey)):
        return ("EdDSA",)
    raise ValueError("RUMMY_JWT_PUBLIC_KEY must be an RSA, EC (P-256/384/521) or Ed25519/Ed448 "
                     "public key")


def load_keys(setting: str) -> dict[str | None, tuple[object, tuple[str, ...]]]:
    """kid -> (public key, its algorithms) of RUMMY_JWT_PUBLIC_KEY: PEM text, or the path of a
    PEM or JWKS file (RFC 7517; a PEM's kid is None). Raises ValueError for anything else
    (a private or symmetric key included)."""
    text = setting
    if not setting.lstrip().startswith("-----BEGIN"):
        try:
            text = Path(setting).read_text()
        except OSError as error:
            raise ValueError(f"RUMMY_JWT_PUBLIC_KEY: cannot read {setting!r}: "
                             f"{error.strerror}") from None
    if text.lstrip().startswith("{"):
        return _jwks(text)
    try:
        key = load_pem_public_key(text.encode())
    except ValueError:
        raise ValueError("RUMMY_JWT_PUBLIC_KEY must be a PEM public key or a JWKS") from None
    return {None: (key, _algorithms(key))}


def _jwks(text: str) -> dict[str | None, tuple[object, tuple[str, ...]]]:
    try:
        entries = json.loads(text)["keys"]
        keys = {}
        for entry in entries:
            if entry.get("kty") not in ("RSA", "EC", "OKP"):
                raise ValueError("only RSA, EC and OKP public keys")
            key = jwt.PyJWK(entry).key
            allowed = _algorithms(key)
            if entry.get("alg") is not None:
                allowed = tuple(a for a in allowed if a == entry["alg"])
            keys[entry.get("kid")] = (key, allowed)
    except (ValueError, KeyError, TypeError, jwt.PyJWTError) as error:
        raise ValueError(f"RUMMY_JWT_PUBLIC_KEY: not a JWKS of public keys ({error})") from None
    if not keys:
        raise ValueError("RUMMY_JWT_PUBLIC_KEY: the JWKS holds no key")
    return keys


class JwtVerifier:
    """Verifies bearer JWTs: `keys` from `load_keys`, the `issuer` and `audience` required."""

    def __init__(self, public_key: str, issuer: str, audience: str) -> None:
        self.keys = load_keys(public_key)
        self.issuer, self.audience = issuer, audience

    def player(self, token: str) -> str:
        """The player id (`sub`) of a valid `token`. Raises Unauthorized naming what is wrong
        (never the token): signature, algorithm, issuer, audience, expired, not yet valid, a
        missing claim, or a `sub` that is not a player id."""
        try:
            header = jwt.get_unverified_header(token)
            key, allowed = self._key(header.get("kid"))
            claims = jwt.decode(token, key, algorithms=list(allowed), audience=self.audience,
                                issuer=self.issuer, leeway=LEEWAY_S,
                                options={"require": REQUIRED})
        except jwt.ExpiredSignatureError:
            raise Unauthorized("The bearer JWT has expired.") from None
        except jwt.ImmatureSignatureError:
            raise Unauthorized("The bearer JWT is not valid yet (nbf).") from None
        except jwt.InvalidAudienceError:
            raise Unauthorized("The bearer JWT is not for this audience.") from None
        except jwt.InvalidIssuerError:
            raise Unauthorized("The bearer JWT is not from the configured issuer.") from None
        except jwt.MissingRequiredClaimError as error:
            raise Unauthorized(f"The bearer JWT has no {error.claim!r} claim.") from None
        except jwt.InvalidAlgorithmError:
            raise Unauthorized("The bearer JWT's algorithm is not accepted.") from None
        except jwt.PyJWTError:
            raise Unauthorized("The bearer JWT is not valid (signature or format).") from None
        try:
            return player_id(claims["sub"])
        except ValueError:
            raise Unauthorized("The bearer JWT's sub is not a player id.") from None

    def _key(self, kid: object) -> tuple[object, tuple[str, ...]]:
        if kid in self.keys:
            return self.keys[kid]
        if None in self.keys and len(self.keys) == 1:  # one PEM key: whatever kid is named
            return self.keys[None]
        raise jwt.InvalidKeyError("no key with this kid")
