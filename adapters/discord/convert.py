"""Translation between discord.py objects and the core's message objects."""

from __future__ import annotations

import re
from collections.abc import Iterable

import discord

from adapters.discord.group_controls import interaction_manages_server, manages_server
from adapters.split import split, utf16_length
from adapters.uploads import Offer
from bot.messages import Attachment, Incoming, MessageKind

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


#: A custom emoji as Discord's text carries it (``<:name:id>``, animated ``<a:name:id>``).
_CUSTOM_EMOJI = re.compile(r"<a?:(\w+):\d+>")


def chatter_text(message: discord.Message) -> str:
    """What a message that is no command says, for the game log (docs/game-log.md).

    Its text as Discord shows it (``clean_content``: a mention as ``@name``, a channel
    as ``#name``), a custom emoji as ``:name:``; a message without text (a picture, a
    file, a sticker alone) as the names of its attachments and stickers in brackets
    (``[map.png]``). Embeds are not read.
    """
    text = _CUSTOM_EMOJI.sub(r":\1:", message.clean_content).strip()
    if text:
        return text
    names = [attachment.filename for attachment in message.attachments]
    names += [sticker.name for sticker in message.stickers]
    return " ".join(f"[{name}]" for name in names if name)


def channel_key(channel: object, user_id: int, guild: object | None) -> str:
    """The core's channel id: the channel (or thread) id in a server, and the
    ``dm:<user>`` pseudo-channel in a direct message, so a user's DM state does not
    depend on which DM channel object Discord hands us."""
    if guild is None:
        return f"{PRIVATE_PREFIX}{user_id}"
    return str(getattr(channel, "id", channel))


def private_channel_user(channel: str) -> str | None:
    return channel[len(PRIVATE_PREFIX):] if channel.startswith(PRIVATE_PREFIX) else None


def offered_file(message: discord.Message) -> tuple[discord.Attachment, Offer] | None:
    """The message's first text file (JSON, YAML, plain text — what a command reads, a
    deck for `.js deck file`) as Discord declares it, nothing fetched yet; None without
    one: a picture sent beside a roll is never fetched (adapters/uploads.py)."""
    for upload in message.attachments:
        offer = Offer(upload.filename, upload.size, upload.content_type or "")
        if offer.is_text:
            return upload, offer
    return None


async def read_offered(upload: discord.Attachment, offer: Offer) -> Attachment | str:
    """The file read, or why it was not: ``too_large`` (decided from the declared size,
    before any byte is fetched) or ``unreadable`` (Discord would not hand it over)."""
    if not offer.fits:
        return "too_large"
    try:
        data = await upload.read()
    except discord.HTTPException:
        return "unreadable"
    file = offer.attachment(data)
    return "too_large" if file is None else file


def incoming_from_message(message: discord.Message, text: str,
                          kind: MessageKind = "command", account: str = "") -> Incoming:
    """``kind="chatter"``: a message that is no command for the adapter (``/r 1d20``
    typed as text: ``/`` is left to slash commands) — the core logs it, runs nothing.
    A file sent with it is added by the client (:func:`read_offered`). ``account``: the
    bot's user id (its replies are the outbox rows of that bot, docs/scaling.md)."""
    author = message.author
    return Incoming(
        platform=PLATFORM,
        channel=channel_key(message.channel, author.id, message.guild),
        user=str(author.id),
        text=text,
        display_name=author.display_name,
        is_private=message.guild is None,
        message_id=str(message.id),
        kind=kind,
        account=account,
        channel_admin=manages_server(author),
    )


def bot_account(client: discord.Client) -> str:
    """The bot's user id once logged in (the account its replies are stored under)."""
    return str(client.user.id) if client.user is not None else ""


def incoming_from_interaction(interaction: discord.Interaction, text: str,
                              account: str = "") -> Incoming:
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
        account=account,
        channel_admin=interaction_manages_server(interaction),
    )


