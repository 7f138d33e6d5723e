"""The Plurk adapter: answers ``@bot`` commands in plurk threads.

``serve(core, settings, stop)`` is what the runner calls; the listener module
is imported lazily so that the client, parser and auth flow can be used (and
tested) on their own.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from adapters.plugin import AdapterPlugin
from adapters.plurk.settings import PlurkSettings
from bot.platforms import positive_integer_id

if TYPE_CHECKING:
    from bot.config import Settings
    from bot.core import Core


async def serve(core: Core, settings: Settings | PlurkSettings, stop: asyncio.Event) -> None:
    """Run the Plurk adapter until ``stop`` is set (see adapters/plurk/listener.py)."""
    from adapters.plurk.listener import serve as _serve

    await _serve(core, settings, stop)


PLUGIN = AdapterPlugin("plurk", "plurk", PlurkSettings, serve, positive_integer_id)
"""Plurk: user ids are positive integers (``0`` in a private plurk's recipient list
means all the bot's friends)."""
