"""The operator's HTTP endpoint of `trpgbot run`: ``GET /healthz`` and ``GET /metrics``
(docs/operations.md, "Health and metrics"), on ``TRPGBOT_OPS__HOST`` /
``TRPGBOT_OPS__PORT`` (aiohttp's server, in the bot's own event loop).

``/healthz`` answers JSON — ``status`` (``ok`` / ``degraded``), ``store`` (``ok`` /
``unreachable``), each enabled adapter's state (adapters/watch.py) and the replies
waiting in the outbox — with 200 while the store answers and no adapter has failed
(one waiting for its connection or reconnecting is no failure: the platform or its
peer is away, not the bot), else 503, so that a supervisor restarts a bot that
cannot serve. ``/metrics`` is Prometheus' text format (adapters/metrics.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Iterable

from aiohttp import web
from prometheus_client.aiohttp import make_aiohttp_handler

from adapters.config import OpsSettings
from adapters.metrics import Metrics
from adapters.watch import CONNECTED, FAILED, WAITING, State
from bot.core import Core

log = logging.getLogger(__name__)

STORE_TIMEOUT = 5.0
"""Seconds the store may take to answer a health check before it counts as unreachable."""


class Ops:
    """What the endpoint shows of one run: a :class:`adapters.watch.Watcher` (the
    adapters' states and replies) and the core's commands, as metrics."""

    def __init__(self, core: Core, platforms: Iterable[str]) -> None:
        self.core = core
        self.states: dict[str, State] = dict.fromkeys(platforms, WAITING)
        self.metrics = Metrics(core.writer, self.states)
        core.watch_commands(self.metrics.command)

    # --- adapters.watch.Watcher ------------------------------------------------------
    def adapter_state(self, platform: str, state: State) -> None:
        self.states[platform] = state
        self.metrics.connected.labels(platform).set(state == CONNECTED)

    def reply(self, platform: str, *, sent: bool) -> None:
        counter = self.metrics.replies_sent if sent else self.metrics.replies_failed
        counter.labels(platform).inc()

    # --- the endpoint ----------------------------------------------------------------
    async def _outbox(self) -> tuple[int, float | None] | None:
        """The outbox's depth and oldest age, also set in the metrics; None when the
        store does not answer."""
        try:
            pending, oldest = await asyncio.wait_for(self.core.outbox_depth(), STORE_TIMEOUT)
        except Exception as exc:
            log.warning("health check: the store does not answer: %r", exc)
            return None
        self.metrics.outbox(pending, oldest)
        return pending, oldest

    async def healthz(self, _request: web.Request) -> web.Response:
        outbox = await self._outbox()
        healthy = outbox is not None and FAILED not in self.states.values()
        return web.json_response({
            "status": "ok" if healthy else "degraded",
            "store": "ok" if outbox is not None else "unreachable",
            "adapters": self.states,
            "outbox_pending": outbox[0] if outbox is not None else None,
        }, status=200 if healthy else 503)

    def app(self) -> web.Application:
        scrape = make_aiohttp_handler(self.metrics.registry)

        async def metrics(request: web.Request) -> web.StreamResponse:
            await self._outbox()  # the outbox gauges as of this scrape
            return await scrape(request)
        app = web.Application()
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/metrics", metrics)
        return app


@contextlib.asynccontextmanager
async def serving(ops: Ops, settings: OpsSettings) -> AsyncIterator[None]:
    """Serve ``ops`` on the configured address within the block. A port that cannot be
    bound is logged, and the bot runs without the endpoint rather than not at all."""
    runner = web.AppRunner(ops.app(), access_log=None)  # a probe every few s: no log line
    await runner.setup()
    try:
        try:
            await web.TCPSite(runner, settings.host, settings.port).start()
        except OSError as exc:
            log.error("health and metrics endpoint: cannot listen on %s:%s: %s",
                      settings.host, settings.port, exc)
        else:
            log.info("health and metrics on http://%s:%s/healthz and /metrics",
                     settings.host, settings.port)
        yield
    finally:
        await runner.cleanup()
