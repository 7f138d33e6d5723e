"""Errors of the Plurk adapter and how they are classified.

Plurk answers a refused call with HTTP 400 (or another error status) and a JSON
body ``{"error_text": "..."}``. ``../shared/PLURK.md`` lists the texts the bot
must tell apart, and they are not all "try later":

| ``error_text`` | kind | the sender |
|---|---|---|
| ``anti-flood-too-many-new`` | ``FLOOD_WAIT`` | waits minutes and retries, with a ceiling |
| ``anti-flood-same-content`` | ``SAME_CONTENT`` | never resends it unchanged |
| ``anti-flood-spam-domain`` | ``SPAM_DOMAIN`` | permanent: drops it |
| ``Content too long`` | ``TOO_LONG`` | splits the part further, once |
| ``Must be friends`` | ``MUST_BE_FRIENDS`` | hands the private message to the core |
| ``401NN:…`` (``40104:incorrect signature``) | ``AUTH`` | fatal for the adapter |

A bad key or token is HTTP **400** ``40104:incorrect signature``, not 401.
The exact wording of these texts is unconfirmed, so the classification lives in
one small function (:func:`classify_error`) that can be corrected alone.
"""

from __future__ import annotations

import enum
import re


class ErrorKind(enum.Enum):
    """How the sender should react to a refusal."""

    FLOOD_WAIT = "flood_wait"  # too many new posts lately: wait minutes, bounded retries
    SAME_CONTENT = "same_content"  # the same text was just posted: never resend unchanged
    SPAM_DOMAIN = "spam_domain"  # a link Plurk blocks: never succeeds
    TOO_LONG = "too_long"  # over 360 characters: split further
    MUST_BE_FRIENDS = "must_be_friends"  # private plurk impossible: tell the core
    AUTH = "auth"  # bad key/token/signature or clock: fatal for the adapter
    TRANSIENT = "transient"  # server trouble / network: retry a bounded number of times
    REFUSED = "refused"  # any other refusal: permanent


#: kinds after which posting the same text again cannot succeed
PERMANENT = frozenset({ErrorKind.SPAM_DOMAIN, ErrorKind.REFUSED})

_OAUTH_CODE = re.compile(r"^\s*401\d\d\b")


def classify_error(status: int, error_text: str) -> ErrorKind:
    """Classify a Plurk refusal (wording per PLURK.md, unconfirmed; see docs/plurk.md).

    An ``anti-flood-*`` text that is not one of the three documented ones is
    treated as "wait" (bounded), so a new variant is neither hammered nor lost
    at once. The ``401NN:`` family of OAuth errors is fatal whatever the HTTP
    status (Plurk sends it with 400); so are 401 and 403 (403 "error code:
    1010" is a refused User-Agent — a configuration problem, too).
    """
    text = (error_text or "").strip().lower()
    if "anti-flood-same-content" in text:
        return ErrorKind.SAME_CONTENT
    if "anti-flood-spam-domain" in text:
        return ErrorKind.SPAM_DOMAIN
    if "anti-flood" in text:
        return ErrorKind.FLOOD_WAIT
    if "must be friends" in text:
        return ErrorKind.MUST_BE_FRIENDS
    if _OAUTH_CODE.match(text) or status in (401, 403):
        return ErrorKind.AUTH
    if "content too long" in text:
        return ErrorKind.TOO_LONG
    if status == 0 or status == 429 or status >= 500:
        return ErrorKind.TRANSIENT
    return ErrorKind.REFUSED


AUTH_HINT = (
    "check TRPGBOT_PLURK__APP_KEY, __APP_SECRET, __TOKEN and __TOKEN_SECRET "
    "(or TRPGBOT_PLURK__KEYS_FILE) and the host's clock"
)


def auth_message(error_text: str) -> str:
    """The operator-readable line for a fatal OAuth refusal (no secret in it)."""
    return f"Plurk refused the app key or access token ({error_text}) — {AUTH_HINT}"


class PlurkError(Exception):
    """A call to Plurk failed.

    ``status`` is the HTTP status (0 when no answer arrived: network error or
    timeout); ``error_text`` Plurk's ``error_text`` or a short excerpt of the
    body. Never carries request parameters, so it is safe to log. An ``AUTH``
    error's message is the operator-readable line of :func:`auth_message`.
    """

    def __init__(self, status: int, error_text: str, endpoint: str = "") -> None:
        self.status = status
        self.error_text = error_text
        self.endpoint = endpoint
        self.kind = classify_error(status, error_text)
        where = f"{endpoint or 'plurk'}: HTTP {status}"
        if self.kind is ErrorKind.AUTH:
            super().__init__(f"{auth_message(error_text)} [{where}]")
        else:
            super().__init__(f"{where}: {error_text}")

    @property
    def is_anti_flood(self) -> bool:
        return self.kind in (
            ErrorKind.FLOOD_WAIT, ErrorKind.SAME_CONTENT, ErrorKind.SPAM_DOMAIN
        )

    @property
    def is_must_be_friends(self) -> bool:
        return self.kind is ErrorKind.MUST_BE_FRIENDS

    @property
    def is_fatal(self) -> bool:
        return self.kind is ErrorKind.AUTH


class PlurkConfigError(Exception):
    """The adapter is enabled but its configuration is incomplete or unreadable."""
