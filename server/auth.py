"""Who is calling over HTTP: the SDK's ``TokenVerifier`` for API keys and for OAuth JWTs, and the
identity (tenant, default scope, read-only) a verified token carries in its ``AccessToken``'s claims
(read back per request by ``Runtime.identity``). Checked on every request, never cached; a refused
token raises :class:`TokenRefused`, logged without the token. docs/team-server-security.md.
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import json
import logging
import math
import re
import ssl
import threading
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

import anyio
import anyio.to_thread
import httpx2  # the MCP SDK's HTTP client
from mcp.server.auth.provider import AccessToken
from starlette.authentication import AuthenticationError

from memvault.storage import validate
from memvault.storage.errors import InvalidInput, MemvaultError
from memvault.storage.limits import CALLER_CLAIM_MAX_CHARS, DEFAULT_SCOPE
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
WRITE_TOOLS = frozenset({"remember", "supersede", "forget", "confirm"})  # the tools that need memvault:write
# Least time between two reads of the issuer's key set, successful or not (a flood of unknown kids
# cannot make more), or half the set's maximum age when that is shorter (docs/team-server-security.md).
JWKS_COOLDOWN_S = 10
# Seconds a reading of the key set has in all (httpx's default per phase, which was the wait measured); a request
# waits for it only when it needs the set read (docs/team-server-security.md, "Waits for the key set").
JWKS_TIMEOUT_S = 5
# A JWKS longer than this (bytes, as decoded) or listing more keys is not read, so that a reading's memory and
# time stay bounded; issuers publish a few keys (docs/team-server-security.md).
JWKS_MAX_BYTES, JWKS_MAX_KEYS = 1_000_000, 100
# Levels of arrays and objects a token's header or claims, or a JWKS, may nest (real ones: 3 or 4).
NESTING_MAX = 32
# RFC 7518 §3.3 (RS*) and §3.5 (PS*): an RSA key of this many bits or more.
RSA_MIN_BITS = 2048
# The curve each ES algorithm names (RFC 7518 §3.4), by the JWK's crv and cryptography's name.
_CURVES = {"ES256": ("P-256", "secp256r1"), "ES384": ("P-384", "secp384r1"), "ES512": ("P-521", "secp521r1")}
# RFC 6749 §3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ).
_SCOPE_TOKEN = re.compile(r"[\x21\x23-\x5b\x5d-\x7e]+")


class TokenRefused(AuthenticationError):
    """A bearer token was presented and refused; ``description`` says why in words that
    never include the token (RFC 6750 §3 ``error_description``)."""

    def __init__(self, description: str) -> None:
        super().__init__(description)
        self.description = description


def challenge(description: str | None = None, resource_metadata: str | None = None, error: str = "invalid_token",
              scope: str | None = None) -> str:
    """A ``WWW-Authenticate`` value (RFC 6750 §3): ``Bearer realm="memvault"`` for a
    request without credentials (§3.1: no error code then), plus ``error`` (a refused
    token, or ``insufficient_scope`` with the ``scope`` needed) and ``description``;
    ``resource_metadata`` is RFC 9728 §5.1's."""
    params = [f'realm="{REALM}"']  # §3: the scheme MUST be followed by at least one auth-param
    if description is not None:
        # §3: error_description is %x20-21 / %x23-5B / %x5D-7E (no quote, no backslash): "§" is written
        # "section", another character as its code point in brackets ("ä" as <U+00E4>), never glued to the text.
        safe = "".join(c if " " <= c <= "~" and c not in '"\\' else f"<U+{ord(c):04X}>"
                       for c in re.sub("§ ?", "section ", description))
        params += [f'error="{error}"', f'error_description="{safe}"']
    if scope is not None:
        params.append(f'scope="{scope}"')
    if resource_metadata is not None:
        params.append(f'resource_metadata="{resource_metadata}"')
    return "Bearer " + ", ".join(params)


class IssuerUnreachable(TokenRefused):
    """The token could not be judged: the issuer's key set is older than its max age and
    could not be read again (or a reading is in flight, or failed less than the cooldown
    ago). Answered 503 with ``Retry-After: retry_s``."""

    def __init__(self, retry_s: int) -> None:
        super().__init__("the issuer's signing keys (JWKS) could not be read; retry later")
        self.retry_s = retry_s


class SigningKey(NamedTuple):
    """One signing key of the issuer's JWKS: its kid, the public key, the ``alg`` its JWK lists, if
    any (RFC 7517 §4.4: then only tokens of that algorithm are checked with it), and its ``kty``."""

    key_id: str
    key: Any
    alg: str | None
    kty: str


