"""Posting text to Plurk: escape, split, and react to each refusal as PLURK.md says.

- ``anti-flood-too-many-new`` (and an unknown ``anti-flood-*``) waits with a
  doubling backoff that starts in minutes (``anti_flood_base_delay``) and gives
  up after ``anti_flood_max_retries`` waits: :class:`Refused`.
- ``anti-flood-same-content`` is never resent unchanged: the part is posted
  once more with :data:`SAME_CONTENT_MARKER` appended (room for it is kept when
  splitting); refused again, it is dropped (:class:`Refused`).
- ``anti-flood-spam-domain`` and any other refusal are permanent: no retry,
  :class:`Refused`.
- ``Content too long`` (a splitting bug) splits that part in two, once.
- "Must be friends" and the fatal ``401NN:`` OAuth errors are raised as
  :class:`PlurkError` for the caller (the outbox) to act on.
- Network and server errors are retried ``max_retries`` times, then
  :class:`Refused`.
- A stop during a wait raises :class:`Interrupted` (the reply stays in the
  core's outbox for the next start).

The waits and the give-ups are the adapters' one retry policy (adapters/retry.py):
each kind of refusal counts its own tries.

Posts are spaced by ``min_post_interval`` across all threads, but a retry wait
holds no lock: a thread waiting out flood control delays no other thread (the
outbox keeps each thread's parts in order). A private plurk is only ever posted
to one positive user id that is not the bot's own (:func:`check_audience`):
``limited_to=[0]`` would show a GM secret to all the bot's friends.

A network error after Plurk accepted a post can make a retry post twice; that
is preferred over losing a reply. Post contents are never logged (a private
plurk holds a GM secret).

A file that is no picture (a game log) cannot be uploaded: its text follows a
private plurk's message as responses (:meth:`PlurkSender.file_parts`), escaped and
split like any text but capped (the outbox's cap, 40), with a last response saying
the rest was cut.

A picture (the battle map) is uploaded first (``Timeline/uploadPicture``, retried
like a post) and its URL is posted after the text, as a part of its own and as is
(a neutralised URL would not show the picture); Plurk shows the picture there. If
the upload fails, the text is posted alone.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from adapters.plurk.aio import Stopped, sleep_or_stop, stoppable
from adapters.plurk.errors import ErrorKind, PlurkError
from adapters.plurk.ids import ANONYMOUS_USER_ID
from adapters.plurk.text import PLURK_LIMIT, neutralise, plurk_length, split_reply
from adapters.retry import Backoff, Sleep, retrying

log = logging.getLogger(__name__)

T = TypeVar("T")

#: what an uploaded picture's URL must look like to be posted as is
_PICTURE_URL = re.compile(r"https?://[^\s<>()\[\]{}\"'`]{1,300}")

#: appended to a part Plurk refused as ``anti-flood-same-content`` (full-width
#: parentheses: no emoticon, no markup; the core's normalisation reads them as ``(2)``)
SAME_CONTENT_MARKER = " （2）"
#: ``anti-flood-same-content``: posted once more, at once, with the marker
MARKED_ONCE = Backoff(0, 0, retries=1)


class PostingClient(Protocol):
    async def response_add(self, plurk_id: int, content: str, qualifier: str = ":") -> Any: ...

    async def plurk_add(
        self, content: str, qualifier: str = ":", limited_to: Any = None
    ) -> dict[str, Any]: ...

    async def upload_picture(self, filename: str, data: bytes,
                             content_type: str = "image/png") -> dict[str, Any]: ...


@dataclass(frozen=True)
class RetryPolicy:
    """Delays in seconds; see adapters/plurk/settings.py for the defaults' reasons."""

    anti_flood_base_delay: float = 60.0
    anti_flood_max_delay: float = 900.0
    anti_flood_max_retries: int = 6
    retry_base_delay: float = 5.0
    retry_max_delay: float = 300.0
    max_retries: int = 5
    min_post_interval: float = 1.0


class DeliveryFailed(Exception):
    """A post was not made; see the subclasses."""

    def __init__(self, reason: str, cause: PlurkError | None = None) -> None:
        super().__init__(reason)
        self.cause = cause


class Interrupted(DeliveryFailed):
    """The adapter is stopping: the post was not made, and may be made at the next start."""


class Refused(DeliveryFailed):
    """Given up for good (permanent refusal, or a retry ceiling reached): drop and report."""


class UnsafeAudience(Refused):
    """A private plurk whose audience is not exactly one other real user: never posted."""


class _TooLong(Exception):
    def __init__(self, cause: PlurkError) -> None:
        super().__init__(str(cause))
        self.cause = cause


