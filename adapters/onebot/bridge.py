"""The object between nonebot's matcher and the core.

nonebot matchers are module-level and global to the process, while the core
and the settings belong to one ``serve`` call; the matcher therefore looks up
the *active* bridge, which ``serve`` (or a test) installs and removes.
"""

from __future__ import annotations

import logging

from nonebot.adapters.onebot.v11 import Bot, MessageEvent

from adapters.delivery import CoreAPI
from adapters.onebot.convert import command_text, incoming_from_event
from adapters.onebot.delivery import OneBotDelivery
from bot.config.onebot import OneBotSettings

log = logging.getLogger(__name__)


class OneBotBridge:
    """Hands prefixed QQ messages to the core and executes what it returns."""

    def __init__(self, core: CoreAPI, settings: OneBotSettings) -> None:
        self.core = core
        self.settings = settings

    def command_text(self, event: MessageEvent) -> str | None:
        """The command in this event, ``None`` when it is ordinary chat."""
        return command_text(event.get_plaintext(), self.settings.command_prefixes)

    async def handle(self, bot: Bot, event: MessageEvent) -> None:
        text = self.command_text(event)
        if text is None or str(event.user_id) == str(bot.self_id):
            return
        incoming = incoming_from_event(event, text)
        outs = await self.core.handle(incoming)
        await OneBotDelivery(bot, self.core, self.settings, incoming).deliver(outs)


_active: OneBotBridge | None = None


def install(bridge: OneBotBridge) -> None:
    """Make ``bridge`` the one the matcher uses (one ``serve`` per process)."""
    global _active
    if _active is not None and _active is not bridge:
        log.warning("replacing an active OneBot bridge; was serve() started twice?")
    _active = bridge


def uninstall(bridge: OneBotBridge) -> None:
    global _active
    if _active is bridge:
        _active = None


def active() -> OneBotBridge | None:
    return _active
