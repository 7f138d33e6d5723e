"""Discord through discord.py 2.x: slash commands, prefix commands, secrets by ephemeral/DM.

``serve(core, settings, stop)`` is what ``trpgbot run`` calls. The pieces:

- ``convert``: discord objects → ``Incoming``; escaping for Discord's markdown and
  message splitting.
- ``delivery``: executes the core's ``Outgoing`` list — the invoking user's
  private results as ephemeral messages (slash commands) or DMs (prefix
  commands), other users' (GMs') as DMs, failures reported to the channel.
- ``commands``: the slash commands, each translated into the text command the
  core understands; ``i18n``: their zh-Hant / zh-Hans / en names and descriptions,
  from the catalogs; ``sync``: syncing them only when they changed.
- ``client``: the ``discord.Client`` with its command tree and message handler.
- ``server``: ``serve``.
- ``settings``: its section of the configuration (``TRPGBOT_DISCORD__<FIELD>``).

``import discord`` inside this package is the discord.py library: absolute
imports resolve from the repository root, where this package is ``adapters.discord``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from adapters.discord.settings import SECTION, DiscordSettings
from adapters.plugin import AdapterPlugin
from bot.platforms import positive_integer_id

if TYPE_CHECKING:
    import asyncio

    from adapters.delivery import CoreAPI
    from bot.config import Settings

__all__ = ["PLUGIN", "serve"]


async def serve(core: CoreAPI, settings: Settings, stop: asyncio.Event) -> None:
    """Run the Discord adapter until ``stop`` is set (imports discord.py only when used)."""
    from adapters.discord.server import serve as _serve

    await _serve(core, settings, stop)


PLUGIN = AdapterPlugin("discord", SECTION, DiscordSettings, serve, positive_integer_id)
"""Discord: user ids are snowflakes (positive integers)."""