class KeySet:
    """The issuer's signing keys (JWKS), read within ``timeout_s`` in all and trusted for ``max_age_s``
    from the start of their reading. A reading is due when the set is missing, half its max age old,
    or lacks a requested kid; at most one runs at a time, none within ``cooldown_s`` of the last. Only
    the request that starts a reading and needs it (its kid unlisted, or the set in hand too old, or
    too near its max age to outlive the reading) waits for it; a reading the set in hand does not need
    runs on a thread of its own, and every other request is answered from the set in hand, never
    waiting for another's reading (docs/team-server-security.md)."""

    def __init__(self, url: str, max_age_s: float, cooldown_s: float, timeout_s: float = JWKS_TIMEOUT_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.url, self.max_age_s, self.cooldown_s, self.timeout_s, self._clock = url, max_age_s, cooldown_s, timeout_s, clock
        self._held: tuple[list[SigningKey], float] = ([], -math.inf)  # signing keys, monotonic time of their reading
        self._unusable: dict[tuple[str, object], str] = {}  # (kid, kty) -> why the set's JWK(s) of them verify nothing
        self._said: frozenset[tuple[int, str, str]] = frozenset()  # the unusable JWKs the log last named
        self._tried = -math.inf
        self._reading = threading.Lock()  # held while a reading runs, released by the thread that ran it

    def key(self, kid: object, alg: object = None) -> SigningKey:
        """The signing key the set lists under ``kid``: of the keys of several types that may share it (RFC 7517
        §4.5), the one a token of ``alg`` fits (:func:`fits`), else the first.

        Raises:
            IssuerUnreachable: the set is too old and could not be read now.
            KeyRefused: the token names no kid, or the set lists its kid only under a JWK that verifies
                nothing here (its use, key_ops or alg: the reason said).
            jwt.PyJWKClientError: the set in hand (within its max age) does not list ``kid``.
        """
        import jwt

        if not isinstance(kid, str) or not kid:
            raise KeyRefused("the token names no signing key (its header has no kid): the issuer's keys are "
                             "found by kid")
        found, fresh = self._find(kid, alg)
        now = self._clock()
        due = found is None or now - self._held[1] >= self.max_age_s / 2
        if due and self._begin(now):
            if found is not None and now - self._held[1] + self.timeout_s < self.max_age_s:
                # The set in hand verifies this token and outlives the reading: the request is answered
                # now, and the set read behind it. A thread of its own: a slow issuer made the request that
                # came at half the max age wait for the whole reading (5 s, every cooldown; test_auth_lows).
                self._behind(now)
            else:
                self._refresh(now)
                found, fresh = self._find(kid, alg)
        if not fresh:  # -inf when another thread began the first reading a moment ago
            wait = self._tried + self.cooldown_s - self._clock()
            raise IssuerUnreachable(math.ceil(wait) if wait > 1 else 1)
        refused = _refused_for(self._unusable, kid, alg, found)
        if refused is not None:
            raise KeyRefused(refused)
        if found is None:
            raise jwt.PyJWKClientError("kid not in the JWKS")
        return found

    def usable(self) -> bool:
        """Whether tokens can be checked now: the set in hand is within its max age, or none has been tried yet
        (the first request reads it). When not, a reading starts behind the caller if the cooldown allows, so
        that the answer comes back with the issuer, whether tokens come or not (a load balancer sends none to
        a server it holds not ready)."""
        now = self._clock()
        if now - self._held[1] < self.max_age_s or self._tried == -math.inf:
            return True
        if self._begin(now):
            self._behind(now)
        return False

    def _begin(self, now: float) -> bool:
        """Whether a reading may start at ``now`` (none under way, none tried within the cooldown); if so, the
        reading lock is taken and the reading counted as tried."""
        if now - self._tried < self.cooldown_s or not self._reading.acquire(blocking=False):
            return False
        if now - self._tried < self.cooldown_s:  # read by another thread meanwhile
            self._reading.release()
            return False
        self._tried = now
        return True

    def _behind(self, started: float) -> None:
        threading.Thread(target=self._refresh, args=(started,), name="memvault-jwks", daemon=True).start()

    def _refresh(self, started: float) -> None:
        """Read the set (its reading begun at ``started``, by the clock) and hold it, or log why not;
        then release the reading lock, which the caller took."""
        try:
            keys, unusable = self._read()
            self._held, self._unusable = (keys, started), unusable
        except NotAJwks as exc:
            log.warning("could not read the issuer's JWKS: %s", exc)
        except (ValueError, OSError, httpx2.HTTPError) as exc:
            log.warning("could not read the issuer's JWKS: %s", type(exc).__name__)
        finally:
            self._reading.release()

    def idle(self, timeout_s: float) -> bool:
        """Wait until no reading is under way, at most ``timeout_s``; whether none is."""
        if not self._reading.acquire(timeout=timeout_s):
            return False
        self._reading.release()
        return True

    def _read(self) -> tuple[list[SigningKey], dict[str, str]]:
        """The signing keys the issuer lists now (``use`` "sig" or unset, ``key_ops`` holding "verify"
        or unset (RFC 7517 §4.2-4.3), with a kid no other such key of its ``kty`` has (RFC 7517 §4.5: keys
        may share one where their types differ), of a type PyJWT knows), read within ``timeout_s`` in all
        (PyJWKClient times each socket read only). A set without one is a reading too: the issuer has
        withdrawn every key, and every token is refused. Beside them, for each other JWK with a kid, why it
        verifies nothing (:func:`unusable_jwk`), or that its kid names two signing keys of one type; each
        JWK that verifies nothing is logged by its place and a hash of its kid when the set first lists it.

        Raises:
            TimeoutError, httpx2.HTTPError, ValueError: not read, or not a JWKS (RFC 7517 §5).
            NotAJwks: over :data:`JWKS_MAX_BYTES`, :data:`JWKS_MAX_KEYS` or :data:`NESTING_MAX`, not UTF-8 JSON
                (said by place and size, never by the issuer's text), or no JWKS.
        """
        import jwt

        async def fetch() -> bytes:
            with anyio.fail_after(self.timeout_s):
                async with httpx2.AsyncClient(verify=ssl.create_default_context(),  # the system's CAs, as urllib
                                              timeout=self.timeout_s) as client, \
                        client.stream("GET", self.url, headers={"accept": "application/json"}) as response:
                    response.raise_for_status()
                    body = bytearray()
                    async for chunk in response.aiter_bytes():  # decoded: a compressed answer is counted unpacked
                        body += chunk
                        if len(body) > JWKS_MAX_BYTES:
                            raise NotAJwks(f"it is over {JWKS_MAX_BYTES:,} bytes (JWKS_MAX_BYTES), the most read")
                    return bytes(body)

        body = anyio.run(fetch)
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise NotAJwks(f"it is not UTF-8 text (RFC 8259 §8.1): byte {exc.start:,} of {len(body):,}") from None
        if nesting(text) > NESTING_MAX:
            raise NotAJwks(f"it nests more than {NESTING_MAX} levels of arrays and objects (NESTING_MAX)")
        try:
            document = json.loads(text)
        except json.JSONDecodeError as exc:
            at = len(text[:exc.pos].encode("utf-8"))
            raise NotAJwks(f"it is not JSON: {_json_error(exc)} at byte {at:,} of {len(body):,}") from None
        listed = document.get("keys") if isinstance(document, dict) else None
        if not isinstance(listed, list):
            raise NotAJwks("it is not a JSON object with a keys list (RFC 7517 §5)")
        if len(listed) > JWKS_MAX_KEYS:
            raise NotAJwks(f"it lists {len(listed):,} keys, over the {JWKS_MAX_KEYS} read (JWKS_MAX_KEYS)")
        keys, unusable, said, places = [], {}, set(), {}
        for index, item in enumerate(listed):
            # PyJWKSet refuses a set without a usable key: here that is an empty set, not a failed reading.
            if not isinstance(item, dict):
                continue
            try:
                key = jwt.PyJWK(item)
            except jwt.PyJWTError:  # an unknown kty or curve, a malformed key: it signs no token taken here
                key = None
            reason = unusable_jwk(item, key.key if key is not None else None)
            if key is not None and reason is None and key.key_id:
                alg = item.get("alg")
                keys.append(SigningKey(key.key_id, key.key, alg if isinstance(alg, str) else None, item["kty"]))
                places.setdefault((key.key_id, item["kty"]), []).append(index)
            elif reason is not None:
                kid = item.get("kid")
                said.add((index, _kid_hash(kid), reason))
                if isinstance(kid, str):
                    why = f"the issuer's key with this token's kid cannot verify it: {reason}"
                    unusable[kid, item.get("kty")] = why
        for (kid, kty), at in places.items():
            if len(at) > 1:  # which one signed a token naming it would be a guess (the first was taken)
                unusable[kid, kty] = (f"the issuer publishes {len(at)} signing keys under this token's kid, and which "
                                      "one signed it cannot be told (RFC 7517 §4.5: each key's kid should differ)")
                said |= {(index, _kid_hash(kid), f"{len(at)} signing keys of the set have its kid") for index in at}
                keys = [k for k in keys if (k.key_id, k.kty) != (kid, kty)]
        for index, kid, reason in sorted(said - self._said):  # the issuer's text only as escaped by _shown
            log.warning("the issuer's JWKS key #%d (kid %s) is not used: %s", index, kid, reason)
        self._said = frozenset(said)
        if not keys:
            log.warning("the issuer's JWKS lists no signing key memvault can use (%d listed): every token is "
                        "refused until it lists one", len(listed))
        return keys, {(kid, kty): why for (kid, kty), why in unusable.items()
                      if not any((k.key_id, k.kty) == (kid, kty) for k in keys)}

    def _find(self, kid: object, alg: object) -> tuple[SigningKey | None, bool]:
        """The key listed under ``kid`` that ``alg`` fits, else the first of that kid (or None), and whether
        the set is within its max age."""
        keys, read = self._held
        fresh = self._clock() - read < self.max_age_s
        listed = [k for k in keys if k.key_id == kid] if fresh else []
        return next((k for k in listed if isinstance(alg, str) and fits(alg, k.key)), next(iter(listed), None)), fresh


def _json_error(exc: json.JSONDecodeError) -> str:
    """What the JSON parser found wrong ("expecting value", "extra data"), without the character it quotes
    in some messages ("Invalid \\escape: 'x'"): the issuer's text never reaches the log."""
    words = exc.msg.partition(": ")[0].removesuffix(" at")  # "Invalid \\escape: 'x'"; "... starting at" (byte follows)
    return words[:1].lower() + words[1:60] if re.fullmatch(r"[\w ',:()\\-]+", words, re.ASCII) else "malformed"


def _shown(value: object) -> str:
    """A JWK member's value for a message: a short JSON string (control characters escaped), or its type."""
    return json.dumps(value[:40]) if isinstance(value, str) else f"a JSON {type(value).__name__}"


def _kid_hash(kid: object) -> str:
    """A JWK's kid for the log: the start of its SHA-256 (never the issuer's text), or "none"."""
    if not isinstance(kid, str):
        return "none"
    return "sha256:" + hashlib.sha256(kid.encode("utf-8", "surrogatepass")).hexdigest()[:12]


def unusable_jwk(item: dict[str, Any], key: object = None) -> str | None:
    """Why the JWK ``item`` verifies no token here (``key``: the public key PyJWT made of it, or None),
    or None: its ``use`` is not "sig", its ``key_ops`` lack "verify" (RFC 7517 §4.2-4.3), its ``alg`` is
    not one of :data:`JWT_ALGORITHMS` (they are case-sensitive: RFC 7518 §3.1), does not fit its ``kty``,
    the key is a shared secret ("oct"), or it is too weak for its alg (:func:`weak_key`)."""
    known = key is not None
    use, ops, alg, kty = item.get("use"), item.get("key_ops"), item.get("alg"), item.get("kty")
    if use not in ("sig", None):
        return f"it is not for verifying signatures (its JWK's use is {_shown(use)}, not \"sig\")"
    if ops is not None and not (isinstance(ops, list) and "verify" in ops):
        return "it is not for verifying signatures (its JWK's key_ops do not include \"verify\")"
    if alg is not None and alg not in JWT_ALGORITHMS:
        case = " (algorithm names are case-sensitive)" if isinstance(alg, str) and alg.upper() in (
            a.upper() for a in JWT_ALGORITHMS) else ""
        return (f"its JWK's alg {_shown(alg)} is not a signature algorithm taken here{case} "
                f"(taken: {', '.join(JWT_ALGORITHMS)})")
    if not known and alg is not None:
        return f"its JWK's alg {_shown(alg)} does not fit its key type (kty {_shown(kty)})"
    if kty == "oct":  # a shared secret, which PyJWK reads as an HS256 key
        return "its JWK is a shared secret (kty \"oct\"), not a public key: memvault checks asymmetric signatures only"
    if not known:
        return f"its JWK is not a public key memvault can use (kty {_shown(kty)})"
    return weak_key(key, alg)


def weak_key(key: object, alg: object = None) -> str | None:
    """Why ``key`` (a ``cryptography`` public key; ``alg`` its JWK's, if any) may sign no token taken
    here, or None: an RSA key under :data:`RSA_MIN_BITS` bits (RFC 7518 §3.3, §3.5), an EC key on a
    curve that no ES algorithm names, or on another than the one its JWK's ``alg`` names (RFC 7518 §3.4)."""
    from cryptography.hazmat.primitives.asymmetric import ec, rsa

    if isinstance(key, rsa.RSAPublicKey) and key.key_size < RSA_MIN_BITS:
        return f"it is a {key.key_size}-bit RSA key; RFC 7518 §3.3 asks {RSA_MIN_BITS} bits or more"
    if isinstance(key, ec.EllipticCurvePublicKey):
        named = {curve: crv for crv, curve in _CURVES.values()}
        curve = named.get(key.curve.name, key.curve.name)
        if isinstance(alg, str) and alg in _CURVES and key.curve.name != _CURVES[alg][1]:
            return f"it is an EC key on {curve}, and its JWK's alg {alg} names {_CURVES[alg][0]} (RFC 7518 §3.4)"
        if key.curve.name not in named:
            return (f"it is an EC key on {curve}, a curve no algorithm taken here names (ES256 P-256, ES384 P-384, "
                    "ES512 P-521: RFC 7518 §3.4)")
    return None


class NotAJwks(ValueError):
    """The issuer's answer is not read as a JWKS; the message (memvault's words, no issuer text) says why."""


_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def nesting(text: str) -> int:
    """How many levels of arrays and objects the JSON ``text`` nests (0 for a bare value), read from its
    brackets outside strings, without parsing it: malformed text gets a number too, for its parser to refuse."""
    bare = _JSON_STRING.sub("", text)
    return max(itertools.accumulate(1 if c in "[{" else -1 for c in bare if c in "[]{}"), default=0)


# RFC 7515 §2: base64url without padding, of the URL-safe alphabet only.
_BASE64URL = re.compile(r"[A-Za-z0-9_-]*")


class Malformed(Exception):
    """A token is no compact JWS read one way (:func:`check_compact`); the one argument says why, for the client."""


def check_compact(token: str) -> None:
    """Refuse a token that is not three parts (RFC 7515 §7.1), each the one unpadded base64url spelling of
    its bytes (§2: PyJWT decoded a signature with "==" after it, and ignores a last character's unused
    bits), whose header or claims nest more than :data:`NESTING_MAX` levels, or whose header asks for an
    unencoded payload (``b64``), or a memvault API key. Run before PyJWT reads it.

    Raises:
        Malformed: naming the part and the rule.
    """
    from memvault.storage.keys import PREFIX

    parts = token.split(".")
    if len(parts) != 3 and token.startswith(PREFIX):
        raise Malformed(f"this is a memvault API key ({PREFIX}...), and this server takes OAuth access tokens "
                        "(JWTs) from its issuer (--auth oauth): send one of those")
    if len(parts) != 3:
        raise Malformed("malformed token (not a signed JWT): a JWT is three parts separated by dots")
    for part, name in zip(parts, ("header", "claims", "signature"), strict=True):
        try:
            data = base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)) if _BASE64URL.fullmatch(part) else None
        except ValueError:
            data = None
        if data is None or base64.urlsafe_b64encode(data).rstrip(b"=").decode() != part:
            raise Malformed(f"malformed token (not a signed JWT): its {name} part is not base64url as RFC 7515 "
                            "§2 writes it (the URL-safe alphabet, no padding '=', no white space, one spelling)")
        if name != "signature" and nesting(data.decode("utf-8", "replace")) > NESTING_MAX:
            raise Malformed(f"the token's {name} part nests more than {NESTING_MAX} levels of arrays and objects, "
                            "the most read")
        if name == "header" and _unencoded(data):
            raise Malformed("the token's b64 header asks for claims not in base64url (RFC 7797): a JWT's claims are "
                            "base64url (RFC 7519 §3), the one form read")


