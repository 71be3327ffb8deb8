"""Who is calling over HTTP: token verifiers for API keys and OAuth JWTs, and the
identity (tenant, default scope, read-only) a verified token carries.

Each verifier implements the SDK's ``TokenVerifier`` protocol; the SDK's bearer
backend calls it on every request (no cache: a key revoked by another process is
refused at once). ``server.http.Guard`` calls it first: a token it refuses raises
:class:`TokenRefused`, answered 401 with an RFC 6750 §3 challenge naming the reason
(:func:`challenge`); the SDK's authentication then reuses Guard's answer. The
identity travels in the ``AccessToken``'s claims and is read back per request
through ``get_access_token()`` (see ``Runtime.identity``). Failed authentications
are logged without the token.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import anyio.to_thread
from mcp.server.auth.provider import AccessToken
from starlette.authentication import AuthenticationError

from memvault.storage import validate
from memvault.storage.errors import InvalidInput, MemvaultError
from memvault.storage.limits import DEFAULT_SCOPE
from memvault.storage.timefmt import format_ms

if TYPE_CHECKING:
    from .config import HttpConfig
    from .runtime import Runtime

log = logging.getLogger(__name__)
READ, WRITE = "memvault:read", "memvault:write"
# Asymmetric signatures only: "none" and HS* (a shared secret, or a public key misused as one) never.
JWT_ALGORITHMS = ("RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA")
_TENANT, _SCOPE = "memvault_tenant", "memvault_scope"
REALM = "memvault"
JWKS_LIFESPAN_S = 300  # how long the issuer's key set is used before it is read again


class TokenRefused(AuthenticationError):
    """A bearer token was presented and refused; ``description`` says why in words that
    never include the token (RFC 6750 §3 ``error_description``)."""

    def __init__(self, description: str) -> None:
        super().__init__(description)
        self.description = description


def challenge(description: str | None = None, resource_metadata: str | None = None) -> str:
    """A ``WWW-Authenticate`` value (RFC 6750 §3): ``Bearer realm="memvault"`` for a
    request without credentials (§3.1: no error code then), plus ``error="invalid_token"``
    and ``description`` for a refused token; ``resource_metadata`` is RFC 9728 §5.1's."""
    params = [f'realm="{REALM}"']  # §3: the scheme MUST be followed by at least one auth-param
    if description is not None:
        # §3: error_description is %x20-21 / %x23-5B / %x5D-7E (no quote, no backslash).
        safe = "".join(c if " " <= c <= "~" and c not in '"\\' else "?" for c in description)
        params += ['error="invalid_token"', f'error_description="{safe}"']
    if resource_metadata is not None:
        params.append(f'resource_metadata="{resource_metadata}"')
    return "Bearer " + ", ".join(params)


class NotAuthenticated(MemvaultError):
    """A request reached a tool without a verified token (the HTTP layer should have refused it)."""


class ReadOnly(MemvaultError):
    """A read-only key asked for a write; nothing was written."""


@dataclass(frozen=True)
class Identity:
    """The caller of one request: ``tenant`` (hard isolation), ``scope`` (default), ``read_only``."""

    tenant: str
    scope: str
    read_only: bool = False


def access_token(token: str, client_id: str, identity: Identity, expires_at: int | None = None,
                 subject: str | None = None) -> AccessToken:
    """The SDK's ``AccessToken`` carrying ``identity`` (``expires_at`` in seconds since the epoch)."""
    scopes = [READ] if identity.read_only else [READ, WRITE]
    return AccessToken(token=token, client_id=client_id, scopes=scopes, expires_at=expires_at, subject=subject,
                       claims={_TENANT: identity.tenant, _SCOPE: identity.scope})


def identity_of(token: AccessToken) -> Identity:
    """The identity an ``AccessToken`` made by :func:`access_token` carries."""
    claims = token.claims or {}
    return Identity(tenant=claims[_TENANT], scope=claims[_SCOPE], read_only=WRITE not in token.scopes)


