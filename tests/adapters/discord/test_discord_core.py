"""The Discord adapter with the real Core on SQLite: slash commands and prefix
commands from real discord.py objects, Discord's HTTP API as the only double."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from adapters.config import Settings
from bot.core import Core
from rules.dice.source import ScriptedSource
from tests.adapters.discord.doubles import (
    DiscordApi,
    command_payload,
    guild_message,
    invoke,
    make_client,
    markup,
    shown,
)

ALICE, BOB = 601, 602  # Alice is the GM, Bob a player



@pytest.fixture
async def core(settings: Settings) -> AsyncIterator[Core]:
    opened = await Core.open(settings, dice=ScriptedSource([17]))
    yield opened
    await opened.close()


async def test_table_commands_and_neutralised_echo(core: Core) -> None:
    api = DiscordApi()
    client = make_client(core, api)
    await invoke(client, api, command_payload("gm", ALICE, "Alice"))
    await invoke(client, api, command_payload("st", BOB, "Bob", values="觀察 5"))
    await invoke(client, api, command_payload("pc", BOB, "Bob", args="new @everyone"))
    public = api.public()
    assert "Alice" in public[0]
    assert "觀察:5" in public[1]
    assert "@everyone" not in public[2] and "@everyone" in shown(public[2])
    assert all(r.data["allowed_mentions"] == {"parse": []} for r in api.messages())


async def test_autocomplete_offers_the_active_sheet(core: Core) -> None:
    api = DiscordApi()
    client = make_client(core, api)
    await invoke(client, api, command_payload("st", BOB, "Bob", values="觀察 5 潛行 3"))
    await invoke(client, api, command_payload("check", BOB, "Bob", kind=4,
                                              skill=("", "focused")))
    choices = [choice["value"] for choice in api.requests[-1].body["data"]["choices"]]
    assert choices[:2] == ["觀察", "潛行"]
    assert len(choices) <= 25


async def test_secret_roll_ephemeral_to_roller_dm_to_gm(core: Core) -> None:
    api = DiscordApi()
    client = make_client(core, api)
    await invoke(client, api, command_payload("gm", ALICE, "Alice"))
    await invoke(client, api, command_payload("rh", BOB, "Bob", expression="1d20"))
    announcement = api.public()[-1]
    assert "Bob" in announcement and "17" not in announcement
    assert any("17" in text for text in api.ephemeral())
    assert [user for user, text in api.dms() if "17" in text] == [ALICE]


async def test_gm_with_closed_dms_sees_a_notice_and_gets_it_later(core: Core) -> None:
    api = DiscordApi(closed_dms={ALICE})
    client = make_client(core, api)
    await invoke(client, api, command_payload("gm", ALICE, "Alice"))
    await invoke(client, api, command_payload("rh", BOB, "Bob", expression="1d20"))
    assert "Alice" in api.public()[-1]
    assert not any("17" in text for text in api.public())
    await invoke(client, api, command_payload("gm", ALICE, "Alice", action="pending"))
    assert any("17" in text for text in api.ephemeral()[-1:])


async def test_prefix_secret_roll_dms_roller_and_gm(core: Core) -> None:
    api = DiscordApi()
    client = make_client(core, api, message_content=True)
    await client.on_message(guild_message(client, ALICE, "Alice", ".gm"))
    await client.on_message(guild_message(client, BOB, "Bob", "。rh 1d20"))
    assert not any("17" in text for text in api.public())
    assert sorted(user for user, text in api.dms() if "17" in text) == [ALICE, BOB]


async def test_discord_display_name_and_reason_with_markup_come_out_literal(
        core: Core) -> None:
    name = "**Boss** ||x|| <@&1>"
    reason = "[nitro](https://evil.example) # @everyone `x` discord.gg/abc"
    api = DiscordApi()
    client = make_client(core, api, message_content=True)
    await invoke(client, api, command_payload("roll", BOB, name, expression="1d20",
                                              reason=reason))
    await client.on_message(guild_message(client, BOB, name, f".r 1d20 {reason}"))
    first, second = api.public()
    assert shown(first) == f"🎲 {name}「{reason}」：1d20 = [17] = 17"
    assert shown(second).startswith(f"🎲 {name}「{reason}」：1d20 = [")
    assert markup(first) == [] and markup(second) == []
    assert first == ("🎲 \\*\\*Boss\\*\\* \\|\\|x\\|\\| \\<@&1>「\\[nitro\\]"
                     "(https:\u200b//evil.example) # @\u200beveryone \\`x\\` "
                     "discord.\u200bgg/abc」：1d20 = \\[17\\] = 17")
