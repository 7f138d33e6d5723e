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
from collections.abc import Awaitable, Callable

from bot.config import Settings
from bot.core import Core

log = logging.getLogger(__name__)

Serve = Callable[[Core, Settings, asyncio.Event], Awaitable[None]]


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


async def run(settings: Settings) -> None:
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

            await serve_console(core, settings.console.user, settings.console.channel)
            return
        log.warning("starting adapters: %s", ", ".join(adapters))
        tasks = [asyncio.create_task(serve(core, settings, stop), name=name)
                 for name, serve in adapters.items()]
        done, _ = await asyncio.wait(
            [*tasks, asyncio.create_task(stop.wait())], return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            if task in tasks and task.exception() is not None:
                log.error("adapter %s stopped: %r", task.get_name(), task.exception())
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        await core.close()
