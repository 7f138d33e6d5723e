"""QQ's side of the group controls (`.bot`, `.dismiss`, `.ban`; bot/controls.py).

- Who runs a group: OneBot v11 reports the sender's ``role`` (``owner`` / ``admin`` /
  ``member``) with every group message; an owner or admin has a GM's say over the
  group controls (``Incoming.channel_admin``).
- Leaving: ``set_group_leave`` (OneBot v11, "api": ``group_id``, ``is_dismiss``),
  never with ``is_dismiss`` true — a bot that owns its group would dissolve it.
"""

from __future__ import annotations

from nonebot.adapters.onebot.v11 import Bot, GroupMessageEvent, MessageEvent

ADMIN_ROLES = ("owner", "admin")


def group_admin(event: MessageEvent) -> bool:
    """Whether the sender of a group message is its owner or an admin."""
    sender = event.sender
    return isinstance(event, GroupMessageEvent) and sender is not None \
        and sender.role in ADMIN_ROLES


async def leave_group(bot: Bot, channel: str) -> None:
    """Leave the group ``channel`` (a ``dm:`` pseudo-channel has none to leave)."""
    if channel.isdigit():
        await bot.call_api("set_group_leave", group_id=int(channel), is_dismiss=False)
