"""Translation between OneBot v11 data and the core's message objects.

Outgoing text is always wrapped in ``MessageSegment.text``: a OneBot
implementation never interprets CQ codes inside a text segment, so a user who
types ``[CQ:at,qq=all]`` in a roll reason gets that text echoed, not an @all.
``Message(str)`` would parse CQ codes, which is why it is never used here.
Outgoing text also has its links defused (:func:`defuse_links`): QQ clients
make bare URLs clickable, and a roll reason is a player's text.

Incoming ``at`` segments become the core's mention form ``<@qq>`` (the form
Discord messages carry natively, parsed by ``bot.handlers.gm.user_ref`` and
``bot.kits.references.mention``), so ``.hp -5 @Bob`` names Bob.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from nonebot.adapters.onebot.v11 import (
    GroupMessageEvent,
    Message,
    MessageEvent,
    MessageSegment,
)

from adapters.onebot.group_controls import group_admin
from adapters.split import split
from bot.messages import Incoming, MessageKind

PLATFORM = "qq"
PRIVATE_PREFIX = "dm:"
#: Invisible, and breaks the URL / domain detection of QQ clients (and of most linkifiers).
ZERO_WIDTH_SPACE = "\u200b"
#: A dot between an ASCII letter or digit and an ASCII letter: ``www.x``, ``evil.example``.
_DOMAIN_DOT = re.compile(r"(?<=[A-Za-z0-9])\.(?=[A-Za-z])")


def message_text(message: Message, self_id: str) -> str:
    """The text of an incoming message, with each ``at`` segment as ``<@qq>``.

    Only @s *after* the start of the text count: a QQ reply puts an @ of the quoted
    author in front, and ``.r`` after such an @ must still be a command (nonebot
    already removed a leading or trailing @ of the bot). An @ of the bot itself and
    ``at qq=all`` become a plain space — never a mention, never anything that pings.
    Every other segment (image, face, reply) is dropped, as ``get_plaintext`` does.
    """
    parts: list[str] = []
    started = False
    pad_next = False
    for segment in message:
        if segment.type == "text":
            text = str(segment.data.get("text", ""))
            if pad_next and text[:1] and not text[:1].isspace():
                parts.append(" ")
            pad_next = False
            parts.append(text)
            started = started or bool(text.strip())
        elif segment.type == "at" and started:
            qq = str(segment.data.get("qq", "")).strip()
            if parts and not parts[-1][-1:].isspace():
                parts.append(" ")
            if qq.isdigit() and qq != str(self_id):
                parts.append(f"<@{qq}>")
                pad_next = True
    return "".join(parts)


#: How the game log shows a picture of a message that is no command (QQ's own
#: notation, as its clients show a picture in a message preview).
PICTURE = "[图片]"
#: The longest ``summary`` of a picture or sticker that is taken instead of ``PICTURE``.
_SUMMARY_LIMIT = 16


def chatter_text(message: Message) -> str:
    """What a message that is no command says, for the game log (docs/game-log.md).

    Its text segments as typed; an @ as ``@name`` (the name the implementation gives
    — NapCat does — else the QQ number), ``@全体成员`` for ``at qq=all``; a picture
    as its short ``summary`` (NapCat: ``[动画表情]``) or ``[图片]``, a market sticker
    (``mface``) as its summary (``[开心]``). Everything else — QQ faces, the quoted
    message of a reply, voice, files — is dropped.
    """
    parts: list[str] = []
    after_at = False
    for segment in message:
        data = segment.data
        if segment.type == "text":
            text = str(data.get("text", ""))
            if after_at and text[:1] and not text[:1].isspace():
                parts.append(" ")
            parts.append(text)
        elif segment.type == "at":
            qq = str(data.get("qq", "")).strip()
            name = str(data.get("name") or "").strip().lstrip("@")
            parts.append("@全体成员" if qq == "all" else f"@{name or qq}")
        elif segment.type in ("image", "mface"):
            summary = str(data.get("summary") or "").strip()
            if not summary or len(summary) > _SUMMARY_LIMIT:
                summary = PICTURE if segment.type == "image" else ""
            parts.append(summary)
        after_at = segment.type == "at"
    return "".join(parts).strip()


def defuse_links(text: str) -> str:
    """``text`` with every link made unclickable on QQ, nothing visible changed.

    A zero-width space goes inside each ``://`` (``http:\u200b//``) and after each
    dot between an ASCII letter/digit and a letter (``www.\u200bevil.\u200bexample``),
    which covers URLs, ``www.`` names and bare domains. Numbers (``1.5``) are left
    alone. Applied to every outgoing text: catalog texts hold no links.
    """
    text = text.replace("://", ":" + ZERO_WIDTH_SPACE + "//")
    return _DOMAIN_DOT.sub("." + ZERO_WIDTH_SPACE, text)


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


def incoming_from_event(event: MessageEvent, text: str,
                        kind: MessageKind = "command") -> Incoming:
    """Build the core's ``Incoming`` from a group or private message event.

    A group message's channel is the group id; a private message (friend or
    temporary session) gets the ``dm:<user>`` pseudo-channel because OneBot v11
    does not say which group a temporary session came from. The message id is
    qualified by the channel: OneBot ids are only unique per implementation — and a
    private one by the account too, since one player's private chats with two of the
    bot's accounts share the ``dm:<user>`` channel. The account is the QQ number that
    received it (``X-Self-ID``): its replies leave through it, also from the outbox
    after a restart.
    ``kind="chatter"``: a message that is no command for the adapter (``／r``: a prefix
    the operator's list lacks) — the core logs it and runs nothing. A file reaches a
    group's command uploaded just before it (adapters/onebot/uploads.py); a private
    chat's none.
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
        message_id=f"{channel}:{event.message_id}" if not private
        else f"{channel}@{event.self_id}:{event.message_id}",
        kind=kind,
        account=str(event.self_id),
        uploads="none" if private else "before",
        channel_admin=group_admin(event),
    )


def to_message(text: str, at_user: str | None = None, image: bytes | None = None) -> Message:
    """Segments for one chat message: an optional @, the text, never parsed, its links
    defused, and an optional picture (an ``image`` segment with ``base64://…``, which
    OneBot v11 implementations such as NapCat and Lagrange accept as ``file``)."""
    segments: list[MessageSegment] = []
    if at_user is not None:
        segments.append(MessageSegment.at(at_user))
        text = " " + text
    if text:
        segments.append(MessageSegment.text(defuse_links(text)))
    if image is not None:
        segments.append(MessageSegment.image(image))
    return Message(segments)


def split_text(text: str, limit: int) -> list[str]:
    """Cut ``text`` into pieces of at most ``limit`` characters (QQ counts characters),
    at line breaks when possible (adapters/split.py). Nothing blank is ever sent."""
    return split(text, limit)


def as_id(value: str) -> int | None:
    """A QQ number / group number as OneBot wants it (an int), ``None`` if not numeric."""
    return int(value) if value.isdigit() else None

