"""``serve``: log in, connect, answer until ``stop`` is set, then close cleanly."""

from __future__ import annotations

import asyncio
import logging

from adapters.delivery import CoreAPI
from adapters.discord.client import TrpgDiscordClient
from adapters.discord.settings import discord_section
from adapters.discord.sync import RECORD_FILE
from adapters.logs import protect_secrets_in_logs
from bot.config import Settings

log = logging.getLogger(__name__)


async def serve(core: CoreAPI, settings: Settings, stop: asyncio.Event) -> None:
    """Run the bot until ``stop`` is set; a login failure (bad token) is raised.

    ``client.start`` reconnects by itself after network trouble, so it only
    returns or raises for good reasons; ``client.close`` ends it.
    """
    protect_secrets_in_logs()
    section = discord_section(settings)
    if section.token is None:
        raise RuntimeError("the Discord adapter is enabled but TRPGBOT_DISCORD__TOKEN is not set")
    record = settings.data_dir / RECORD_FILE
    async with TrpgDiscordClient(core, section, sync_record=record) as client:
        running = asyncio.create_task(client.start(section.token.get_secret_value()),
                                      name="discord-client")
        stopping = asyncio.create_task(stop.wait(), name="discord-stop")
        try:
            await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            stopping.cancel()
            await client.close()
            if not running.done():
                try:
                    await asyncio.wait_for(running, 10)
                except TimeoutError:
                    log.warning("the Discord client did not stop within 10 s")
        if running.done() and not running.cancelled():
            running.result()  # a login failure or another fatal error
        if not stop.is_set():
            raise RuntimeError("the Discord client stopped on its own")
