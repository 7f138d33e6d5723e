"""Executes the core's ``Outgoing`` list on Discord.

Where each message goes:

- ``to="channel"`` for the channel the command came from → the *origin*: the
  interaction's response/follow-ups, or the message's channel (as a reply).
  Another channel id → that channel; ``dm:<user>`` → that user's DMs.
- ``to="private"`` for the user who ran the command → the origin's private way:
  an ephemeral follow-up for a slash command, a DM for a prefix command.
- ``to="private"`` for anyone else (the GMs) → a DM.
- A DM Discord refuses (``Forbidden``: DMs closed, no shared server) → the core is
  told (``private_delivery_failed``) and its channel notice is posted instead.
- ``secret=True`` never goes to a channel, whatever the core says.

Everything is escaped for Discord's markdown (``convert.escape_markdown``: user
text is shown literally — no link, embed, heading or mention), sent with
``allowed_mentions=none``, and split at 2,000 characters after escaping.

An ``Outgoing.attachment`` (a battle map, a game log) is uploaded as a
``discord.File`` with the last piece of its text, the way Discord takes files
(multipart ``payload_json`` + ``files[0]``); a picture is shown inline. When Discord
refuses the upload (too large for the server, no Attach Files permission), the
text is sent alone: it is complete without the file.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import discord

from adapters.delivery import CoreAPI, Delivery
from adapters.discord.convert import (
    NO_MENTIONS,
    PLATFORM,
    message_pieces,
    private_channel_user,
)
from adapters.discord.group_controls import leave_server
from bot.messages import Attachment, Incoming, Outgoing

log = logging.getLogger(__name__)


class Origin(Protocol):
    """Where the command came from: how to answer in its channel and privately."""

    async def to_channel(self, text: str, block: bool = False,
                         attachment: Attachment | None = None) -> None: ...

    async def to_invoker(self, text: str, attachment: Attachment | None = None) -> bool: ...


#: sends one message: its content (None: the file alone) and a file, or None
SendPiece = Callable[[str | None, discord.File | None], Awaitable[Any]]


def to_file(attachment: Attachment) -> discord.File:
    """A new ``discord.File`` (each upload reads its own copy of the bytes)."""
    return discord.File(io.BytesIO(attachment.data), filename=attachment.filename)


def file_kwargs(file: discord.File | None) -> dict[str, Any]:
    """``file=`` only when there is one (discord.py's default is "no file", not None)."""
    return {"file": file} if file is not None else {}


async def send_pieces(send: SendPiece, pieces: list[str],
                      attachment: Attachment | None) -> None:
    """Send ``pieces`` in order, the attachment with the last one (alone when there is
    no text). If Discord refuses the upload, the last piece goes without it."""
    if attachment is not None and not pieces:
        pieces = [""]
    for index, piece in enumerate(pieces):
        if attachment is None or index < len(pieces) - 1:
            await send(piece, None)
            continue
        try:
            await send(piece or None, to_file(attachment))
        except discord.HTTPException as exc:
            log.warning("Discord refused the %s %s (%s %s); sending the text alone",
                        attachment.kind, attachment.filename, exc.status, exc.code)
            if not piece:
                raise
            await send(piece, None)


async def send_dm(client: discord.Client, user_id: str, text: str,
                  attachment: Attachment | None = None) -> bool:
    """DM ``text`` to a user; ``False`` when Discord refuses (DMs closed, unknown user)."""
    if not user_id.isdigit():
        log.error("not a Discord user id: %r", user_id)
        return False
    try:
        channel = await client.create_dm(discord.Object(id=int(user_id)))

        async def send(piece: str | None, file: discord.File | None) -> None:
            await channel.send(piece, allowed_mentions=NO_MENTIONS, **file_kwargs(file))

        await send_pieces(send, message_pieces(text), attachment)
    except discord.HTTPException as exc:
        log.info("DM to %s refused: %s %s", user_id, exc.status, exc.code)
        return False
    return True


async def send_ping(client: discord.Client, channel_id: str, users: tuple[str, ...]) -> None:
    """Mention the players a message is for (whose turn it is now) in one short message
    that pings them and nobody else: the announcement itself mentions no one."""
    ids = [user for user in users if user.isdigit()]
    if not ids or not channel_id.isdigit():
        return
    try:
        channel = client.get_channel(int(channel_id)) or await client.fetch_channel(
            int(channel_id))
        if isinstance(channel, discord.abc.Messageable):
            await channel.send(" ".join(f"<@{user}>" for user in ids),
                               allowed_mentions=discord.AllowedMentions(
                                   everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(id=int(user)) for user in ids]))
    except discord.HTTPException as exc:
        log.warning("turn ping in channel %s failed: %s", channel_id, exc)


async def send_to_channel(client: discord.Client, channel_id: str, text: str,
                          block: bool = False, attachment: Attachment | None = None) -> None:
    """Post in a channel other than the origin (rare; the core answers where it was asked)."""
    dm_user = private_channel_user(channel_id)
    if dm_user is not None:
        await send_dm(client, dm_user, text, attachment)
        return
    if not channel_id.isdigit():
        log.error("not a Discord channel id: %r", channel_id)
        return
    try:
        channel = client.get_channel(int(channel_id)) or await client.fetch_channel(
            int(channel_id))
        if not isinstance(channel, discord.abc.Messageable):
            log.error("channel %s cannot receive messages", channel_id)
            return
        target = channel

        async def send(piece: str | None, file: discord.File | None) -> None:
            await target.send(piece, allowed_mentions=NO_MENTIONS, **file_kwargs(file))

        await send_pieces(send, message_pieces(text, block), attachment)
    except discord.HTTPException as exc:
        log.warning("post to channel %s failed: %s", channel_id, exc)


