"""The limits and vocabularies of a memory, shared by storage and the tool schemas
(imports nothing)."""

from __future__ import annotations

KINDS: tuple[str, ...] = ("fact", "preference", "decision", "procedure", "episode", "failure")
DEFAULT_KIND = "fact"

CONTENT_MAX_CHARS = 8_000
SPLIT_ADVICE = "Split it into several memories, one idea each."  # said when content is too long
TAGS_MAX = 20
TAG_MAX_CHARS = 64
SOURCE_MAX_CHARS = 500
REASON_MAX_CHARS = 500
SCOPE_MAX_CHARS = 128
IDEMPOTENCY_KEY_MAX_CHARS = 200
IDEMPOTENCY_KEY_TTL_MS = 86_400_000  # 24 h, as Stripe's API keeps its keys
IMPORTANCE_MIN, IMPORTANCE_MAX, DEFAULT_IMPORTANCE = 1, 10, 5
TIME_MAX_CHARS = 64  # an ISO-8601 date-time as given (since, until, observed_at, expires_at), as sent
FUTURE_TOLERANCE_MS = 86_400_000  # observed_at may run ahead of the server clock by a day (clock skew)

CLOSE_MATCH = 0.75  # difflib ratio from which a name or value is suggested (docs/architecture.md)
ID_PREFIX_MIN_CHARS = 8  # like git: a unique prefix of an id stands for the id
ID_CHARS = 36  # a whole id (a UUID's text form), memory or API key
# What a memory id is, in every message about one (a missing, empty or malformed id alike).
ID_WHOLE = (f"an id is {ID_CHARS} hex digits and hyphens, like 0190a8e4-7c5b-7d2e-9f3a-1b2c3d4e5f60 (remember and recall "
            "return them)")
ID_SHAPE = f"{ID_WHOLE}, or its first {ID_PREFIX_MIN_CHARS} or more characters"
# The same for the team server's API keys (`memvault keys revoke ID`).
KEY_ID_SHAPE = (f"a key id is {ID_CHARS} hex digits and hyphens, as `memvault keys list` shows it, or its first "
                f"{ID_PREFIX_MIN_CHARS} or more characters")

QUERY_MAX_CHARS = 2_000
CURSOR_MAX_CHARS = 96  # a listing's cursor (``tools.handlers``): a memory id and two checks, encoded (72)
RECALL_DEFAULT_LIMIT = 5
RECALL_MAX_LIMIT = 50
LIST_MAX_OFFSET = 1_000_000_000
# Content characters per recall result (about 10,000 tokens: under clients' tool-result caps).
RECALL_MAX_CONTENT_CHARS = 40_000
SESSION_READ_MAX_TOKENS = 100_000  # turn text one read of memory://sessions/{id} shows at most

GLOBAL_SCOPE = "global"
DEFAULT_SCOPE = "default"
DEFAULT_TENANT = "default"

# How long a write waits for another connection's write lock before failing with Busy.
BUSY_TIMEOUT_MS = 5_000

# Sessions (storage/episodes.py): the episodic log of what a client's session did.
ROLES: tuple[str, ...] = ("user", "assistant", "tool")
SESSION_ID_MAX_CHARS = 128  # letters, digits and ._:- (Claude Code and Codex use UUIDs)
TURN_MAX_CHARS = 20_000  # a longer turn (a tool's whole output) is cut, with a marker saying how much went
TURNS_PER_CALL_MAX = 1_000  # turns one append takes
TURN_NAME_MAX_CHARS = 200  # a turn's tool name, call id and ref
TURN_EXCERPT_CHARS = 1_000  # the most of a turn's text one hit of a turn search shows
REDACTED_KINDS_MAX = 32  # the kinds an imported turn may say were redacted from it
CLIENT_MAX_CHARS = 64
# An OAuth token's sub, azp and client_id, which key a caller's rate limit, turns and logs: OpenID Connect Core 1.0
# §2 holds sub to 255 ASCII characters; its client's ids get the same bound.
CALLER_CLAIM_MAX_CHARS = 255
CWD_MAX_CHARS = 4_096
SESSIONS_MAX_LIMIT = 100  # sessions one listing returns
DIGEST_MAX_TOKENS = 400  # a session's digest (an `episode` memory), in literal tokens