def _unencoded(header: bytes) -> bool:
    """Whether the JWS header ``header`` (JSON bytes) sets ``b64`` to anything but true (RFC 7797 §3)."""
    if b'"b64"' not in header:
        return False
    try:
        read = json.loads(header)
    except ValueError:
        return False  # PyJWT refuses it as malformed
    return isinstance(read, dict) and read.get("b64", True) is not True


class KeyRefused(Exception):
    """The key a token names cannot verify it: it names none, or the issuer's JWK of its kid verifies
    nothing here (the one argument: why, for the client)."""


class NotAuthenticated(MemvaultError):
    """A request reached a tool without a verified token (the HTTP layer should have refused it)."""


class ReadOnly(MemvaultError):
    """A read-only caller asked for a write; nothing was written. A tool call's error result over
    stdio and for an API key over HTTP; an OAuth token's write call gets 403 first (:func:`missing_scope`)."""


def bearer_token(after_scheme: str) -> str:
    """The token of an Authorization header, from what follows its "Bearer " (as the SDK's BearerAuthBackend hands
    it over): without the spaces and tabs around it, so "Bearer  <token>" is read alike for API keys and JWTs (RFC
    9110 §11.4: one or more spaces follow the scheme)."""
    return after_scheme.strip(" \t")


def read_only_refusal(key_id: str | None) -> str:
    """Why a read-only caller's write was refused (:class:`ReadOnly`): naming the API key ``key_id``,
    or a token when None, and what it may still do."""
    who = f"this API key (id {key_id}) is read-only" if key_id else "this token is read-only"
    fix = ("; writing needs a key made without --read-only (memvault keys create)" if key_id else
           "; writing needs a token granting memvault:write")
    return (f"{who}: it lacks the memvault:write scope, so it may recall and read resources but not remember, "
            f"supersede, forget or confirm; nothing was written{fix}")


