"""Helpers of the QQ adapter tests: settings on a free loopback port, and a real
Core with ``serve`` running as a task (what ``trpgbot run`` does)."""

from __future__ import annotations

import asyncio
import socket
from dataclasses import dataclass
from pathlib import Path

from adapters.config import Settings
from adapters.onebot.settings import OneBotSettings
from bot.core import Core
from rules.dice.source import DiceSource

TOKEN = "test-onebot-token"  # a fake one


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def onebot_settings(tmp_path: Path, **onebot: object) -> Settings:
    fields: dict[str, object] = {"enabled": True, "host": "127.0.0.1", "port": free_port(),
                                 "access_token": TOKEN, "api_timeout": 3.0, **onebot}
    return Settings(_env_file=None, data_dir=tmp_path, onebot=OneBotSettings(**fields))


@dataclass
class RunningBot:
    settings: Settings
    core: Core
    stop: asyncio.Event
    task: asyncio.Task[None]

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.settings.onebot.port}/onebot/v11/ws"


async def start_bot(settings: Settings, dice: DiceSource | None = None) -> RunningBot:
    """A real Core on a temporary SQLite file, and ``serve`` running as a task."""
    from adapters.onebot import serve

    core = await Core.open(settings, dice=dice)
    stop = asyncio.Event()
    task = asyncio.create_task(serve(core, settings, stop))
    return RunningBot(settings, core, stop, task)


async def stop_bot(running: RunningBot) -> None:
    """Set ``stop`` and require ``serve`` to return promptly (then close the core)."""
    running.stop.set()
    try:
        await asyncio.wait_for(running.task, 15)
    finally:
        await running.core.close()




async def wait_listening(running: RunningBot, timeout: float = 10.0) -> None:
    """Return once the bot's server accepts TCP connections (or ``serve`` ended)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not running.task.done():
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", running.settings.onebot.port)
        except OSError:
            if loop.time() > deadline:
                raise
            await asyncio.sleep(0.02)
            continue
        writer.close()
        await writer.wait_closed()
        return
