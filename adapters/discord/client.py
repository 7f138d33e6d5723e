"""The discord.py client: slash commands on a ``CommandTree`` and prefix commands
in messages, both answered through ``delivery``."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from adapters.delivery import CoreAPI, take_over_forever
from adapters.discord.commands import build_commands, core_knows
from adapters.discord.convert import (
    PLATFORM,
    bot_account,
    chatter_text,
    command_text,
    escape_markdown,
    incoming_from_message,
    offered_file,
    read_offered,
)
from adapters.discord.delivery import DiscordDelivery, MessageOrigin
from adapters.discord.i18n import CommandTranslator, reply
from adapters.discord.settings import DiscordSettings
from adapters.discord.sync import SyncRecord, sync_commands
from adapters.uploads import is_command, notice
from adapters.watch import CONNECTED, report_state
from bot.messages import Incoming, Outgoing

log = logging.getLogger(__name__)

# The bot has no voice features: skip discord.py's start-up warnings about voice libraries.
discord.VoiceClient.warn_nacl = False
discord.VoiceClient.warn_dave = False


#: Messages people write (a reply too); not the system messages of a channel.
CHAT_TYPES = (discord.MessageType.default, discord.MessageType.reply)


def intents_for(settings: DiscordSettings) -> discord.Intents:
    """The default intents, plus Message Content when prefix commands in servers, and
    chatter in the game log, are wanted (privileged: it must also be switched on in the
    developer portal)."""
    intents = discord.Intents.default()
    intents.message_content = settings.message_content
    return intents


def shards_of(settings: DiscordSettings) -> dict[str, Any]:
    """``shard_ids=`` when the settings name them (discord.py's default: all)."""
    return {} if settings.shard_ids is None else {"shard_ids": settings.shard_ids}


class TrpgDiscordClient(discord.AutoShardedClient):
    """discord.py's ``AutoShardedClient``: the shards ``shard_ids`` of ``shard_count``
    (settings; unset: as many as Discord recommends, all here) on one client, so several
    processes can share a bot past Discord's 2,500 servers a shard (docs/scaling.md).
    Its REST calls need no shard: any process may send any reply of the bot."""

    def __init__(self, core: CoreAPI, settings: DiscordSettings, *,
                 known: Callable[[str], bool] | None = core_knows,
                 sync_record: Path | None = None, **options: Any) -> None:
        """``sync_record``: where the hash of the last command sync is kept
        (``adapters.discord.sync``); ``None`` syncs at every start."""
        super().__init__(intents=intents_for(settings),
                         allowed_mentions=discord.AllowedMentions.none(),
                         shard_count=settings.shard_count, **shards_of(settings),
                         **options)
        self.core = core
        self.settings = settings
        self.tree = app_commands.CommandTree(self)
        self.sync_record = SyncRecord(sync_record)
        self._resent = False
        self._take_over: asyncio.Task[None] | None = None
        self.tree.error(self.on_command_error)
        for command in build_commands(known):
            self.tree.add_command(command)

    async def setup_hook(self) -> None:
        """Runs once after login, before the gateway connects: register the
        translations and sync the commands if they changed since the last sync — in
        the process that runs shard 0 only (``DiscordSettings.syncs_commands``)."""
        await self.tree.set_translator(CommandTranslator())
        if self.settings.syncs_commands:
            await sync_commands(self.tree, self.settings.dev_guild_id, self.sync_record)

    async def on_ready(self) -> None:
        """The gateway session is ready (again after a reconnect with a new session)."""
        user = self.user
        log.info("Discord: logged in as %s (%s), %d servers",
                 user, user.id if user else "?", len(self.guilds))
        if self.settings.shard_ids is not None:
            log.info("Discord: shards %s of %s", ",".join(map(str, self.settings.shard_ids)),
                     self.shard_count)
        report_state(PLATFORM, CONNECTED)
        if user is not None:
            self.core.set_bot_id(PLATFORM, str(user.id))  # never a GM
        if not self._resent:  # once per process: what the last run left in the outbox
            self._resent = True
            outs = await self.core.undelivered(PLATFORM, bot_account(self))
            if outs:
                log.warning("Discord: sending %d replies kept from before the last stop",
                            len(outs))
                await DiscordDelivery(self, self.core, None, None).deliver(outs)
            self._take_over = asyncio.create_task(take_over_forever(
                self.core, PLATFORM, DiscordDelivery(self, self.core, None, None).deliver,
                self.is_ready, account=bot_account(self)))

    async def close(self) -> None:
        """Close, and drop a pending ``ready``: discord.py dispatches it up to
        ``guild_ready_timeout`` (2 s) after the gateway's READY, which after a
        quick stop would log "logged in" once the bot is already gone."""
        if self._take_over is not None:
            self._take_over.cancel()
        await super().close()
        pending = getattr(self._connection, "_ready_task", None)
        if isinstance(pending, asyncio.Task) and not pending.done():
            pending.cancel()

    async def on_message(self, message: discord.Message) -> None:
        """Prefix commands (``.r``, ``。r``), and every other message for the game log.
        In servers Discord only gives the text of messages with the Message Content
        intent; DMs and mentions always have it."""
        if message.author.bot or message.webhook_id is not None:
            return
        line = command_text(self._without_own_mention(message.content),
                            self.settings.command_prefixes)
        if line is None:
            await self._chatter(message)
            return
        incoming = incoming_from_message(message, line, account=bot_account(self))
        outs = await self._with_file(message, incoming)
        await DiscordDelivery(self, self.core, incoming, MessageOrigin(self, message)).deliver(
            outs)

    async def _with_file(self, message: discord.Message, incoming: Incoming) -> list[Outgoing]:
        """Run the command with the text file sent with it, read only when the message
        is a command and the file's declared size fits (adapters/uploads.py). A file it
        carries that is too large, or that Discord would not hand over, refuses the
        command with the reason: the file is part of the message, so the command was
        meant to read it."""
        offered = offered_file(message) if is_command(incoming.text) else None
        if offered is None:
            return await self.core.handle(incoming)
        read = await read_offered(*offered)
        if isinstance(read, str):
            return [notice(self.core, PLATFORM, incoming.channel, read, offered[1])]
        return await self.core.handle(replace(incoming, attachment=read))

    async def _chatter(self, message: discord.Message) -> None:
        """A message that is no command: the core records it when its table keeps a
        game log (``.log on``) and answers nothing — at most the notice that the log
        reached its limit, posted in the channel. Only with the Message Content intent:
        without it Discord sends the text of no server message but those that mention
        the bot, and a log of those alone would be misleading. System messages (a pin,
        a member joining) and messages without text or file are not passed."""
        if not self.settings.message_content or message.type not in CHAT_TYPES:
            return
        text = chatter_text(message)
        if not text:
            return
        outs = await self.core.handle(incoming_from_message(message, text, "chatter",
                                                            bot_account(self)))
        if outs:
            await DiscordDelivery(self, self.core, None, None).deliver(outs)

    def _without_own_mention(self, content: str) -> str:
        """``@bot .r 1d20`` works like ``.r 1d20``: without the Message Content intent,
        server messages that mention the bot are the only ones whose text arrives."""
        if self.user is not None:
            for mention in (f"<@{self.user.id}>", f"<@!{self.user.id}>"):
                if content.startswith(mention):
                    return content[len(mention):]
        return content

    async def on_command_error(self, interaction: discord.Interaction,
                               error: app_commands.AppCommandError) -> None:
        """Log, and tell the user instead of leaving "The application did not respond"."""
        log.error("slash command failed", exc_info=error)
        try:
            text = escape_markdown(reply("reply.error", interaction.locale))
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            pass