@dataclass(frozen=True)
class Identity:
    """The caller of one request: ``tenant`` (hard isolation), ``scope`` (default), ``read_only``,
    and ``key_id``: the API key's id when the caller is one (None: an OAuth token, or no authentication)."""

    tenant: str
    scope: str
    read_only: bool = False
    key_id: str | None = None


def is_key(token: AccessToken) -> bool:
    """Whether a verified token is a memvault API key (:class:`KeyVerifier` gives no subject; an OAuth
    token's is its ``sub``, "" when it names none)."""
    return token.subject is None


def caller_of(token: AccessToken) -> str:
    """Who sent a verified token: the key of that caller's rate limit and of its turns at the tools.
    An OAuth token's (``subject`` a string): its tenant and ``sub`` (unique at the one issuer trusted),
    whichever client asked for it, since anyone may register more clients; a token naming no subject,
    its tenant. An API key's (``subject`` None): its tenant and key id (keys are made by the operator)."""
    who = token.client_id if is_key(token) else f"sub\x00{token.subject}"
    return f"{(token.claims or {}).get(_TENANT, '')}\x00{who}"


def access_token(token: str, client_id: str, identity: Identity, expires_at: int | None = None,
                 subject: str | None = None) -> AccessToken:
    """The SDK's ``AccessToken`` carrying ``identity`` (``expires_at`` in seconds since the epoch)."""
    scopes = [READ] if identity.read_only else [READ, WRITE]
    return AccessToken(token=token, client_id=client_id, scopes=scopes, expires_at=expires_at, subject=subject,
                       claims={_TENANT: identity.tenant, _SCOPE: identity.scope})


