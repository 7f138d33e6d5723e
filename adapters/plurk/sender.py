"""Posting replies to Plurk without losing them and without hammering Plurk.

- Anti-flood refusals (``anti-flood-*``) are retried with an exponential
  backoff that starts in minutes (``anti_flood_base_delay``, injectable so
  tests use milliseconds) and are never dropped; only shutdown stops the wait,
  and that is logged as an error.
- "Must be friends" is not retried: the caller hands the Outgoing back to the
  core (``private_delivery_failed``), which answers with a notice.
- Any other error is logged and retried a bounded number of times.
- Posts are spaced by ``min_post_interval`` so a long split reply does not
  itself trigger flood control.

A network error after Plurk accepted a post can make a retry post twice; that
is preferred over losing a reply. Post contents are never logged (a private
plurk holds a GM secret).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from adapters.plurk.aio import sleep_or_stop
from adapters.plurk.comet import backoff_delay
from adapters.plurk.errors import ErrorKind, PlurkError
from adapters.plurk.text import PLURK_LIMIT, neutralise, split_reply

log = logging.getLogger(__name__)

T = TypeVar("T")


class PostingClient(Protocol):
    async def response_add(self, plurk_id: int, content: str, qualifier: str = ":") -> Any: ...

    async def plurk_add(
        self, content: str, qualifier: str = ":", limited_to: Any = None
    ) -> dict[str, Any]: ...


@dataclass(frozen=True)
class RetryPolicy:
    """Delays in seconds; see bot/config/plurk.py for the defaults' reasons."""

    anti_flood_base_delay: float = 60.0
    anti_flood_max_delay: float = 900.0
    retry_base_delay: float = 5.0
    retry_max_delay: float = 300.0
    max_retries: int = 5
    min_post_interval: float = 1.0


class DeliveryFailed(Exception):
    """A post was given up: bounded retries exhausted, or shutdown during a wait."""

    def __init__(self, reason: str, cause: PlurkError | None = None) -> None:
        super().__init__(reason)
        self.cause = cause


class PlurkSender:
    """Neutralises, splits and posts text with the retry policy above."""

    def __init__(
        self,
        client: PostingClient,
        policy: RetryPolicy | None = None,
        *,
        stop: asyncio.Event | None = None,
        qualifier: str = ":",
        private_qualifier: str = ":",
        allow_emoticon_dice: bool = False,
        limit: int = PLURK_LIMIT,
        max_parts: int | None = 12,
    ) -> None:
        self.client = client
        self.policy = policy or RetryPolicy()
        self.stop = stop or asyncio.Event()
        self.qualifier = qualifier
        self.private_qualifier = private_qualifier
        self.allow_emoticon_dice = allow_emoticon_dice
        self.limit = limit
        self.max_parts = max_parts
        self._last_post = float("-inf")
        self._lock = asyncio.Lock()  # one post at a time keeps split parts in order

    def parts(self, text: str) -> list[str]:
        """What will be posted for ``text``: neutralised, then split to the limit."""
        safe = neutralise(text, allow_emoticon_dice=self.allow_emoticon_dice)
        return split_reply(safe, self.limit, self.max_parts)

    async def reply(self, plurk_id: int, text: str) -> list[Any]:
        """Post ``text`` as one or more responses in thread ``plurk_id``, in order."""
        results = []
        async with self._lock:
            for part in self.parts(text):
                results.append(
                    await self._with_retries(
                        "responseAdd",
                        lambda part=part: self.client.response_add(plurk_id, part, self.qualifier),
                    )
                )
        return results

    async def private(self, user_id: int, text: str) -> int | None:
        """Send ``text`` to one friend as a private plurk; return its plurk id.

        Parts after the first become responses to that private plurk, which
        keep its privacy. Raises :class:`PlurkError` with kind
        ``MUST_BE_FRIENDS`` when Plurk refuses the private plurk.
        """
        parts = self.parts(text)
        if not parts:
            return None
        async with self._lock:
            plurk = await self._with_retries(
                "plurkAdd",
                lambda: self.client.plurk_add(parts[0], self.private_qualifier, [user_id]),
            )
            plurk_id = plurk.get("plurk_id") if isinstance(plurk, dict) else None
            for part in parts[1:]:
                if plurk_id is None:
                    raise DeliveryFailed("private plurk id missing; continuation not sent")
                await self._with_retries(
                    "responseAdd",
                    lambda part=part: self.client.response_add(
                        int(plurk_id), part, self.private_qualifier
                    ),
                )
        return int(plurk_id) if plurk_id is not None else None

    async def _space_out(self) -> None:
        wait = self._last_post + self.policy.min_post_interval - time.monotonic()
        if wait > 0 and await sleep_or_stop(wait, self.stop):
            raise DeliveryFailed("shutdown before posting")

    async def _with_retries(self, what: str, call: Callable[[], Awaitable[T]]) -> T:
        floods = 0
        failures = 0
        while True:
            await self._space_out()
            try:
                result = await call()
            except PlurkError as exc:
                self._last_post = time.monotonic()
                if exc.kind is ErrorKind.MUST_BE_FRIENDS:
                    raise
                if exc.kind is ErrorKind.ANTI_FLOOD:
                    floods += 1
                    delay = backoff_delay(
                        floods, self.policy.anti_flood_base_delay, self.policy.anti_flood_max_delay
                    )
                    log.warning(
                        "plurk %s: %s (flood control); retrying in %.0fs",
                        what,
                        exc.error_text,
                        delay,
                    )
                else:
                    failures += 1
                    if failures >= self.policy.max_retries:
                        log.error("plurk %s failed %d times, giving up: %s", what, failures, exc)
                        raise DeliveryFailed(f"{what} failed {failures} times", exc) from exc
                    delay = backoff_delay(
                        failures, self.policy.retry_base_delay, self.policy.retry_max_delay
                    )
                    log.warning("plurk %s: %s; retry %d in %.1fs", what, exc, failures, delay)
                if await sleep_or_stop(delay, self.stop):
                    log.error("plurk %s not sent: shutting down during a retry wait", what)
                    raise DeliveryFailed("shutdown during retry wait", exc) from exc
                continue
            self._last_post = time.monotonic()
            return result
