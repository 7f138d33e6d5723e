"""Small asyncio helpers: sleeps and awaits that give way to a stop event.

A comet poll is held open by Plurk for ~50 s and an anti-flood wait lasts
minutes; shutting the bot down must not wait for either.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")


async def sleep_or_stop(delay: float, stop: asyncio.Event) -> bool:
    """Sleep ``delay`` seconds; return True early if ``stop`` is set."""
    if stop.is_set():
        return True
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), timeout=max(0.0, delay))
    return stop.is_set()


class Stopped(Exception):
    """The stop event was set while waiting."""


def stoppable(stop: asyncio.Event) -> Callable[[float], Awaitable[None]]:
    """A sleep for the retry policy (adapters/retry.py) that gives way to ``stop``:
    it raises :class:`Stopped` once ``stop`` is set, ending the retries."""
    async def sleep(delay: float) -> None:
        if await sleep_or_stop(delay, stop):
            raise Stopped
    return sleep


async def until_stopped(awaitable: Awaitable[T], stop: asyncio.Event) -> T:
    """Await ``awaitable`` unless ``stop`` is set first (then cancel it, raise Stopped)."""
    task = asyncio.ensure_future(awaitable)
    stopper = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait({task, stopper}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopper.cancel()
    if task.done():
        return task.result()
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await task
    raise Stopped
