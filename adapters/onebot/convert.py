"""Translation between OneBot v11 data and the core's message objects.

Outgoing text is always wrapped in ``MessageSegment.text``: a OneBot
implementation never interprets CQ codes inside a text segment, so a user who
types ``[CQ:at,qq=all]`` in a roll reason gets that text echoed, not an @all.
``Message(str)`` would parse CQ codes, which is why it is never used here.
"""

from __future__ import annotations

from collections.abc import Iterable

from nonebot.adapters.onebot.v11 import (
    GroupMessageEvent,
    Message,
    MessageEvent,
    MessageSegment,
)

from bot.messages import Incoming

PLATFORM = "qq"
PRIVATE_PREFIX = "dm:"


def command_text(text: str, prefixes: Iterable[str]) -> str | None:
    """The command line in ``text`` when it starts with a command prefix, else ``None``.

    Only the prefix is checked: the core normalises full-width characters and
    routes the command itself, so the adapter forwards everything that looks
    like a command and stays out of the parsing.
    """
    stripped = text.strip()
    if stripped and stripped.startswith(tuple(prefixes)):
        return stripped
    return None


def private_channel(user: str) -> str:
    """The pseudo-channel of a one-to-one conversation (see ``Incoming.channel``)."""
    return f"{PRIVATE_PREFIX}{user}"


def private_channel_user(channel: str) -> str | None:
    """The user of a ``dm:<user>`` pseudo-channel, ``None`` for a group."""
    return channel[len(PRIVATE_PREFIX) :] if channel.startswith(PRIVATE_PREFIX) else None


def incoming_from_event(event: MessageEvent, text: str) -> Incoming:
    """Build the core's ``Incoming`` from a group or private message event.

    A group message's channel is the group id; a private message (friend or
    temporary session) gets the ``dm:<user>`` pseudo-channel because OneBot v11
    does not say which group a temporary session came from. The message id is
    qualified by the channel: OneBot ids are only unique per implementation.
    """
    user = str(event.user_id)
    if isinstance(event, GroupMessageEvent):
        channel, private = str(event.group_id), False
    else:
        channel, private = private_channel(user), True
    sender = event.sender
    display_name = (sender.card or sender.nickname or user) if sender else user
    return Incoming(
        platform=PLATFORM,
        channel=channel,
        user=user,
        text=text,
        display_name=display_name,
        is_private=private,
        message_id=f"{channel}:{event.message_id}",
    )


def to_message(text: str, at_user: str | None = None) -> Message:
    """Segments for one chat message: an optional @ and the text, never parsed."""
    segments: list[MessageSegment] = []
    if at_user is not None:
        segments.append(MessageSegment.at(at_user))
        text = " " + text
    segments.append(MessageSegment.text(text))
    return Message(segments)


def split_text(text: str, limit: int) -> list[str]:
    """Cut ``text`` into pieces of at most ``limit`` characters, at line breaks when possible.

    Empty text gives no piece at all, so nothing blank is ever sent.
    """
    pieces: list[str] = []
    rest = text
    while len(rest) > limit:
        cut = rest.rfind("\n", 0, limit + 1)
        if cut <= 0:
            pieces.append(rest[:limit])
            rest = rest[limit:]
        else:
            pieces.append(rest[:cut])
            rest = rest[cut + 1 :]
    if rest.strip():
        pieces.append(rest)
    return [piece for piece in pieces if piece.strip()]


def as_id(value: str) -> int | None:
    """A QQ number / group number as OneBot wants it (an int), ``None`` if not numeric."""
    return int(value) if value.isdigit() else None