def identity_of(token: AccessToken) -> Identity:
    """The identity an ``AccessToken`` made by :func:`access_token` carries."""
    claims = token.claims or {}
    return Identity(tenant=claims[_TENANT], scope=claims[_SCOPE], read_only=WRITE not in token.scopes,
                    key_id=token.client_id if is_key(token) else None)


class KeyVerifier:
    """Checks memvault API keys (``storage.keys``) against the database of ``runtime``."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime

    async def verify_token(self, token: str) -> AccessToken:
        """The key's identity.

        Raises:
            TokenRefused: more than one word, not a memvault key, unknown key, key revoked on <time>, key
                expired on <time> (logged, without the key).
        """
        from memvault.storage import keys

        if any(mark in token for mark in " \t,"):  # "Bearer k1, Bearer k2", "Bearer k1 k2": no b64token
            log.warning("refused a bearer token holding a space or a comma")
            raise TokenRefused("the Authorization header holds more than one word after Bearer: send one key "
                               "(Authorization: Bearer <key>, RFC 6750 §2.1)")
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
    """Validates OAuth 2.1 JWT access tokens as a resource server: signature by the issuer's JWKS
    (:class:`KeySet`), algorithm in :data:`JWT_ALGORITHMS`, ``iss`` the issuer, ``aud`` containing this
    server's resource URL (others beside it accepted: RFC 9068 §4), times by :func:`check_times`, scopes
    by :func:`granted`; the tenant is the ``tenant_claim`` claim. Tokens are passed on to nothing."""

    def __init__(self, http: HttpConfig, runtime: Runtime | None = None) -> None:
        assert http.issuer and http.resource and http.jwks_url
        self.runtime = runtime  # its database's tenants: a claim differing from one only by case is refused
        self.http = http  # its URLs https:// off loopback (config.load_http)
        self.keys = KeySet(http.jwks_url, http.jwks_max_age_s, min(JWKS_COOLDOWN_S, http.jwks_max_age_s / 2),
                            JWKS_TIMEOUT_S)

    def _decode(self, token: str) -> dict[str, Any]:
        import jwt

        check_compact(token)
        try:
            header = jwt.get_unverified_header(token)
        except jwt.InvalidTokenError as exc:
            if type(exc) is jwt.InvalidTokenError:  # PyJWT's checks of kid and crit raise no subclass
                raise HeaderRefused(str(exc)) from None
            raise
        if "typ" in header and (not isinstance(header["typ"], str) or header["typ"].lower() not in ACCESS_TOKEN_TYPES):
            raise NotAnAccessToken  # an ID token, a logout token, ... of the same issuer (RFC 9068 §4)
        key = self.keys.key(header.get("kid"), header.get("alg"))
        if header.get("alg") in JWT_ALGORITHMS and not fits(header["alg"], key.key):
            raise KeyMismatch  # PyJWT would raise TypeError or InvalidKeyError, which name no check
        if key.alg is not None and header.get("alg") in JWT_ALGORITHMS and header["alg"] != key.alg:
            raise KeyMismatch(key.alg)
        # Time claims are checked by check_times: PyJWT takes "exp": "9999999999" (int() of a string).
        return jwt.decode(
            token, key.key, algorithms=list(JWT_ALGORITHMS), audience=self.http.resource, issuer=self.http.issuer,
            options={"require": ["exp", "iss", "aud"], "verify_exp": False, "verify_nbf": False, "verify_iat": False},
        )

    async def verify_token(self, token: str) -> AccessToken:
        """The token's identity.

        Raises:
            TokenRefused: naming the check that failed (:meth:`_failed_check`), or the
                claim (logged by name only, without the token or the claim's value).
        """

        try:
            claims = await anyio.to_thread.run_sync(self._decode, token)
        except IssuerUnreachable:
            raise
        except Exception as exc:  # noqa: BLE001 - every failure is a 401, whatever PyJWT raises
            # The check only: PyJWT's messages quote the token's header (a kid's newline forged a log line).
            failed = self._failed_check(exc)
            log.warning("refused a JWT: %s", failed)
            raise TokenRefused(failed) from None
        try:
            names_once(token)
            check_times(claims, time.time(), self.http.max_token_lifetime_s)
            for name in ("azp", "client_id", "sub"):  # who the caller is: its rate limit, turns and logs
                if claims.get(name) is not None:
                    if _text(claims[name], f"claim {name}") == "":  # names nobody: refused, as a missing one is not
                        raise InvalidInput(f"claim {name}", "is empty; a token naming no caller leaves it out")
                    if len(claims[name]) > CALLER_CLAIM_MAX_CHARS:
                        raise InvalidInput(f"claim {name}", f"is {len(claims[name]):,} characters; the limit is "
                                                            f"{CALLER_CLAIM_MAX_CHARS}")
                    # one spelling each (as per tenant), no control character a log line would carry (adv66 NEW-3)
                    validate.identifier(f"claim {name}", claims[name])
            scopes = granted(claims)
            field = f"claim {self.http.tenant_claim}"
            tenant = validate.scope(_text(claims.get(self.http.tenant_claim), field), DEFAULT_SCOPE, field=field)
        except InvalidInput as exc:
            log.warning("refused a JWT: %s", exc.field)
            raise TokenRefused(str(exc)) from None
        except Exception as exc:  # noqa: BLE001 - a signed token's claims no check foresaw: still a 401, never a 500
            log.warning("refused a JWT: its claims could not be read (%s)", type(exc).__name__)
            raise TokenRefused("the token's claims could not be read") from None
        if self.runtime is not None:
            await self._refuse_lookalike(tenant)
        identity = Identity(tenant=tenant, scope=DEFAULT_SCOPE, read_only=WRITE not in scopes)
        expires = int(claims["exp"]) + CLOCK_SKEW_S  # the SDK refuses a token past it, with no leeway of its own
        if READ not in scopes and WRITE not in scopes:  # answered 403 insufficient_scope (missing_scope)
            return AccessToken(token=token, client_id="oauth", scopes=[], expires_at=expires, subject=claims.get("sub") or "")
        # The subject "" when none: still an OAuth caller, limited by its tenant (caller_of).
        return access_token(token, str(claims.get("azp") or claims.get("client_id") or claims.get("sub") or "oauth"),
                            identity, expires, subject=claims.get("sub") or "")

    async def _refuse_lookalike(self, tenant: str) -> None:
        """Refuse a tenant claim that differs from a tenant of the database only by letter case or
        compatibility form (``ACME`` beside ``acme``): its callers would share an empty memory beside
        the tenant meant. The 401 names no tenant (another's name); the log names both.

        Raises:
            TokenRefused: naming the claim and the rule.
        """
        from memvault.storage import tenants

        assert self.runtime is not None
        runtime = self.runtime
        alike = await anyio.to_thread.run_sync(lambda: tenants.lookalike(runtime.store(), tenant))
        if alike is not None:
            log.warning("refused a JWT: claim %s names the tenant %r, which differs from the existing tenant %r "
                        "only by letter case or character form", self.http.tenant_claim, tenant, alike)
            raise TokenRefused(f"claim {self.http.tenant_claim}: differs from an existing tenant only by letter case "
                               "or character form; tenants are matched exactly, so the issuer must write the tenant "
                               "as it is stored")

    def _failed_check(self, exc: Exception) -> str:
        """The check of :meth:`_decode` that ``exc`` reports, in words for the client."""
        import jwt

        said = ((jwt.InvalidAudienceError, f"wrong audience: the token is not for {self.http.resource}"),
                (jwt.InvalidIssuerError, f"wrong issuer: tokens must come from {self.http.issuer}"),
                (jwt.MissingRequiredClaimError, f"the token has no {getattr(exc, 'claim', '')} claim"),
                (jwt.InvalidAlgorithmError, f"signature algorithm not allowed (allowed: {', '.join(JWT_ALGORITHMS)})"),
                (jwt.InvalidSignatureError, "bad signature"),
                ((KeyRefused, Malformed), str(exc)),
                (jwt.PyJWKClientError, "signed by a key the issuer does not publish (kid not in its JWKS)"),
                (HeaderRefused, header_check(str(exc))),
                (jwt.exceptions.InvalidSubjectError, "claim sub: must be a string"),
                (jwt.exceptions.InvalidJTIError, "claim jti: must be a string"),
                (jwt.DecodeError, "malformed token (not a signed JWT)"),
                (NotAnAccessToken, "the token's type (its typ header) is not an access token's: send an access token "
                 "(typ at+jwt or JWT, RFC 9068 §4), not an ID or logout token"),
                (KeyMismatch, "the signature algorithm (alg) is not the one the issuer's key of its kid lists "
                 f"({exc.args[0]})" if exc.args else "the signature algorithm (alg) does not fit the type or curve "
                 "of the key of its kid"))
        for kind, words in said:  # in this order: InvalidSignatureError is a DecodeError
            if isinstance(exc, kind):
                return words
        log.warning("a JWT failed a check without a name: %s", type(exc).__name__)  # for the operator
        return "invalid token: it could not be verified"


class HeaderRefused(Exception):
    """PyJWT refused the token's ``kid`` or ``crit`` header parameter; its message is PyJWT's (quoting the token)."""


# What PyJWT's refusals of a header parameter check (by the opening of its message), in words quoting no token.
_HEADER_CHECKS = (
    ("Key ID header parameter", "the token's kid header is not a string (RFC 7515 section 4.1.4)"),
    ("Invalid 'crit' header", "the token's crit header is not a list of extension names (RFC 7515 section 4.1.11)"),
    ("Unsupported critical extension", "the token's crit header names an extension memvault does not "
     "understand (RFC 7515 section 4.1.11: such a token is refused)"),
)


def header_check(message: str) -> str:
    """The check a :class:`HeaderRefused` with PyJWT's ``message`` failed, for the client and the log."""
    return next((words for opening, words in _HEADER_CHECKS if message.startswith(opening)),
                "invalid token: a header parameter could not be read")


# A JWT's typ header an access token may carry (RFC 9068 §2.1 "at+jwt"; many issuers send "JWT"), lower case
ACCESS_TOKEN_TYPES = ("at+jwt", "application/at+jwt", "jwt")


class NotAnAccessToken(Exception):
    """A token's ``typ`` header names another kind of JWT (:data:`ACCESS_TOKEN_TYPES`)."""


class KeyMismatch(Exception):
    """A token's ``alg`` is allowed but does not fit the issuer's key for its ``kid`` (:func:`fits`),
    or is not the ``alg`` that key's JWK lists (its one argument then)."""


_KTY = {"RS": "RSA", "PS": "RSA", "ES": "EC", "Ed": "OKP"}  # the key type of an algorithm (RFC 7518 §3.1, RFC 8037)


def _refused_for(unusable: dict[tuple[str, object], str], kid: str, alg: object,
                 found: SigningKey | None) -> str | None:
    """Why a token of ``kid`` and ``alg`` is refused by the set's JWKs that verify nothing (``unusable``: by kid
    and kty), when ``found`` (the usable key of that kid, if any) cannot check it: the reason of the JWK of
    ``alg``'s key type, else, with no usable key, any reason of that kid; None when nothing is said of it."""
    if found is not None and (not isinstance(alg, str) or fits(alg, found.key)):
        return None
    kty = _KTY.get(alg[:2]) if isinstance(alg, str) else None
    if (kid, kty) in unusable:
        return unusable[kid, kty]
    return next((why for (each, _), why in unusable.items() if each == kid), None) if found is None else None


def fits(alg: str, key: object) -> bool:
    """Whether ``key`` (a ``cryptography`` public key) can check a signature of ``alg``, one of
    :data:`JWT_ALGORITHMS` (RFC 7518 §3.1, RFC 8037 §3.1: RS/PS an RSA key, ES256/384/512 an EC key
    on P-256/384/521, EdDSA an Ed25519 or Ed448 key)."""
    from cryptography.hazmat.primitives.asymmetric import ec, ed448, ed25519, rsa

    if alg.startswith(("RS", "PS")):
        return isinstance(key, rsa.RSAPublicKey)
    if alg == "EdDSA":
        return isinstance(key, (ed25519.Ed25519PublicKey, ed448.Ed448PublicKey))
    return isinstance(key, ec.EllipticCurvePublicKey) and alg in _CURVES and key.curve.name == _CURVES[alg][1]


CLOCK_SKEW_S = 60  # the issuer's clock and the server's may differ by this much (RFC 7519 §4.1.4-5 "small leeway")
LAST_NUMERIC_DATE = 253_402_300_799  # 9999-12-31T23:59:59Z: a time claim past it is no date a token can hold


def names_once(token: str) -> None:
    """Refuse a JWT whose header or claims (or an object in them) name a member twice: which one counts
    is undefined and another reader may take the other (RFC 7515 §5.2 and RFC 7519 §4 allow rejecting
    it; JSON-RPC messages are refused the same way, ``wire.loads``).

    Raises:
        InvalidInput: naming the part, never the member.
    """
    for part, field in zip(token.split(".")[:2], ("duplicate header parameter", "duplicate claim"), strict=False):
        def once(pairs: list[tuple[str, Any]], field: str = field) -> dict[str, Any]:
            if len({name for name, _ in pairs}) < len(pairs):
                raise InvalidInput(field, "the token names a member more than once, and which one counts is "
                                   "undefined (RFC 7515 §5.2, RFC 7519 §4)")
            return dict(pairs)

        json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)), object_pairs_hook=once)


