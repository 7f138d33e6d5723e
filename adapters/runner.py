"""`trpgbot run`: every configured adapter in one process, one event loop, one core.

With nothing enabled it opens the console chat, the embedded default.
SIGINT/SIGTERM set a stop event that every adapter watches, so shutdown is
clean: adapters finish what they are sending, then the database is closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Callable, Coroutine
from typing import Any

from bot.config import Settings
from bot.core import Core

log = logging.getLogger(__name__)

Serve = Callable[[Core, Settings, asyncio.Event], Coroutine[Any, Any, None]]


def enabled_adapters(settings: Settings) -> dict[str, Serve]:
    """The `serve` functions of the adapters the configuration enables (imported lazily,
    so a platform's library is only loaded when that platform is used)."""
    chosen: dict[str, Serve] = {}
    if settings.onebot.enabled:
        from adapters.onebot import serve as serve_onebot

        chosen["qq"] = serve_onebot
    if settings.discord.enabled:
        from adapters.discord import serve as serve_discord

        chosen["discord"] = serve_discord
    if settings.plurk.enabled:
        from adapters.plurk import serve as serve_plurk

        chosen["plurk"] = serve_plurk
    return chosen


async def run(settings: Settings) -> int:
    """Run until SIGINT/SIGTERM; the exit code is 1 if any adapter failed.

    An adapter that fails (bad token, port in use) is logged and the others keep
    serving their tables; the process ends when a signal arrives or no adapter is
    left, and then reports the failure so a supervisor can notice and restart.
    """
    adapters = enabled_adapters(settings)
    core = await Core.open(settings)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    try:
        if not adapters:
            from adapters.console import serve_console

            await serve_console(core, settings.console.user, settings.console.channel,
                                stop=stop)
            return 0
        log.warning("starting adapters: %s", ", ".join(adapters))
        return await _supervise(core, settings, adapters, stop)
    finally:
        await core.close()


async def _supervise(
    core: Core, settings: Settings, adapters: dict[str, Serve], stop: asyncio.Event
) -> int:
    running: set[asyncio.Task[object]] = {
        asyncio.create_task(serve(core, settings, stop), name=name)
        for name, serve in adapters.items()}
    stopping = asyncio.create_task(stop.wait())
    failed = False
    while running and not stop.is_set():
        done, running = await asyncio.wait(running | {stopping},
                                           return_when=asyncio.FIRST_COMPLETED)
        running.discard(stopping)
        for task in done - {stopping}:
            if task.exception() is not None:
                failed = True
                log.error("adapter %s failed: %r; the others keep running",
                          task.get_name(), task.exception())
            else:
                log.warning("adapter %s stopped", task.get_name())
    stop.set()
    for task, result in zip(running, await asyncio.gather(*running, return_exceptions=True),
                            strict=True):
        if isinstance(result, BaseException):
            failed = True
            log.error("adapter %s failed while stopping: %r", task.get_name(), result)
    stopping.cancel()
    return 1 if failed else 0
