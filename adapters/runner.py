"""`trpgbot run`: every configured adapter in one process, one event loop, one core.

The adapters are the platform packages' plugins (adapters/plugin.py): the runner
starts those the configuration enables, and with none enabled the fallback (the
console chat, the embedded default). It names no platform.

SIGINT/SIGTERM set a stop event that every adapter watches, so shutdown is
clean: adapters finish what they are sending, then the database is closed.

While it runs, the operator's endpoint (adapters/ops.py: ``/healthz``, ``/metrics``)
shows the store, each adapter's connection and the counts, unless
``TRPGBOT_OPS__ENABLED=false``; the adapters report to it through adapters/watch.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import AsyncIterator

from adapters.backup import start_daily
from adapters.config import ServiceSettings
from adapters.ops import Ops, serving
from adapters.plugin import Adapter, plugins
from adapters.store_hold import opened
from adapters.watch import FAILED, report_state, watched_by
from bot.config import Settings
from bot.core import Core
from bot.heap import freeze_start_up

log = logging.getLogger(__name__)


def enabled_adapters(settings: Settings) -> dict[str, Adapter]:
    """The adapters the configuration enables, by platform (a platform's library is
    imported by its ``serve`` only, so only when that platform is used)."""
    return {platform: plugin for platform, plugin in plugins().items()
            if plugin.enabled(settings)}


def fallback() -> Adapter | None:
    """What runs when no adapter is enabled (the console)."""
    return next((plugin for plugin in plugins().values() if plugin.fallback), None)


async def run(settings: Settings) -> int:
    """Run until SIGINT/SIGTERM; the exit code is 1 if any adapter failed.

    An adapter that fails (bad token, port in use) is logged and the others keep
    serving their tables; the process ends when a signal arrives or no adapter is
    left, and then reports the failure so a supervisor can notice and restart.
    """
    adapters = enabled_adapters(settings)
    async with opened(settings) as core:
        freeze_start_up()
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(sig, stop.set)
        backups = start_daily(settings, stop)  # TRPGBOT_BACKUP__ENABLED (docs/operations.md)
        try:
            async with _watched(core, settings, adapters):
                if not adapters:
                    alone = fallback()
                    if alone is not None:
                        await alone.serve(core, settings, stop)
                    return 0
                log.info("starting adapters: %s", ", ".join(adapters))
                return await _supervise(core, settings, adapters, stop)
        finally:
            stop.set()
            if backups is not None:
                await backups  # a backup under way finishes before the store closes


@contextlib.asynccontextmanager
async def _watched(core: Core, settings: Settings,
                   adapters: dict[str, Adapter]) -> AsyncIterator[None]:
    """The operator's endpoint for the block, if the settings turn it on (the core's
    settings alone, without the service's part, run without it)."""
    if not isinstance(settings, ServiceSettings) or not settings.ops.enabled:
        yield
        return
    ops = Ops(core, adapters)
    with watched_by(ops):
        async with serving(ops, settings.ops):
            yield


async def _supervise(
    core: Core, settings: Settings, adapters: dict[str, Adapter], stop: asyncio.Event
) -> int:
    running: set[asyncio.Task[object]] = {
        asyncio.create_task(_served(plugin, core, settings, stop), name=name)
        for name, plugin in adapters.items()}
    stopping = asyncio.create_task(stop.wait())
    failed = False
    while running and not stop.is_set():
        done, running = await asyncio.wait(running | {stopping},
                                           return_when=asyncio.FIRST_COMPLETED)
        running.discard(stopping)
        for task in done - {stopping}:
            report_state(task.get_name(), FAILED)  # it serves no table any more
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


async def _served(plugin: Adapter, core: Core, settings: Settings, stop: asyncio.Event) -> None:
    await plugin.serve(core, settings, stop)
