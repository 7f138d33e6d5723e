"""Errors of the Plurk adapter and how they are classified.

Plurk answers a refused call with an HTTP error status and a JSON body
``{"error_text": "..."}``. The retry policy depends on what kind of refusal it
is, and the exact wording is not documented, so the classification lives in
one small function (:func:`classify_error`) that can be corrected alone.
"""

from __future__ import annotations

import enum


class ErrorKind(enum.Enum):
    """How the sender should react to a refusal."""

    ANTI_FLOOD = "anti_flood"  # wait minutes, retry, never drop
    MUST_BE_FRIENDS = "must_be_friends"  # private plurk impossible: tell the core
    AUTH = "auth"  # bad keys or signature: retrying will not help
    TRANSIENT = "transient"  # server trouble / network: retry a bounded number of times
    REFUSED = "refused"  # any other refusal (e.g. "Content too long")


def classify_error(status: int, error_text: str) -> ErrorKind:
    """Classify a Plurk refusal (unconfirmed wording; see docs/plurk.md).

    PLURK.md lists ``anti-flood-same-content``, ``anti-flood-too-many-new`` and
    "Must be friends" as HTTP 400 texts. Anything starting with ``anti-flood``
    is treated as flood control whatever the status, so a new variant is still
    retried rather than dropped.
    """
    text = (error_text or "").strip().lower()
    if text.startswith("anti-flood") or "anti-flood" in text:
        return ErrorKind.ANTI_FLOOD
    if "must be friends" in text:
        return ErrorKind.MUST_BE_FRIENDS
    if status in (401, 403):
        return ErrorKind.AUTH
    if status == 0 or status == 429 or status >= 500:
        return ErrorKind.TRANSIENT
    return ErrorKind.REFUSED


class PlurkError(Exception):
    """A call to Plurk failed.

    ``status`` is the HTTP status (0 when no answer arrived: network error or
    timeout); ``error_text`` Plurk's ``error_text`` or a short excerpt of the
    body. Never carries request parameters, so it is safe to log.
    """

    def __init__(self, status: int, error_text: str, endpoint: str = "") -> None:
        self.status = status
        self.error_text = error_text
        self.endpoint = endpoint
        self.kind = classify_error(status, error_text)
        super().__init__(f"{endpoint or 'plurk'}: HTTP {status}: {error_text}")

    @property
    def is_anti_flood(self) -> bool:
        return self.kind is ErrorKind.ANTI_FLOOD

    @property
    def is_must_be_friends(self) -> bool:
        return self.kind is ErrorKind.MUST_BE_FRIENDS


class PlurkConfigError(Exception):
    """The adapter is enabled but its configuration is incomplete or unreadable."""
