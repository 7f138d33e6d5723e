"""nonebot inside the shared event loop: initialisation and the embedded uvicorn server.

``nonebot.run()`` would own the event loop (it calls ``uvicorn.run``), but
``trpgbot run`` runs every adapter in one loop. So we initialise nonebot, take
the fastapi driver's ASGI app and serve it with ``uvicorn.Server.serve()`` as a
task. uvicorn runs the app's lifespan, and the fastapi driver's lifespan is
nonebot's startup/shutdown hooks (adapter forward connections start on
"ready" and are cancelled on "shutdown"), so nothing of nonebot is bypassed.
Stopping = ``server.should_exit = True``: uvicorn closes the WebSocket
connections, waits for them (bounded), then runs the shutdown hooks.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Iterator
from typing import Any, ClassVar

import nonebot
import uvicorn
from nonebot.adapters import Bot as BaseBot
from nonebot.adapters.onebot.v11 import Adapter as OneBotV11Adapter
from nonebot.adapters.onebot.v11 import Bot as OneBotV11Bot
from nonebot.adapters.onebot.v11.config import Config as OneBotConfig
from nonebot.compat import type_validate_python
from nonebot.drivers import ASGIMixin, Driver, WebSocketClientMixin

from adapters.delivery import CoreAPI
from adapters.logs import protect_secrets_in_logs
from adapters.onebot import bridge
from adapters.onebot.settings import OneBotSettings, onebot_section
from adapters.watch import CONNECTED, WAITING, report_state
from bot.config import Settings

log = logging.getLogger(__name__)

PLUGIN_MODULE = "adapters.onebot.trpg_plugin"
#: Server side for the reverse WebSocket, client side for the forward one.
NONEBOT_DRIVER = "~fastapi+~websockets"
#: How long stop may wait for open connections before they are cut.
SHUTDOWN_GRACE_SECONDS = 5.0
LOOPBACK = ("127.0.0.1", "::1", "localhost")
LOGURU_SUCCESS = 25  # loguru's level between INFO and WARNING; logging has no name for it


def onebot_config(settings: OneBotSettings) -> OneBotConfig:
    """The adapter's own configuration, built from our settings.

    The token also becomes the HTTP signature secret: the adapter serves an HTTP
    event endpoint (``POST /onebot/v11/``) next to the WebSocket that checks only
    the signature, so without a secret anyone reaching the port could post fake
    messages in any player's name. We use WebSockets only; with a token set, an
    unsigned HTTP post is refused.
    """
    token = settings.access_token.get_secret_value() if settings.access_token else None
    return type_validate_python(
        OneBotConfig,
        {"onebot_access_token": token or None, "onebot_secret": token or None,
         "onebot_ws_urls": set(settings.ws_urls)},
    )


class TrpgOneBotAdapter(OneBotV11Adapter):
    """The OneBot v11 adapter, configured from ``Settings`` instead of nonebot's config.

    The access token never passes through nonebot's global config, which
    nonebot logs at DEBUG level ("Loaded Config: …").
    """

    configured: ClassVar[OneBotConfig] = OneBotConfig()

    def _setup(self) -> None:
        self.onebot_config = type(self).configured
        had_forward = bool(self.onebot_config.onebot_ws_urls)
        super()._setup()
        if not had_forward and isinstance(self.driver, WebSocketClientMixin):
            # Forward URLs given to a later serve() in the same process (tests) still start.
            self.on_ready(self._start_forward)

    def bot_connect(self, bot: BaseBot) -> None:
        super().bot_connect(bot)
        log.info("QQ: bot %s connected", bot.self_id)
        active = bridge.active()
        if active is not None and isinstance(bot, OneBotV11Bot):
            active.on_connect(bot)
        self._report(active)

    def bot_disconnect(self, bot: BaseBot) -> None:
        super().bot_disconnect(bot)
        log.info("QQ: bot %s disconnected", bot.self_id)
        active = bridge.active()
        if active is not None and isinstance(bot, OneBotV11Bot):
            active.on_disconnect(bot)
        self._report(active)

    def _report(self, active: bridge.OneBotBridge | None) -> None:
        """Connected while an account this process serves is (TRPGBOT_ONEBOT__SELF_IDS:
        another account's connection answers nothing here)."""
        served = active.bots if active is not None else self.bots
        report_state(bridge.PLATFORM, CONNECTED if served else WAITING)


def nonebot_init_kwargs(settings: Settings) -> dict[str, Any]:
    """What ``nonebot.init`` gets (also used by the tests' nonebug configuration).

    ``_env_file=(os.devnull,)`` keeps nonebot from reading our ``.env``: it would
    load every ``TRPGBOT_*`` line, tokens included, into its config. The access
    token is not here either (see ``TrpgOneBotAdapter``).
    """
    section = onebot_section(settings)
    return {
        "_env_file": (os.devnull,),
        "driver": NONEBOT_DRIVER,
        "host": section.host,
        "port": section.port,
        "log_level": settings.log_level,
        "api_timeout": section.api_timeout,
        "command_start": {""},
        "fastapi_openapi_url": None,
        "fastapi_docs_url": None,
        "fastapi_redoc_url": None,
    }


def route_nonebot_logs() -> None:
    """Send nonebot's loguru output to the standard ``logging`` tree (logger
    ``nonebot``), so that ``trpgbot run`` has one log stream, one format and one
    level instead of nonebot printing to stdout on its own."""
    from nonebot.log import default_filter, logger, logger_id

    def to_logging(message: Any) -> None:
        record = message.record
        error = record["exception"]
        level = record["level"].no
        logging.getLogger("nonebot").log(
            logging.INFO if level == LOGURU_SUCCESS else level, "%s", record["message"],
            exc_info=(error.type, error.value, error.traceback) if error else None)

    with contextlib.suppress(ValueError):  # already removed
        logger.remove(logger_id)
    logger.add(to_logging, level=0, filter=default_filter, format="{message}")


def ensure_nonebot(settings: Settings) -> Driver:
    """Initialise nonebot once per process and return its (ASGI) driver."""
    try:
        driver = nonebot.get_driver()
    except ValueError:
        route_nonebot_logs()
        nonebot.init(**nonebot_init_kwargs(settings))
        driver = nonebot.get_driver()
    else:
        driver.config.api_timeout = onebot_section(settings).api_timeout
    if not isinstance(driver, ASGIMixin):
        raise RuntimeError(f"nonebot driver {driver.type!r} cannot serve the reverse WebSocket")
    return driver


def lifespan_running(driver: Driver) -> bool:
    """Whether nonebot's startup hooks already ran and its shutdown has not (nonebug
    does that for a whole test session); uvicorn must not start them a second time."""
    lifespan = getattr(driver, "_lifespan", None)
    return getattr(lifespan, "_task_group", None) is not None


def ensure_adapter(driver: Driver, settings: OneBotSettings) -> OneBotV11Adapter:
    """Register the adapter (or reconfigure the one registered by an earlier serve)."""
    config = onebot_config(settings)
    TrpgOneBotAdapter.configured = config
    try:
        adapter = nonebot.get_adapter(OneBotV11Adapter)
    except ValueError:
        driver.register_adapter(TrpgOneBotAdapter)
        adapter = nonebot.get_adapter(OneBotV11Adapter)
    adapter.onebot_config = config
    if config.onebot_ws_urls and not isinstance(driver, WebSocketClientMixin):
        log.warning("nonebot driver %s cannot dial forward WebSockets; ws_urls ignored",
                    driver.type)
    return adapter


def ensure_plugin() -> None:
    """Load the matcher plugin unless an earlier serve already did."""
    if nonebot.get_plugin_by_module_name(PLUGIN_MODULE) is None:
        nonebot.load_plugin(PLUGIN_MODULE)


class EmbeddedServer(uvicorn.Server):
    """uvicorn without signal handling: ``trpgbot run`` owns SIGINT/SIGTERM and tells
    every adapter through ``stop``; uvicorn's own handlers would replace the runner's."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield

    def install_signal_handlers(self) -> None:  # uvicorn < 0.29
        return None


def _ws_protocol() -> str:
    """uvicorn's sans-I/O websockets protocol when it has one (no deprecation warnings
    with websockets >= 14), else its default."""
    from uvicorn.config import WS_PROTOCOLS

    return "websockets-sansio" if "websockets-sansio" in WS_PROTOCOLS else "auto"


def uvicorn_config(app: Any, settings: OneBotSettings) -> uvicorn.Config:
    return uvicorn.Config(
        app,
        host=settings.host,
        port=settings.port,
        lifespan="on",
        ws=_ws_protocol(),
        log_config=None,  # keep the application's logging configuration
        access_log=False,
        timeout_graceful_shutdown=int(SHUTDOWN_GRACE_SECONDS),
    )


async def _serve_uvicorn(server: uvicorn.Server) -> None:
    """``server.serve()``, with uvicorn's ``sys.exit`` on start-up failure (port in use,
    failing startup hook) turned into an ordinary error: a ``SystemExit`` escaping a
    task would stop the whole event loop, every other adapter included."""
    try:
        await server.serve()
    except SystemExit as exc:
        raise RuntimeError(
            f"OneBot server could not start on {server.config.host}:{server.config.port} "
            f"(uvicorn exit {exc.code})"
        ) from None


async def serve(core: CoreAPI, settings: Settings, stop: asyncio.Event) -> None:
    """Serve ``/onebot/v11/ws`` (and dial ``ws_urls``) until ``stop`` is set."""
    protect_secrets_in_logs()
    section = onebot_section(settings)
    if section.access_token is None and section.host not in LOOPBACK:
        log.warning("the OneBot endpoint listens on %s without an access token: anyone who "
                    "can reach it can speak as any QQ user", section.host)
    driver = ensure_nonebot(settings)
    assert isinstance(driver, ASGIMixin)  # ensure_nonebot refuses any other driver
    ensure_adapter(driver, section)
    ensure_plugin()
    active = bridge.OneBotBridge(core, section)
    bridge.install(active)
    config = uvicorn_config(driver.asgi, section)
    if lifespan_running(driver):
        log.warning("nonebot's lifespan is already running; serving without it "
                    "(forward WebSocket connections will not start)")
        config.lifespan = "off"
    server = EmbeddedServer(config)
    server_task = asyncio.create_task(_serve_uvicorn(server), name="onebot-uvicorn")
    stop_task = asyncio.create_task(stop.wait(), name="onebot-stop")
    log.info("OneBot v11 reverse WebSocket on ws://%s:%s/onebot/v11/ws",
             section.host, section.port)
    try:
        await asyncio.wait({server_task, stop_task}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stop_task.cancel()
        server.should_exit = True
        try:
            await asyncio.wait_for(asyncio.shield(server_task), SHUTDOWN_GRACE_SECONDS * 2)
        except TimeoutError:
            server.force_exit = True
            with contextlib.suppress(Exception):
                await asyncio.wait_for(server_task, SHUTDOWN_GRACE_SECONDS)
        except Exception:
            pass  # reported below from server_task.result()
        active.stop()
        bridge.uninstall(active)
    if server_task.done() and not server_task.cancelled():
        server_task.result()  # re-raise a start-up failure
        if not stop.is_set():
            raise RuntimeError("OneBot server stopped on its own")
