"""A file sent with a Discord command reaches the core as ``Incoming.attachment`` (the
first one, read; a 剑手 deck file for `.js deck file`) — issue 24."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from adapters.discord import convert as discord_convert
from bot.messages import MAX_ATTACHMENT_BYTES, Attachment


def upload(name: str, data: bytes, size: int | None = None) -> Any:
    async def read() -> bytes:
        return data

    return SimpleNamespace(filename=name, size=len(data) if size is None else size, read=read)


def message(*uploads: Any) -> Any:
    author = SimpleNamespace(id=5, display_name="Alice")
    return SimpleNamespace(author=author, channel=SimpleNamespace(id=9), guild=object(), id=77,
                           attachments=list(uploads))


async def test_the_first_file_of_a_command_is_read() -> None:
    sent = message(upload("deck.json", b"[]"), upload("other.json", b"{}"))
    file = await discord_convert.first_attachment(sent)
    assert file == Attachment("deck.json", b"[]")
    incoming = discord_convert.incoming_from_message(sent, ".js deck file", attachment=file)
    assert incoming.attachment == Attachment("deck.json", b"[]")


async def test_no_file_or_one_too_large_is_none() -> None:
    assert await discord_convert.first_attachment(message()) is None
    big = upload("deck.json", b"", size=MAX_ATTACHMENT_BYTES + 1)
    assert await discord_convert.first_attachment(message(big)) is None