class KeyVerifier:
    """Checks memvault API keys (``storage.keys``) against the database of ``runtime``."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime

    async def verify_token(self, token: str) -> AccessToken:
        """The key's identity.

        Raises:
            TokenRefused: not a memvault key, unknown key, key revoked on <time>, key
                expired on <time> (logged, without the key).
        """
        from memvault.storage import keys

        token = token.strip()  # "Bearer  mvk_..." (two spaces) reaches here with one in front
        if not token.startswith(keys.PREFIX):
            log.warning("refused a bearer token: not a memvault API key")
            raise TokenRefused(f"not a memvault API key (they start with {keys.PREFIX})")

        def look_up() -> tuple[Any, int]:
            store = self.runtime.store()
            return keys.find(store, token), store.clock()

        key, now = await anyio.to_thread.run_sync(look_up)
        if key is None:
            log.warning("refused an API key: unknown key")
            raise TokenRefused("unknown key")
        refusal = key.refusal(now)
        if refusal is not None:
            log.warning("refused API key %s: %s", key.id, refusal)
            raise TokenRefused(f"key {refusal}")
        identity = Identity(tenant=key.tenant, scope=key.scope, read_only=key.read_only)
        # Rounded up: the SDK refuses a token whose whole second of expiry is past, and
        # the key is still valid until its exact millisecond.
        return access_token(token, key.id, identity, -(-key.expires_at // 1000) if key.expires_at else None)


class JwtVerifier:
    """Validates OAuth 2.1 JWT access tokens as a resource server.

    Signature against the issuer's JWKS (PyJWT ``PyJWKClient``: the key set is read
    again after 5 minutes, and at once for a kid it does not list; keys are not cached
    beyond it, so a key the issuer withdrew is refused once the set is read again),
    algorithm in :data:`JWT_ALGORITHMS`, ``iss`` equal to the issuer, ``aud`` containing
    this server's resource URL (RFC 8707 / RFC 9068 §4), ``exp`` required and not past.
    The tenant is the ``tenant_claim`` claim, refused when trimming or NFC would change
    it; the default scope is "default". Least privilege (:func:`granted`): writing needs
    ``memvault:write``, reading ``memvault:read`` or write; a token with neither gets 403
    ``insufficient_scope`` from the SDK (``AuthSettings.required_scopes``). Tokens are
    passed on to nothing.
    """

    def __init__(self, http: HttpConfig) -> None:
        import jwt

        assert http.issuer and http.resource and http.jwks_url
        url = urlsplit(http.jwks_url)
        if url.scheme != "https" and url.hostname not in ("127.0.0.1", "localhost", "::1"):
            # Keys fetched in clear could be replaced on the way: anyone could then sign tokens for any tenant.
            raise ValueError(f"--oauth-jwks-url / MEMVAULT_OAUTH_JWKS_URL: must be https:// (http:// only on "
                             f"loopback); got {url.scheme}://{url.hostname}")
        self.http = http
        self._jwks = jwt.PyJWKClient(http.jwks_url, cache_keys=False, cache_jwk_set=True,
                                     lifespan=JWKS_LIFESPAN_S, timeout=10)

    def _decode(self, token: str) -> dict[str, Any]:
        import jwt

        key = self._jwks.get_signing_key_from_jwt(token)
        return jwt.decode(
            token, key.key, algorithms=list(JWT_ALGORITHMS), audience=self.http.resource, issuer=self.http.issuer,
            options={"require": ["exp", "iss", "aud"]},
        )

    async def verify_token(self, token: str) -> AccessToken:
        """The token's identity.

        Raises:
            TokenRefused: naming the check that failed (:meth:`_failed_check`), or the
                tenant claim (logged, without the token).
        """

        try:
            claims = await anyio.to_thread.run_sync(self._decode, token)
        except Exception as exc:  # noqa: BLE001 - every failure is a 401 (PyJWT raises TypeError for an alg that does not fit the key)
            # The kind only: PyJWT's messages quote the token's own header (a kid with a newline forged a log line).
            log.warning("refused a JWT: %s", type(exc).__name__)
            raise TokenRefused(self._failed_check(exc, token)) from None
        try:
            field = f"claim {self.http.tenant_claim}"
            tenant = validate.scope(_text(claims.get(self.http.tenant_claim), field), DEFAULT_SCOPE, field=field)
        except InvalidInput as exc:
            log.warning("refused a JWT: %s", exc.field)
            raise TokenRefused(str(exc)) from None
        scopes = granted(claims)
        identity = Identity(tenant=tenant, scope=DEFAULT_SCOPE, read_only=WRITE not in scopes)
        if READ not in scopes and WRITE not in scopes:  # the SDK answers 403 insufficient_scope
            return AccessToken(token=token, client_id="oauth", scopes=[], expires_at=int(claims["exp"]))
        return access_token(token, str(claims.get("azp") or claims.get("client_id") or claims.get("sub") or "oauth"),
                            identity, int(claims["exp"]), subject=claims.get("sub"))


    def _failed_check(self, exc: Exception, token: str) -> str:
        """The check of :meth:`_decode` that ``exc`` reports, in words for the client."""
        import jwt

        if isinstance(exc, jwt.ExpiredSignatureError):  # raised only once the signature is verified
            exp = jwt.decode(token, options={"verify_signature": False}).get("exp")
            return f"token expired on {format_ms(int(exp) * 1000)}"
        if isinstance(exc, jwt.InvalidAudienceError):
            return f"wrong audience: the token is not for {self.http.resource}"
        if isinstance(exc, jwt.InvalidIssuerError):
            return f"wrong issuer: tokens must come from {self.http.issuer}"
        if isinstance(exc, jwt.MissingRequiredClaimError):
            return f"the token has no {exc.claim} claim"
        if isinstance(exc, jwt.ImmatureSignatureError):
            return "token not yet valid (nbf or iat is in the future)"
        if isinstance(exc, jwt.InvalidAlgorithmError):
            return f"signature algorithm not allowed (allowed: {', '.join(JWT_ALGORITHMS)})"
        if isinstance(exc, jwt.InvalidSignatureError):
            return "bad signature"
        if isinstance(exc, jwt.PyJWKClientConnectionError):
            return "the issuer's signing keys (JWKS) could not be fetched"
        if isinstance(exc, jwt.PyJWKClientError):
            return "signed by a key the issuer does not publish (kid not in its JWKS)"
        if isinstance(exc, jwt.DecodeError):
            return "malformed token (not a signed JWT)"
        return f"invalid token ({type(exc).__name__})"


def granted(claims: dict[str, Any]) -> set[str]:
    """The scopes a token grants: its ``scope`` and ``scp`` claims, each a space-separated
    string (RFC 8693 §4.2, RFC 9068 §2.2.3) or a list of strings; scope values are case-sensitive (RFC 6749 §3.3)."""
    found: set[str] = set()
    for name in ("scope", "scp"):
        value = claims.get(name)
        items = value.split() if isinstance(value, str) else value if isinstance(value, list) else []
        found.update(item for item in items if isinstance(item, str))
    return found


def _text(value: object, field: str) -> str:
    if not isinstance(value, str):
        raise InvalidInput(field, "is missing or not a string")
    return value
