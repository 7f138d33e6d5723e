"""The game log on Discord: with the Message Content intent, every message people write
in a server channel reaches the core, not only commands, so a table that keeps a log
(``.log on``) finds its chatter in ``.log export``; chatter gets no reply; bots (the
bot itself included) and system messages stay out. Without the intent, Discord sends
no text, and no chatter is passed.

Real discord.py ``Message`` objects through ``on_message``, the real Core on SQLite;
only Discord's HTTP API is a double (doubles.py)."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest

from adapters.discord.client import TrpgDiscordClient
from bot.core import Core
from bot.messages import Incoming, Outgoing
from rules.dice.source import ScriptedSource
from tests.adapters.discord.doubles import (
    BOT_ID,
    CHANNEL_ID,
    GUILD_ID,
    DiscordApi,
    dm_message,
    guild_message,
    make_client,
    member_payload,
    message_payload,
    user_payload,
)
from tests.adapters.discord.test_discord_delivery import ScriptedCore
from tests.conftest import make_settings

# snowflakes: discord.py's clean_content only reads mentions of 15 to 20 digits
ALICE, BOB, OTHER_BOT = 600000000000000501, 600000000000000502, 600000000000000999
_ids = itertools.count(800000000000000000)


def chat(client: TrpgDiscordClient, user_id: int, name: str, content: str, *,
         bot: bool = False, **payload: Any) -> discord.Message:
    """A MESSAGE_CREATE in the table channel, with more fields of Discord's Message
    object (``mentions``, ``attachments``, ``sticker_items``, ``type``)."""
    guild_message(client, user_id, name, "")  # the guild and its channel exist
    state = client._connection
    guild = state._get_guild(GUILD_ID)
    assert guild is not None
    channel = guild.get_channel(CHANNEL_ID)
    assert isinstance(channel, discord.TextChannel)
    data = message_payload(next(_ids), CHANNEL_ID, content,
                           user_payload(user_id, name, bot=bot))
    data["guild_id"] = str(GUILD_ID)
    data["member"] = {k: v for k, v in member_payload(user_id, name).items() if k != "user"}
    data.update(payload)
    return discord.Message(state=state, channel=channel, data=data)


def mentioned(user_id: int, name: str, *, bot: bool = False) -> dict[str, Any]:
    """An entry of a message's ``mentions``: the user with their member data."""
    return {**user_payload(user_id, name, bot=bot), "member": {
        k: v for k, v in member_payload(user_id, name).items() if k != "user"}}


def attachment(filename: str) -> dict[str, Any]:
    return {"id": str(next(_ids)), "filename": filename, "size": 10,
            "url": f"https://cdn.discordapp.com/attachments/1/2/{filename}",
            "proxy_url": f"https://media.discordapp.net/attachments/1/2/{filename}",
            "content_type": "image/png"}


@pytest.fixture
async def core(tmp_path: Path) -> AsyncIterator[Core]:
    opened = await Core.open(make_settings(tmp_path), dice=ScriptedSource([15]))
    yield opened
    await opened.close()


async def test_chatter_of_a_logging_table_is_in_the_exported_log(core: Core) -> None:
    api = DiscordApi()
    client = make_client(core, api, message_content=True, locale="zh-Hant")
    await client.on_message(chat(client, ALICE, "Alice", ".log on 第一夜"))
    assert len(api.messages()) == 1
    opening = chat(client, ALICE, "Alice", "我推開門，走進去。")
    chatter = [
        opening,
        chat(client, BOB, "Bob", f"<@{ALICE}> 小心！", mentions=[mentioned(ALICE, "Alice")]),
        chat(client, BOB, "Bob", "<:nat20:123456789012345678> 大成功"),
        chat(client, ALICE, "Alice", "", attachments=[attachment("地圖.png")]),
        chat(client, BOB, "Bob", "", sticker_items=[{"id": "77", "name": "嚇到",
                                                     "format_type": 1}]),
        # typed as text, not a slash command: "/" is no prefix on Discord — chatter
        chat(client, ALICE, "Alice", "/r 1d20 別當真"),
        chat(client, BOT_ID, "trpgbot", "機器人自己的話", bot=True),
        chat(client, OTHER_BOT, "OtherBot", "別的機器人的話", bot=True),
        chat(client, ALICE, "Alice", "釘選了訊息", type=6),  # a system message (a pin)
        opening,  # delivered twice (a gateway resume): recorded once
    ]
    for message in chatter:
        await client.on_message(message)
    assert len(api.requests) == 1  # chatter gets no reply
    await client.on_message(chat(client, ALICE, "Alice", ".r 1d20"))  # a command runs
    assert len(api.messages()) == 2
    await client.on_message(chat(client, ALICE, "Alice", ".log export"))
    [(name, data)] = api.files()
    assert name == "第一夜.html"
    log = data.decode()
    assert log.count("我推開門，走進去。") == 1
    assert "@Alice 小心！" in log and ":nat20: 大成功" in log
    assert "[地圖.png]" in log and "[嚇到]" in log
    # as typed, with no invisible mark (issue 22 item 10; chatter is Incoming.kind now)
    assert "<p>/r 1d20 別當真</p>" in log and "\u200b" not in log
    for absent in ("機器人自己的話", "別的機器人的話", "釘選了訊息"):
        assert absent not in log
    assert log.index("我推開門") < log.index("/r 1d20") < log.index(".r 1d20")


