"""The object between nonebot's matcher and the core.

nonebot matchers are module-level and global to the process, while the core
and the settings belong to one ``serve`` call; the matcher therefore looks up
the *active* bridge, which ``serve`` (or a test) installs and removes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from nonebot.adapters.onebot.v11 import (
    Bot,
    FriendRequestEvent,
    GroupMessageEvent,
    GroupUploadNoticeEvent,
    MessageEvent,
)

from adapters.delivery import CoreAPI, take_over_forever
from adapters.onebot.convert import (
    PLATFORM,
    chatter_text,
    command_text,
    incoming_from_event,
    message_text,
)
from adapters.onebot.delivery import SEND_ERRORS, OneBotDelivery
from adapters.onebot.settings import OneBotSettings
from adapters.onebot.uploads import Uploads, fetch
from adapters.uploads import is_command, notice
from bot.messages import Incoming, Outgoing

log = logging.getLogger(__name__)


class OneBotBridge:
    """Hands QQ messages to the core and executes what it returns: commands (prefixed
    messages), and every other message for the game log (``handle_chatter``).

    Several QQ accounts may connect to one reverse WebSocket (nonebot serves each
    ``X-Self-ID`` as a bot of its own): each is answered through itself, its replies
    are stored in the outbox under its number (``Incoming.account``), and what a stop
    left of them is sent when that account connects again — never by another account,
    which QQ would post in a group it may not be in (docs/scaling.md). ``self_ids``
    (when set) are the accounts this process serves; another one's connection is
    ignored."""

    def __init__(self, core: CoreAPI, settings: OneBotSettings) -> None:
        self.core = core
        self.settings = settings
        self.tasks: set[asyncio.Task[None]] = set()
        self.bots: dict[str, Bot] = {}
        """The served QQ accounts connected now, by number."""
        self._take_over: dict[str, asyncio.Task[None]] = {}
        self.uploads = Uploads()
        """Files uploaded to a group, each for its uploader's next command."""

    def serves(self, bot: Bot) -> bool:
        """Whether this process answers for ``bot``'s account (``self_ids``; empty: all)."""
        return not self.settings.self_ids or str(bot.self_id) in self.settings.self_ids

    def on_connect(self, bot: Bot) -> None:
        """A QQ account connected: it is never a GM; send what the last run left in
        the outbox for it, and look for what a stopped process left, while connected."""
        account = str(bot.self_id)
        if not self.serves(bot):
            log.warning("QQ: account %s is not in TRPGBOT_ONEBOT__SELF_IDS; its messages "
                        "are ignored by this process", account)
            return
        self.core.set_bot_id(PLATFORM, account)
        self.bots[account] = bot
        task = asyncio.get_running_loop().create_task(self.resend_undelivered(bot))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        if account not in self._take_over:
            self._take_over[account] = asyncio.get_running_loop().create_task(
                take_over_forever(self.core, PLATFORM, self._deliver_taken_over(account),
                                  lambda: account in self.bots, account=account))

    def on_disconnect(self, bot: Bot) -> None:
        """A QQ account went away: it sends nothing more (a send would fail and drop
        the reply); its replies wait in the outbox until it connects again."""
        account = str(bot.self_id)
        if self.bots.get(account) is bot:
            del self.bots[account]

    def stop(self) -> None:
        """The server stops: no more looks for what another process left."""
        for task in self._take_over.values():
            task.cancel()
        self._take_over.clear()

    def _deliver_taken_over(self, account: str) -> Callable[[list[Outgoing]],
                                                             Awaitable[None]]:
        async def deliver(outs: list[Outgoing]) -> None:
            bot = self.bots.get(account)
            if bot is None:  # gone since they were taken: sent when it is back
                return
            await OneBotDelivery(bot, self.core, self.settings, None).deliver(outs)
        return deliver

    def command_text(self, event: MessageEvent) -> str | None:
        """The command in this event, ``None`` when it is ordinary chat."""
        return command_text(message_text(event.message, str(event.self_id)),
                            self.settings.command_prefixes)

    async def handle(self, bot: Bot, event: MessageEvent) -> None:
        text = self.command_text(event)
        if text is None or str(event.user_id) == str(bot.self_id) or not self.serves(bot):
            return
        incoming = incoming_from_event(event, text)
        incoming, notices = await self._with_upload(bot, event, incoming)
        outs = await self.core.handle(incoming)
        await OneBotDelivery(bot, self.core, self.settings, incoming).deliver([*notices, *outs])

    async def _with_upload(self, bot: Bot, event: MessageEvent,
                           incoming: Incoming) -> tuple[Incoming, list[Outgoing]]:
        """The command with the text file its sender uploaded to the group just before
        (adapters/onebot/uploads.py), fetched now; a file too large or not handed over
        is said so first, and the command runs without it — the upload came in a
        message of its own, and may not have been meant for this command."""
        if not isinstance(event, GroupMessageEvent) or not is_command(incoming.text):
            return incoming, []
        upload = self.uploads.take(incoming.channel, incoming.user)
        if upload is None:
            return incoming, []
        read = await fetch(bot, upload, self.settings.api_timeout)
        if isinstance(read, str):
            return incoming, [notice(self.core, PLATFORM, incoming.channel, read, upload.offer)]
        return replace(incoming, attachment=read), []

    def handle_upload(self, bot: Bot, event: GroupUploadNoticeEvent) -> None:
        """A file uploaded to a group: kept for its uploader's next command."""
        if str(event.user_id) != str(bot.self_id) and self.serves(bot):
            self.uploads.offer(event)

    async def handle_chatter(self, bot: Bot, event: MessageEvent) -> None:
        """A message that is no command: the core records it when its table keeps a game
        log (``.log on``), and answers nothing — at most the notice that the log reached
        its limit, sent without an @ of the speaker. Private chat reaches the core too,
        which records none of it. Nothing without text (a QQ face, voice) goes."""
        if self.command_text(event) is not None or str(event.user_id) == str(bot.self_id) \
                or not self.serves(bot):
            return
        text = chatter_text(event.message)
        if not text:
            return
        outs = await self.core.handle(incoming_from_event(event, text, "chatter"))
        if outs:
            await OneBotDelivery(bot, self.core, self.settings, None).deliver(outs)

    async def resend_undelivered(self, bot: Bot) -> None:
        """Replies committed before the last stop or crash but never sent: sent now that
        the QQ account that received their commands is connected again."""
        outs = await self.core.undelivered(PLATFORM, str(bot.self_id))
        if outs:
            log.warning("QQ: sending %d replies kept from before the last stop through "
                        "account %s", len(outs), bot.self_id)
            await OneBotDelivery(bot, self.core, self.settings, None).deliver(outs)

    async def handle_friend_request(self, bot: Bot, event: FriendRequestEvent) -> None:
        """Approve a friend request from a member of one of the bot's groups.

        Secret rolls reach a player privately only when they are the bot's friend.
        Anyone else's request (and every request when ``accept_friend_requests`` is
        off) is left pending for the operator to decide in the QQ client.
        """
        user = event.user_id
        if not self.serves(bot):
            return
        if not self.settings.accept_friend_requests:
            log.info("QQ: friend request from %s left to the operator (setting off)", user)
            return
        group = await shared_group(bot, user)
        if group is None:
            log.info("QQ: friend request from %s left to the operator: in none of the "
                     "bot's groups", user)
            return
        try:
            await event.approve(bot)
        except SEND_ERRORS as exc:
            log.warning("QQ: approving the friend request of %s failed: %r", user, exc)
            return
        log.info("QQ: accepted the friend request of %s (member of group %s)", user, group)


async def shared_group(bot: Bot, user_id: int) -> int | None:
    """A group of the bot that ``user_id`` is a member of, ``None`` if there is none.

    ``get_group_list`` once, then ``get_group_member_info`` per group until one
    answers with that member (implementations fail the call for a non-member);
    ``no_cache`` so that someone who just joined is found.
    """
    try:
        groups: Any = await bot.get_group_list()
    except SEND_ERRORS as exc:
        log.warning("QQ: get_group_list failed: %r", exc)
        return None
    for group in groups or []:
        group_id = group.get("group_id") if isinstance(group, dict) else None
        if group_id is None:
            continue
        try:
            member: Any = await bot.get_group_member_info(
                group_id=group_id, user_id=user_id, no_cache=True)
        except SEND_ERRORS:
            continue
        if isinstance(member, dict) and str(member.get("user_id")) == str(user_id):
            return int(group_id)
    return None


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