#: Characters Discord's markdown gives a meaning anywhere in a line: escapes,
#: bold/italic/underline/strike, spoilers, code, masked links and every ``<…>``
#: form (user/role/channel/command mentions, timestamps, custom emoji, ``<url>``).
_INLINE = re.compile(r"[\\*_~|`\[\]<]")
#: What only counts at the start of a line: headings ``#``, subtext ``-#``,
#: block quotes ``>`` / ``>>>``, lists ``-`` / ``+`` / ``1.``.
_LINE_START = re.compile(r"^([ \t]*)(?:([#>+-])|(\d+)\.)", re.MULTILINE)
#: A bare link (``https://…``, any scheme) and Discord invites, which Discord
#: links and embeds even without a scheme.
_SCHEME = re.compile(r":(?=//)")
_INVITE = re.compile(r"(?i)\b(discord(?:app)?)\.(?=(?:gg|com|io|me|li|new)\b)")
ZWSP = "\u200b"


def escape_markdown(text: str) -> str:
    """``text`` as Discord must show it: literally, with no formatting, link, embed
    or mention (docs/discord.md, "Echoed text").

    Every ASCII character that Discord's markdown uses is backslash-escaped
    (``\\*`` shows ``*``); line-start markers (``#``, ``>``, ``-``, ``+``, ``1.``)
    are escaped at the start of each line; ``://`` and invite domains get a
    zero-width space so no link is recognised (a ``<url>`` would still be
    clickable); ``@everyone`` / ``@here`` get one after the ``@`` as in
    ``discord.utils.escape_mentions``. The bot's catalogs contain no markup, so
    the whole outgoing text is escaped.
    """
    text = _INLINE.sub(r"\\\g<0>", text)
    text = _SCHEME.sub(":" + ZWSP, text)
    text = _INVITE.sub(r"\1." + ZWSP, text)
    text = discord.utils.escape_mentions(text)
    return escape_line_start(text)


def escape_line_start(text: str) -> str:
    """Escape the markers that only count at the start of a line (idempotent on
    escaped text: an escaped marker starts with a backslash)."""
    return _LINE_START.sub(_escape_marker, text)


def _escape_marker(match: re.Match[str]) -> str:
    indent, marker, number = match.groups()
    return f"{indent}\\{marker}" if marker else f"{indent}{number}\\."


def message_pieces(text: str, block: bool = False) -> list[str]:
    """What to send for ``text``: escaped for Discord, then split at the limit; a
    ``block`` (a battle board) goes in code blocks instead, where Discord renders no
    markup, link or mention and keeps the columns aligned."""
    if block:
        plain = text.replace("`", "ˋ")  # nothing can close the block early
        return [f"```\n{piece}\n```" for piece in split_message(plain, MESSAGE_LIMIT - 8)]
    return split_message(escape_markdown(text))


def split_message(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """Pieces of at most ``limit`` UTF-16 units (as Discord counts), cut at line breaks
    when possible, otherwise at spaces, otherwise anywhere (never inside a surrogate
    pair, never between a backslash and the character it escapes): adapters/split.py
    with Discord's :func:`discord_cut`.

    ``text`` is already escaped (``escape_markdown``): a cut is checked so that it
    cannot unescape anything, and a piece that starts in the middle of a line gets
    its line-start markers escaped too (``… # x`` cut at the space must not become
    a heading).
    """
    return split(text, limit, length=utf16_length, cut=discord_cut, then=escape_line_start)


def discord_cut(text: str, window: int) -> tuple[int, int]:
    """At the last line break in the window, else its last space (either dropped), else
    at the window's end — one character earlier when that would cut a backslash from
    the character it escapes."""
    head = text[:window]
    cut = head.rfind("\n")
    if cut <= 0:
        cut = head.rfind(" ")
    if cut > 0:
        return cut, cut + 1
    backslashes = len(head) - len(head.rstrip("\\"))
    end = window - backslashes % 2
    return end, end