async def test_chatter_where_nothing_is_logged_gets_no_reply(core: Core) -> None:
    api = DiscordApi()
    client = make_client(core, api, message_content=True)
    for message in (chat(client, ALICE, "Alice", "大家好"),
                    chat(client, ALICE, "Alice", "/r 1d20"),
                    chat(client, ALICE, "Alice", "", attachments=[attachment("a.png")]),
                    dm_message(client, api, ALICE, "Alice", "私訊一句")):
        await client.on_message(message)
    assert api.requests == []


class RecordingCore(ScriptedCore):
    """Records what the client hands over; answers nothing."""

    def __init__(self) -> None:
        super().__init__([])
        self.seen: list[Incoming] = []

    async def handle(self, incoming: Incoming, dice: Any = None) -> list[Outgoing]:
        self.seen.append(incoming)
        return []


async def test_what_chatter_reaches_the_core() -> None:
    core, api = RecordingCore(), DiscordApi()
    client = make_client(core, api, message_content=True)
    await client.on_message(chat(client, ALICE, "Alice", "  嗨  "))
    await client.on_message(chat(client, ALICE, "Alice", ".r 1d20"))
    await client.on_message(chat(client, ALICE, "Alice", f"<@{BOT_ID}> 謝謝",
                                 mentions=[mentioned(BOT_ID, "trpgbot", bot=True)]))
    await client.on_message(chat(client, ALICE, "Alice", "   "))  # nothing to record
    # "/" is left to slash commands: typed as text it is chatter, though it reads like one
    await client.on_message(chat(client, ALICE, "Alice", "/r 1d20"))
    await client.on_message(chat(client, ALICE, "Alice", "／r"))
    assert [(i.text, i.kind, i.channel, i.user, i.display_name, i.is_private)
            for i in core.seen] == [
        ("嗨", "chatter", str(CHANNEL_ID), str(ALICE), "Alice", False),
        (".r 1d20", "command", str(CHANNEL_ID), str(ALICE), "Alice", False),
        ("@trpgbot 謝謝", "chatter", str(CHANNEL_ID), str(ALICE), "Alice", False),
        ("/r 1d20", "chatter", str(CHANNEL_ID), str(ALICE), "Alice", False),
        ("／r", "chatter", str(CHANNEL_ID), str(ALICE), "Alice", False)]
    assert len({i.message_id for i in core.seen}) == 5


async def test_without_the_message_content_intent_no_chatter_is_passed() -> None:
    """Discord then sends the text only of messages that mention the bot: a log of
    those alone would mislead, so chatter is not passed at all; commands still are."""
    core, api = RecordingCore(), DiscordApi()
    client = make_client(core, api)
    assert client.intents.message_content is False
    await client.on_message(chat(client, ALICE, "Alice", f"<@{BOT_ID}> 謝謝"))
    await client.on_message(chat(client, ALICE, "Alice", "", sticker_items=[
        {"id": "77", "name": "嚇到", "format_type": 1}]))
    await client.on_message(chat(client, ALICE, "Alice", f"<@{BOT_ID}> .r 1d20"))
    assert [i.text for i in core.seen] == [".r 1d20"]