def check_audience(limited_to: Sequence[Any], own_id: int | None) -> list[int]:
    """The ``limited_to`` of a private plurk, or :class:`UnsafeAudience`.

    Plurk reads ``[0]`` as all the poster's friends, so only a non-empty list
    of positive integer user ids, none the bot's own nor the anonymous id, may
    be sent.
    """
    if isinstance(limited_to, (str, bytes)) or not limited_to:
        raise UnsafeAudience("private plurk without a recipient")
    ids: list[int] = []
    for uid in limited_to:
        if isinstance(uid, bool) or not isinstance(uid, int) or uid <= 0:
            raise UnsafeAudience("private plurk recipient is not a positive user id")
        if uid in (own_id, ANONYMOUS_USER_ID):
            raise UnsafeAudience("private plurk recipient is the bot itself or anonymous")
        ids.append(uid)
    return ids


class PlurkSender:
    """Neutralises, splits and posts text with the policy above."""

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
        own_id: int | None = None,
        sleep: Sleep | None = None,
    ) -> None:
        self.client = client
        self.policy = policy or RetryPolicy()
        self.stop = stop or asyncio.Event()
        self.qualifier = qualifier
        self.private_qualifier = private_qualifier
        self.allow_emoticon_dice = allow_emoticon_dice
        self.limit = limit
        self.max_parts = max_parts
        self.own_id = own_id  # the bot's user id, once known (never a private recipient)
        self._last_post = float("-inf")
        self._spacing = asyncio.Lock()  # held for one call only, never across a retry wait
        self._sleep = sleep or stoppable(self.stop)
        """Waits between tries (:class:`Stopped` once ``stop`` is set)."""
        self._backoffs = {
            ErrorKind.FLOOD_WAIT: Backoff(self.policy.anti_flood_base_delay,
                                          self.policy.anti_flood_max_delay,
                                          self.policy.anti_flood_max_retries),
            ErrorKind.TRANSIENT: Backoff(self.policy.retry_base_delay,
                                         self.policy.retry_max_delay,
                                         self.policy.max_retries - 1),  # attempts, not waits
            ErrorKind.SAME_CONTENT: MARKED_ONCE,
        }

    def parts(self, text: str, mention: str | None = None) -> list[str]:
        """What will be posted for ``text``: escaped first, then split to the limit
        (keeping room for the same-content marker); ``mention`` (a nick name) is put
        before the first part as the one real ``@nick`` — Plurk notifies that user."""
        safe = neutralise(text, allow_emoticon_dice=self.allow_emoticon_dice)
        prefix = f"@{mention} " if mention else ""
        parts = split_reply(safe, self.limit - plurk_length(SAME_CONTENT_MARKER)
                            - plurk_length(prefix), self.max_parts)
        return [prefix + parts[0], *parts[1:]] if parts else parts

    def file_parts(self, content: str, cap: int, cut: Callable[[int, int], str]) -> list[str]:
        """The responses that carry a file's text: escaped (emoticon dice never rolled:
        they were rolled when the log was said), split to the limit like a reply, at
        most ``cap`` of them; past the cap, the first ``cap`` and one more part,
        ``cut(shown, total)`` (escaped and trimmed to one part)."""
        limit = self.limit - plurk_length(SAME_CONTENT_MARKER)
        parts = split_reply(neutralise(content), limit)
        if len(parts) <= cap:
            return parts
        return parts[:cap] + split_reply(neutralise(cut(cap, len(parts))), limit, 1)

    async def upload(self, filename: str, data: bytes, content_type: str) -> str | None:
        """Upload a picture; its ``full`` URL, or None when Plurk did not take it (the
        caller posts the text alone). A fatal OAuth refusal is raised."""
        async def post(_part: str) -> Any:
            return await self.client.upload_picture(filename, data, content_type)

        try:
            answer = await self._with_retries("uploadPicture", "", post)
        except (Refused, _TooLong) as exc:
            log.error("plurk uploadPicture: not uploaded (%s); the text goes alone", exc)
            return None
        url = answer.get("full") if isinstance(answer, dict) else None
        if not isinstance(url, str) or not _PICTURE_URL.fullmatch(url):
            log.error("plurk uploadPicture: no usable picture URL in the answer")
            return None
        return url

    async def reply(self, plurk_id: int, text: str, mention: str | None = None,
                    link: str | None = None) -> list[Any]:
        """Post ``text`` as one or more responses in thread ``plurk_id``, in order;
        ``link`` (an uploaded picture's URL) follows as a response of its own.

        Callers keep one thread's replies in order (the outbox: one worker per
        thread); replies to different threads may be posted concurrently.
        """
        return await self._post_all(
            self.parts(text, mention) + ([link] if link else []),
            lambda part: self.client.response_add(plurk_id, part, self.qualifier),
            "responseAdd",
        )

    async def private(self, user_id: int, text: str, link: str | None = None,
                      more: Sequence[str] = ()) -> int | None:
        """Send ``text`` to one friend as a private plurk; return its plurk id
        (``link``, an uploaded picture's URL, as its last part; ``more``, parts made
        by :meth:`file_parts`, after it).

        Parts after the first become responses to that private plurk, which
        keep its privacy. Raises :class:`UnsafeAudience` (nothing posted) unless
        ``user_id`` is a positive id other than the bot's, and
        :class:`PlurkError` with kind ``MUST_BE_FRIENDS`` when Plurk refuses.
        """
        audience = check_audience([user_id], self.own_id)
        parts = self.parts(text) + ([link] if link else []) + list(more)
        if not parts:
            return None
        plurk_id: int | None = None

        async def post(part: str) -> Any:
            nonlocal plurk_id
            if plurk_id is None:
                plurk = await self.client.plurk_add(part, self.private_qualifier, audience)
                found = plurk.get("plurk_id") if isinstance(plurk, dict) else None
                if found is None:
                    raise Refused("private plurk id missing; continuation not sent")
                plurk_id = int(found)
                return plurk
            return await self.client.response_add(plurk_id, part, self.private_qualifier)

        await self._post_all(parts, post, "plurkAdd")
        return plurk_id

    async def _post_all(
        self, parts: list[str], post: Callable[[str], Awaitable[T]], what: str
    ) -> list[T]:
        results: list[T] = []
        todo: deque[tuple[str, bool]] = deque((part, False) for part in parts)
        while todo:
            part, resplit = todo.popleft()
            try:
                results.append(await self._with_retries(what, part, post))
            except _TooLong as exc:
                if resplit:
                    raise Refused(f"{what}: still too long after splitting", exc.cause) from None
                limit = max(2, plurk_length(part) // 2)
                log.error("plurk %s: Content too long (a splitting bug); splitting again", what)
                todo.extendleft((piece, True) for piece in reversed(split_reply(part, limit)))
            what = "responseAdd"  # a private plurk continues as responses
        return results

    async def _post_once(self, post: Callable[[str], Awaitable[T]], content: str) -> T:
        async with self._spacing:
            wait = self._last_post + self.policy.min_post_interval - time.monotonic()
            if wait > 0 and await sleep_or_stop(wait, self.stop):
                raise Interrupted("shutdown before posting")
            try:
                return await post(content)
            finally:
                self._last_post = time.monotonic()

    async def _with_retries(
        self, what: str, part: str, post: Callable[[str], Awaitable[T]]
    ) -> T:
        content = part

        async def attempt() -> T:
            nonlocal content
            try:
                return await self._post_once(post, content)
            except PlurkError as exc:
                if exc.kind is ErrorKind.SAME_CONTENT:
                    content = part + SAME_CONTENT_MARKER  # never resent unchanged
                raise

        try:
            return await retrying(attempt, self._backoff_for, sleep=self._sleep,
                                  on_wait=lambda exc, tries, delay: _log_wait(
                                      what, exc, tries, delay))
        except Stopped as exc:
            log.warning("plurk %s not sent: shutting down during a retry wait", what)
            raise Interrupted("shutdown during retry wait") from exc
        except PlurkError as exc:
            raise self._given_up(what, exc) from exc

    def _backoff_for(self, exc: BaseException) -> Backoff | None:
        """How a refusal is retried; None: it is final (or the caller's to act on)."""
        return self._backoffs.get(exc.kind) if isinstance(exc, PlurkError) else None

    def _given_up(self, what: str, exc: PlurkError) -> Exception:
        """What a refusal that was not (or no longer) retried becomes."""
        kind = exc.kind
        if kind in (ErrorKind.MUST_BE_FRIENDS, ErrorKind.AUTH):
            return exc  # the outbox acts on these
        if kind is ErrorKind.TOO_LONG:
            return _TooLong(exc)
        if kind is ErrorKind.SAME_CONTENT:
            log.error("plurk %s: %s even with a marker; dropped", what, exc.error_text)
            return Refused(f"{what}: same content", exc)
        if kind is ErrorKind.FLOOD_WAIT:
            log.error("plurk %s: %s after %d waits; dropped", what, exc.error_text,
                      self.policy.anti_flood_max_retries)
            return Refused(f"{what}: flood control did not clear", exc)
        if kind is ErrorKind.TRANSIENT:
            tries = max(1, self.policy.max_retries)
            log.error("plurk %s failed %d times, giving up: %s", what, tries, exc)
            return Refused(f"{what} failed {tries} times", exc)
        # spam domain, or any other refusal: resending cannot help
        log.error("plurk %s refused for good: %s", what, exc)
        return Refused(f"{what} refused: {exc.error_text}", exc)


def _log_wait(what: str, exc: BaseException, tries: int, delay: float) -> None:
    assert isinstance(exc, PlurkError)
    if exc.kind is ErrorKind.SAME_CONTENT:
        log.warning("plurk %s: %s; posting it with a marker", what, exc.error_text)
    elif exc.kind is ErrorKind.FLOOD_WAIT:
        log.warning("plurk %s: %s (flood control); retry %d in %.0fs",
                    what, exc.error_text, tries, delay)
    else:
        log.warning("plurk %s: %s; retry %d in %.1fs", what, exc, tries, delay)
