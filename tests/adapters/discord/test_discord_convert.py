"""adapters/discord/convert.py: how Discord's messages and slash commands become the
core's ``Incoming``, and how a reply is split into Discord's UTF-16 units without
cutting an escape (first written from the surviving mutants of the `adapters` area;
see docs/testing.md, "Mutation testing")."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from adapters.discord import convert as discord_convert
from bot.messages import Incoming


def test_discord_counts_astral_characters_as_two_units() -> None:
    astral, last_bmp = "\U00010000", "\uffff"  # the first astral code point, the last BMP one
    assert discord_convert.split_message(astral * 3, 4) == [astral * 2, astral]
    assert discord_convert.split_message(last_bmp * 3, 2) == [last_bmp * 2, last_bmp]


def test_discord_never_cuts_an_escape_from_the_character_it_escapes() -> None:
    # "\*" is one escaped asterisk: a cut after its backslash would unescape it
    assert discord_convert.split_message("aa\\*bb", 3) == ["aa", "\\*b", "b"]
    # "\\" is one escaped backslash: cutting after it keeps both halves whole
    assert discord_convert.split_message("a\\\\bb", 3) == ["a\\\\", "bb"]
    assert discord_convert.split_message("a\\\\\\*b", 4) == ["a\\\\", "\\*b"]


def _message(guild: object | None) -> Any:
    author = SimpleNamespace(id=5, display_name="Alice")
    return SimpleNamespace(author=author, channel=SimpleNamespace(id=9), guild=guild, id=77)


def test_discord_messages_become_the_cores_incoming() -> None:
    assert discord_convert.incoming_from_message(_message(None), ".r 1d6") == Incoming(
        "discord", "dm:5", "5", ".r 1d6", "Alice", is_private=True, message_id="77")
    assert discord_convert.incoming_from_message(_message(object()), ".r 1d6") == Incoming(
        "discord", "9", "5", ".r 1d6", "Alice", is_private=False, message_id="77")


def test_discord_slash_commands_become_the_cores_incoming() -> None:
    user = SimpleNamespace(id=5, display_name="Alice")
    dm = SimpleNamespace(user=user, channel_id=9, guild_id=None, id=77)
    assert discord_convert.incoming_from_interaction(dm, ".r 1d6") == Incoming(  # type: ignore[arg-type]
        "discord", "dm:5", "5", ".r 1d6", "Alice", is_private=True,
        message_id="interaction:77")
    server = SimpleNamespace(user=user, channel_id=9, guild_id=1, id=78)
    assert discord_convert.incoming_from_interaction(server, ".r") == Incoming(  # type: ignore[arg-type]
        "discord", "9", "5", ".r", "Alice", is_private=False, message_id="interaction:78")
