"""The realtime feed: Plurk's comet long poll, with resync and reconnect.

``Realtime/getUserChannel`` gives a ``comet_server`` URL that already carries
``offset=N``; the watcher starts from that offset and replaces its value as
``new_offset`` advances. A poll returns ``CometChannel.scriptCallback({...});``
after up to ~50 s. ``new_offset`` -1 means nothing new (poll again with the
same offset), -3 that the offset is lost (get the channel again), any other
value is the next offset and ``data`` holds the events (``new_plurk``,
``new_response``, ...). The first -3 resubscribes at once; when -3 comes back
before any poll has worked, the resubscriptions back off like a reconnect
(``base_delay`` doubling up to ``max_delay``), never a tight loop. A fatal
refusal of ``getUserChannel`` (bad keys: ``401NN:…``) is raised.

Whenever the feed may have skipped events — the first subscription, a resync,
a reconnect after an error — the watcher yields a batch with ``gap=True`` so
the listener runs its catch-up over ``Alerts/getHistory``. It yields the gap
right after subscribing, assuming (unconfirmed) that a new channel buffers
events from offset 0, so nothing falls between catch-up and the first poll.
After a reconnect it yields a gap once more with the first poll that works: what
was said while the feed was down (even on a channel subscribed during the outage)
is fetched then, before that poll's events.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from yarl import URL

from adapters.plurk.aio import Stopped, sleep_or_stop, stoppable, until_stopped
from adapters.plurk.errors import PlurkError
from adapters.retry import Backoff, retrying

log = logging.getLogger(__name__)

OFFSET_NOTHING_NEW = -1
OFFSET_RESYNC = -3

_CALLBACK = re.compile(r"^\s*CometChannel\.scriptCallback\((.*)\)\s*;?\s*$", re.DOTALL)


class CometClient(Protocol):
    async def get_user_channel(self) -> dict[str, Any]: ...

    async def poll_comet(self, comet_url: str, offset: int) -> str: ...


def parse_comet_body(body: str) -> dict[str, Any]:
    """Decode ``CometChannel.scriptCallback({...});`` (or bare JSON) to a dict."""
    match = _CALLBACK.match(body)
    payload = match.group(1) if match else body
    data = json.loads(payload)
    if not isinstance(data, dict):
        raise ValueError("comet payload is not an object")
    return data


@dataclass
class CometBatch:
    """Events of one poll; ``gap`` says the feed may have missed some before them."""

    events: list[dict[str, Any]] = field(default_factory=list)
    gap: bool = False


def offset_in(comet_url: str) -> int:
    """The ``offset`` the ``comet_server`` URL carries (0 when absent or unreadable)."""
    try:
        return int(URL(comet_url).query.get("offset", "0"))
    except ValueError:
        return 0


class CometWatcher:
    """Turns the comet long poll into a stream of :class:`CometBatch`."""

    def __init__(
        self,
        client: CometClient,
        *,
        base_delay: float = 2.0,
        max_delay: float = 300.0,
    ) -> None:
        self.client = client
        self.backoff = Backoff(base_delay, max_delay)
        """Reconnects and repeated resyncs (adapters/retry.py); never gives up."""
        self.subscriptions = 0  # how many times getUserChannel succeeded (for tests/logs)

    async def batches(self, stop: asyncio.Event) -> AsyncIterator[CometBatch]:
        """Yield batches until ``stop`` is set. Never raises for Plurk trouble."""
        url: str | None = None
        offset = 0
        resyncs = 0  # -3 answers since the last poll that worked
        failed = False  # a call failed since the last poll that worked: the feed was down

        async def answer() -> dict[str, Any] | None:
            """Subscribe (None) when there is no channel, else the next poll's payload;
            a failure drops the channel, so the retry subscribes again."""
            nonlocal url, offset, failed
            try:
                if url is None:
                    channel = await until_stopped(self.client.get_user_channel(), stop)
                    url = str(channel["comet_server"])
                    offset = offset_in(url)
                    self.subscriptions += 1
                    log.info("plurk comet: subscribed (subscription %d)", self.subscriptions)
                    return None
                return parse_comet_body(await until_stopped(
                    self.client.poll_comet(url, offset), stop))
            except (PlurkError, ValueError, KeyError, TypeError):
                url = None
                failed = True
                raise

        while not stop.is_set():
            try:
                # consecutive failures back off; a subscription or a poll that works
                # ends the call, and so starts the next failure at ``base_delay`` again
                payload = await retrying(
                    answer, self._reconnect, sleep=stoppable(stop),
                    on_wait=lambda exc, _, delay: log.warning(
                        "plurk comet: %s; reconnecting in %.1fs", _describe(exc), delay))
            except Stopped:
                return
            if payload is None:
                yield CometBatch([], gap=True)
                continue
            new_offset = payload.get("new_offset", OFFSET_NOTHING_NEW)
            if new_offset == OFFSET_RESYNC:
                resyncs += 1
                url = None
                if resyncs == 1:
                    log.info("plurk comet: resync requested")
                    continue
                delay = self.backoff.delay(resyncs - 1)
                log.warning("plurk comet: resync requested again; waiting %.1fs", delay)
                if await sleep_or_stop(delay, stop):
                    return
                continue
            resyncs = 0
            back, failed = failed, False
            events: list[dict[str, Any]] = []
            if isinstance(new_offset, int) and new_offset >= 0:
                offset = new_offset
                events = [event for event in payload.get("data") or [] if isinstance(event, dict)]
            # else -1 (nothing new) or an unknown negative code: poll again
            if back:  # the feed works again: what happened while it was down comes first
                yield CometBatch(events, gap=True)
            elif events:
                yield CometBatch(events)

    def _reconnect(self, exc: BaseException) -> Backoff | None:
        """A failed subscription or poll is retried, but for a fatal refusal (bad keys)."""
        if isinstance(exc, PlurkError):
            return None if exc.is_fatal else self.backoff
        return self.backoff if isinstance(exc, ValueError | KeyError | TypeError) else None


def _describe(exc: BaseException) -> str:
    if isinstance(exc, PlurkError):
        return str(exc)
    return f"bad comet answer ({type(exc).__name__})"
