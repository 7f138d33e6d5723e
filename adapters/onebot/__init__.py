"""QQ through nonebot2 and the OneBot v11 protocol (NapCat, Lagrange.OneBot, …).

``serve(core, settings, stop)`` is what ``trpgbot run`` calls. The package is
split so that each piece can be tested on its own:

- ``convert``: OneBot events → ``Incoming`` (``at`` segments → ``<@qq>``); text →
  message segments with links defused; splitting.
- ``delivery``: executes the core's ``Outgoing`` list through OneBot actions,
  including the non-friend fallback for private messages.
- ``bridge``: the object the nonebot matchers talk to (core + settings); it also
  decides friend requests.
- ``trpg_plugin``: the nonebot plugin with the message and friend-request matchers.
  It is loaded with ``nonebot.load_plugin`` and must not be imported directly
  before that.
- ``server``: nonebot initialisation and the embedded uvicorn server.
- ``settings``: its section of the configuration (``TRPGBOT_ONEBOT__<FIELD>``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from adapters.onebot.settings import SECTION, OneBotSettings
from adapters.plugin import AdapterPlugin
from bot.platforms import positive_integer_id

if TYPE_CHECKING:
    import asyncio

    from adapters.delivery import CoreAPI
    from bot.config import Settings

__all__ = ["PLUGIN", "serve"]


async def serve(core: CoreAPI, settings: Settings, stop: asyncio.Event) -> None:
    """Run the QQ adapter until ``stop`` is set (imports nonebot only when used)."""
    from adapters.onebot.server import serve as _serve

    await _serve(core, settings, stop)


PLUGIN = AdapterPlugin("qq", SECTION, OneBotSettings, serve, positive_integer_id)
"""QQ through OneBot: the platform is ``qq`` (what stored channels carry), its settings
``TRPGBOT_ONEBOT__*``; QQ numbers are positive integers."""
