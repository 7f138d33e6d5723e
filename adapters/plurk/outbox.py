"""Replies leave Plurk's adapter through one ordered outbox.

A worker posts them one after another, so a flood-control wait of minutes
never stops the listener, and the parts of one reply stay in order. What a
stop cuts off is parked in the database (the core already recorded those
commands as answered) and resumed at the next start.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from adapters.plurk.errors import ErrorKind, PlurkError
from adapters.plurk.sender import DeliveryFailed, PlurkSender
from bot.messages import Outgoing

log = logging.getLogger(__name__)

PLATFORM = "plurk"


@dataclass(frozen=True)
class Job:
    """One Outgoing to deliver, and the thread whose command produced it."""

    outgoing: Outgoing
    origin: int


class PlurkOutbox:
    def __init__(self, core: Any, sender: PlurkSender) -> None:
        self.core = core
        self.sender = sender
        self._queue: asyncio.Queue[Job | None] = asyncio.Queue()
        self._worker: asyncio.Task[None] | None = None
        self._stopping = False  # set once the bot must stop: unsent replies get parked
        self._unsent: list[Job] = []

    async def start(self) -> None:
        """Queue what the last run parked, then start posting."""
        for origin, out in await self.core.unpark(PLATFORM):
            await self.put(out, int(origin))
        self._worker = asyncio.create_task(self._deliver_all(), name="plurk-outbox")

    async def put(self, out: Outgoing, origin: int) -> None:
        await self._queue.put(Job(out, origin))

    async def close(self, grace: float, abort: asyncio.Event) -> None:
        """Post what is queued within ``grace`` seconds; then cut the sender short
        (``abort``) and park whatever is left for the next start."""
        await self._queue.put(None)
        if self._worker is not None:
            done, _ = await asyncio.wait({self._worker}, timeout=grace)
            if not done:
                self._stopping = True
                abort.set()
                await self._worker
        while not self._queue.empty():
            job = self._queue.get_nowait()
            if job is not None:
                self._unsent.append(job)
        if self._unsent:
            log.warning("plurk: %d replies kept for the next start", len(self._unsent))
            await self.core.park(PLATFORM, [(str(job.origin), job.outgoing)
                                            for job in self._unsent])
            self._unsent = []

    async def _deliver_all(self) -> None:
        while True:
            job = await self._queue.get()
            if job is None:
                return
            try:
                await self.deliver(job)
            except DeliveryFailed as exc:
                if self._stopping:
                    self._unsent.append(job)
                else:
                    log.error("plurk: a %s message was not delivered: %s",
                              job.outgoing.to, exc)
            except Exception:
                log.exception("plurk: delivery failed unexpectedly")

    async def deliver(self, job: Job) -> None:
        out = job.outgoing
        if out.to == "channel":
            if out.secret:
                log.error("plurk: refused to post a secret message to thread %s", job.origin)
                return
            await self.sender.reply(job.origin, out.text)  # the command's own thread
            return
        try:
            user_id = int(out.user or "")
        except ValueError:  # anonymous or foreign id: cannot be reached privately
            await self._private_failed(out, job.origin)
            return
        try:
            await self.sender.private(user_id, out.text)
        except (PlurkError, DeliveryFailed) as exc:
            if self._stopping:
                raise DeliveryFailed("stopped before delivery") from exc
            # "Must be friends", or still failing after the sender's retries: keep the
            # message for `.gm pending` rather than lose it, and say so in the thread.
            if getattr(exc, "kind", None) is not ErrorKind.MUST_BE_FRIENDS:
                log.error("plurk: private message to %s failed: %s", user_id, exc)
            await self._private_failed(out, job.origin)

    async def _private_failed(self, out: Outgoing, origin: int) -> None:
        """Hand the undeliverable secret back to the core; post its (secret-free) notice."""
        notices: Iterable[Outgoing] = await self.core.private_delivery_failed(PLATFORM, out)
        for notice in notices:
            if notice.to == "channel":
                await self.sender.reply(origin, notice.text)
