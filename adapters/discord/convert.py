"""Translation between discord.py objects and the core's message objects."""

from __future__ import annotations

from collections.abc import Iterable

import discord

from bot.messages import Incoming

PLATFORM = "discord"
PRIVATE_PREFIX = "dm:"
#: Discord's limit on one message's content.
MESSAGE_LIMIT = 2000

#: Every message that echoes user text is sent with this: no @everyone, @here,
#: role, user or reply pings, whatever the text contains.
NO_MENTIONS = discord.AllowedMentions.none()


def command_text(text: str, prefixes: Iterable[str]) -> str | None:
    """The command line in ``text`` when it starts with a prefix, else ``None``
    (the core normalises and routes; the adapter only filters chat out)."""
    stripped = text.strip()
    if stripped and stripped.startswith(tuple(prefixes)):
        return stripped
    return None


def channel_key(channel: object, user_id: int, guild: object | None) -> str:
    """The core's channel id: the channel (or thread) id in a server, and the
    ``dm:<user>`` pseudo-channel in a direct message, so a user's DM state does not
    depend on which DM channel object Discord hands us."""
    if guild is None:
        return f"{PRIVATE_PREFIX}{user_id}"
    return str(getattr(channel, "id", channel))


def private_channel_user(channel: str) -> str | None:
    return channel[len(PRIVATE_PREFIX):] if channel.startswith(PRIVATE_PREFIX) else None


def incoming_from_message(message: discord.Message, text: str) -> Incoming:
    author = message.author
    return Incoming(
        platform=PLATFORM,
        channel=channel_key(message.channel, author.id, message.guild),
        user=str(author.id),
        text=text,
        display_name=author.display_name,
        is_private=message.guild is None,
        message_id=str(message.id),
    )


def incoming_from_interaction(interaction: discord.Interaction, text: str) -> Incoming:
    """A slash command as if the user had typed ``text``; the interaction id is the
    message id (Discord never delivers one interaction twice, but the core's
    idempotency costs nothing)."""
    user = interaction.user
    return Incoming(
        platform=PLATFORM,
        channel=channel_key(interaction.channel_id, user.id, interaction.guild_id),
        user=str(user.id),
        text=text,
        display_name=user.display_name,
        is_private=interaction.guild_id is None,
        message_id=f"interaction:{interaction.id}",
    )


def utf16_len(text: str) -> int:
    """Length as Discord counts it (UTF-16 code units, like JavaScript)."""
    return len(text.encode("utf-16-le")) // 2


def split_message(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """Pieces of at most ``limit`` (UTF-16) characters, cut at line breaks when possible,
    otherwise at spaces, otherwise anywhere (never inside a surrogate pair)."""
    pieces: list[str] = []
    rest = text
    while utf16_len(rest) > limit:
        head = _fit(rest, limit)
        cut = head.rfind("\n")
        if cut <= 0:
            cut = head.rfind(" ")
        if cut <= 0:
            pieces.append(head)
            rest = rest[len(head):]
        else:
            pieces.append(rest[:cut])
            rest = rest[cut + 1:]
    pieces.append(rest)
    return [piece for piece in pieces if piece.strip()]


def _fit(text: str, limit: int) -> str:
    """The longest prefix of ``text`` within ``limit`` UTF-16 units."""
    units = 0
    for index, char in enumerate(text):
        units += 2 if ord(char) > 0xFFFF else 1
        if units > limit:
            return text[:index]
    return text
