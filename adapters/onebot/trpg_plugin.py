"""The nonebot plugin: a matcher that passes prefixed messages (commands) to the active
bridge, one that passes every other message to it (for the game log), one that passes
friend requests to it, and one that passes group file uploads to it.

Load it with ``nonebot.load_plugin("adapters.onebot.trpg_plugin")`` (as
``server.ensure_plugin`` does); importing it directly first makes nonebot
refuse to load it as a plugin.
"""

from __future__ import annotations

from nonebot import on_message, on_notice, on_request
from nonebot.adapters.onebot.v11 import (
    Bot,
    FriendRequestEvent,
    GroupUploadNoticeEvent,
    MessageEvent,
)
from nonebot.plugin import PluginMetadata
from nonebot.rule import Rule

from adapters.onebot import bridge

__plugin_meta__ = PluginMetadata(
    name="trpgbot",
    description="TRPG dice and table commands (.r, .rh, .ra, .st, .gm, …)",
    usage="send .help in a group or in private",
    type="application",
    supported_adapters={"~onebot.v11"},
)


async def _is_trpg_command(event: MessageEvent) -> bool:
    """Group and private messages that start with a command prefix, and nothing else."""
    active = bridge.active()
    return active is not None and active.command_text(event) is not None


#: ``block=True``: a TRPG command is not also offered to other plugins' matchers.
trpg_command = on_message(rule=Rule(_is_trpg_command), priority=10, block=True)


@trpg_command.handle()
async def _handle_command(bot: Bot, event: MessageEvent) -> None:
    active = bridge.active()
    if active is not None:
        await active.handle(bot, event)


async def _is_chatter(event: MessageEvent) -> bool:
    """Every other group and private message (the game log records the group's)."""
    active = bridge.active()
    return active is not None and active.command_text(event) is None


#: ``block=False``: chatter goes to the core for the game log and is still offered to
#: every other plugin's matchers. Same priority as ``trpg_command``: nonebot runs the
#: matchers of one priority together, and the two rules never both pass, so a message
#: reaches the core once.
trpg_chatter = on_message(rule=Rule(_is_chatter), priority=10, block=False)


@trpg_chatter.handle()
async def _handle_chatter(bot: Bot, event: MessageEvent) -> None:
    active = bridge.active()
    if active is not None:
        await active.handle_chatter(bot, event)


#: Friend requests (see ``OneBotBridge.handle_friend_request``); other requests pass by.
friend_request = on_request(priority=10, block=False)


@friend_request.handle()
async def _handle_friend_request(bot: Bot, event: FriendRequestEvent) -> None:
    active = bridge.active()
    if active is not None:
        await active.handle_friend_request(bot, event)


#: Group file uploads (``notice.group_upload``): kept for the uploader's next command (a
#: deck for `.js deck file`); other notices pass by, and other plugins still see these.
group_upload = on_notice(priority=10, block=False)


@group_upload.handle()
async def _handle_group_upload(bot: Bot, event: GroupUploadNoticeEvent) -> None:
    active = bridge.active()
    if active is not None:
        active.handle_upload(bot, event)