def check_times(claims: dict[str, Any], now: float, most_s: int) -> None:
    """Check ``exp`` (required), ``nbf`` and ``iat``: each a JSON number (RFC 7519 §2
    NumericDate: not a string, not a boolean), from 0 to ``LAST_NUMERIC_DATE``; ``exp`` not past,
    ``nbf`` and ``iat`` not future, each give or take ``CLOCK_SKEW_S`` (seconds; ``now`` from the
    epoch), and the token's lifetime (``exp`` minus ``iat``, or minus ``now`` without ``iat``) at
    most ``most_s``.

    Raises:
        InvalidInput: naming the claim.
    """
    for name in ("exp", "nbf", "iat"):
        value = claims.get(name)
        if name in claims and (isinstance(value, bool) or not isinstance(value, (int, float))
                               or not 0 <= value <= LAST_NUMERIC_DATE):  # NaN compares false; an int of any size
            raise InvalidInput(f"claim {name}", "must be a number of seconds from 1970-01-01 to 9999-12-31 "
                               "(RFC 7519 NumericDate)")
    exp = claims["exp"]
    if exp + CLOCK_SKEW_S <= now:
        raise InvalidInput("claim exp", f"token expired on {format_ms(int(exp * 1000))}")
    for name in ("nbf", "iat"):
        if claims.get(name, 0) > now + CLOCK_SKEW_S:
            raise InvalidInput(f"claim {name}", "token not yet valid (the time it names is in the future)")
    if exp - min(claims.get("iat", now), now) > most_s:
        raise InvalidInput("claim exp", f"the token's lifetime is over this server's limit of {most_s:,} s "
                           "(--oauth-max-token-lifetime)")