class InteractionOrigin:
    """Answers a slash command: the first message is the interaction response, the
    rest are follow-ups; the invoker's private results are ephemeral.

    When the command was deferred (the core was slow), Discord shows a public
    "thinking…" placeholder that the *first follow-up replaces, keeping the
    placeholder's visibility*. An ephemeral result must not inherit that public
    visibility, so it first deletes the placeholder; a channel message edits it.
    """

    def __init__(self, interaction: discord.Interaction) -> None:
        self.interaction = interaction
        self.placeholder = False

    async def defer(self) -> None:
        await self.interaction.response.defer(thinking=True)
        self.placeholder = True

    async def to_channel(self, text: str, block: bool = False,
                         attachment: Attachment | None = None) -> None:
        async def send(piece: str | None, file: discord.File | None) -> None:
            await self._send(piece, ephemeral=False, file=file)

        await send_pieces(send, message_pieces(text, block), attachment)

    async def to_invoker(self, text: str, attachment: Attachment | None = None) -> bool:
        async def send(piece: str | None, file: discord.File | None) -> None:
            await self._send(piece, ephemeral=True, file=file)

        try:
            await send_pieces(send, message_pieces(text), attachment)
        except discord.HTTPException as exc:
            log.warning("ephemeral reply failed: %s", exc)
            return False
        return True

    async def _send(self, piece: str | None, *, ephemeral: bool,
                    file: discord.File | None = None) -> None:
        interaction = self.interaction
        extra = file_kwargs(file)
        if not interaction.response.is_done():
            await interaction.response.send_message(
                piece, ephemeral=ephemeral, allowed_mentions=NO_MENTIONS, **extra)
        elif self.placeholder:
            self.placeholder = False
            if ephemeral:
                await interaction.delete_original_response()
                await interaction.followup.send(
                    piece,  # type: ignore[arg-type]  # None: see below
                    ephemeral=True, allowed_mentions=NO_MENTIONS, **extra)
            elif file is not None:
                await interaction.edit_original_response(
                    content=piece, allowed_mentions=NO_MENTIONS, attachments=[file])
            else:
                await interaction.edit_original_response(
                    content=piece, allowed_mentions=NO_MENTIONS)
        else:
            # discord.py types content as str, but takes None (a file alone) like the
            # other send methods do
            await interaction.followup.send(
                piece,  # type: ignore[arg-type]
                ephemeral=ephemeral, allowed_mentions=NO_MENTIONS, **extra)

    async def finish(self, fallback: str) -> None:
        """Discord requires an answer to every interaction: say ``fallback`` (only to
        the invoker) when the core had nothing to send."""
        if not self.interaction.response.is_done() or self.placeholder:
            for piece in message_pieces(fallback):
                await self._send(piece, ephemeral=True)


class MessageOrigin:
    """Answers a prefix command typed in a message: replies in its channel, and
    the invoker's private results by DM."""

    def __init__(self, client: discord.Client, message: discord.Message) -> None:
        self.client = client
        self.message = message
        self._replied = False

    async def to_channel(self, text: str, block: bool = False,
                         attachment: Attachment | None = None) -> None:
        async def send(piece: str | None, file: discord.File | None) -> None:
            reference = None
            if not self._replied:  # the first message that gets through is the reply
                reference = self.message.to_reference(fail_if_not_exists=False)
            # discord.py's overloads leave out None, the default of the send they type
            await self.message.channel.send(
                piece, reference=reference,  # type: ignore[arg-type]
                allowed_mentions=NO_MENTIONS, **file_kwargs(file))
            self._replied = True

        await send_pieces(send, message_pieces(text, block), attachment)

    async def to_invoker(self, text: str, attachment: Attachment | None = None) -> bool:
        return await send_dm(self.client, str(self.message.author.id), text, attachment)


class DiscordDelivery(Delivery):
    """Sends one command's replies, in the order the core gave them."""

    platform = PLATFORM

    def __init__(self, client: discord.Client, core: CoreAPI, incoming: Incoming | None,
                 origin: Origin | None) -> None:
        """``incoming``/``origin`` None: replies kept from before a restart, whose
        interaction is long gone — they go to their channel and by DM."""
        super().__init__(core)
        self.client = client
        self.incoming = incoming
        self.origin = origin

    async def leave(self, out: Outgoing) -> None:
        await leave_server(self.client, out.channel)

    async def send_channel(self, out: Outgoing) -> None:
        if self.origin is not None and self.incoming is not None \
                and out.channel == self.incoming.channel:
            await self.origin.to_channel(out.text, out.block, out.attachment)
        else:
            await send_to_channel(self.client, out.channel, out.text, out.block,
                                  out.attachment)
        if out.notify:
            await send_ping(self.client, out.channel, out.notify)

    async def send_private(self, out: Outgoing) -> bool:
        if self.origin is not None and self.incoming is not None \
                and out.user == self.incoming.user:
            return await self.origin.to_invoker(out.text, out.attachment)
        return await send_dm(self.client, out.user or "", out.text, out.attachment)