def granted(claims: dict[str, Any]) -> set[str]:
    """The scopes a token grants: its ``scope`` claim (RFC 9068 §2.2.3), or its ``scp``
    claim; either a string of scope tokens separated by single spaces, or a list of scope
    tokens (RFC 6749 §3.3 grammar, case-sensitive); an empty string or list grants none.

    Raises:
        InvalidInput: both claims present (which one counts would be a guess), or one
            that breaks the grammar (naming the claim, never quoting it).
    """
    present = [name for name in ("scope", "scp") if name in claims]
    if not present:
        return set()
    if len(present) > 1:
        raise InvalidInput("claims scope and scp", "a token may carry one of them, not both")
    value = claims[present[0]]
    if value in ("", []):  # an empty scope, as a string or a list: a valid token granting none (403, not 401)
        return set()
    items = value.split(" ") if isinstance(value, str) else value if isinstance(value, list) else None
    if items is None or not all(isinstance(item, str) and _SCOPE_TOKEN.fullmatch(item) for item in items):
        raise InvalidInput(f"claim {present[0]}", "must be scope tokens (printable ASCII without space, quote or "
                           "backslash; RFC 6749 §3.3) separated by single spaces, or a list of them")
    return set(items)


def missing_scope(granted: Collection[str], body: bytes, key: bool = False) -> str | None:
    """The scope that a POST of ``body`` needs and a token granting ``granted`` lacks, or
    None: ``memvault:read`` or write (write includes reading) for any request, ``memvault:write`` for a
    ``tools/call`` of a :data:`WRITE_TOOLS` tool, alone or in a JSON-RPC batch (RFC 6750
    §3.1 ``insufficient_scope``). A read-only API key (``key``) lacks no scope here: its write call
    is answered by the tool, an error result naming the key (``Runtime.call``'s :class:`ReadOnly`),
    which the model reads, since no authorization server can step a key up (the MCP authorization
    spec's 403 is for that)."""
    if READ not in granted and WRITE not in granted:
        return READ
    if WRITE in granted or key:
        return None
    from .wire import loads  # values and keys counted before it is parsed

    try:
        value = loads(body)
    except (ValueError, RecursionError):
        return None  # refused by wire.post, or answered -32700 by the transport
    for item in value if isinstance(value, list) else [value]:
        params = item.get("params") if isinstance(item, dict) and item.get("method") == "tools/call" else None
        if isinstance(params, dict) and params.get("name") in WRITE_TOOLS:
            return WRITE
    return None


def _text(value: object, field: str) -> str:
    if not isinstance(value, str):
        raise InvalidInput(field, "is missing or not a string")
    return value
