"""Where the core's replies go on Discord, with the core's output scripted: slash
commands (real ``Interaction`` objects through the real command tree) and prefix
commands (real ``Message`` objects through ``on_message``); only Discord's HTTP
API is a double (tests/adapters/discord/doubles.py)."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest

from adapters.discord.convert import utf16_len
from bot.messages import Incoming, Outgoing
from tests.adapters.discord.doubles import (
    BOT_ID,
    CHANNEL_ID,
    DiscordApi,
    command_payload,
    dm_message,
    guild_message,
    invoke,
    make_client,
    markup,
    shown,
)

CHANNEL = str(CHANNEL_ID)
ALICE, BOB, GM = 501, 502, 503
NONE = discord.AllowedMentions.none().to_dict()


class StubCore:
    """Returns ``outs`` for every command, after ``delay`` seconds."""

    def __init__(self, outs: list[Outgoing] | None = None, delay: float = 0.0) -> None:
        self.outs = outs or []
        self.delay = delay
        self.incoming: list[Incoming] = []
        self.failed: list[Outgoing] = []

    async def handle(self, incoming: Incoming, dice: Any = None) -> list[Outgoing]:
        self.incoming.append(incoming)
        await asyncio.sleep(self.delay)
        return self.outs

    async def private_delivery_failed(self, platform: str, outgoing: Outgoing) -> list[Outgoing]:
        assert platform == "discord"
        self.failed.append(outgoing)
        return [Outgoing("channel", outgoing.channel, f"could not DM <@{outgoing.user}>")]

    async def stat_names(self, platform: str, channel: str, user: str) -> list[str]:
        return ["觀察", "靈巧", "Spot Hidden"]

    async def delivered(self, outgoing: Outgoing) -> None:
        pass

    async def undelivered(self, platform: str) -> list[Outgoing]:
        return []


def hidden_roll(roller: int) -> list[Outgoing]:
    """What the core returns for `.rh 1d20` by ``roller`` with one GM."""
    return [
        Outgoing("channel", CHANNEL, "roller rolled in secret"),
        Outgoing("private", CHANNEL, "1d20 = 17", user=str(roller), secret=True),
        Outgoing("private", CHANNEL, "roller: 1d20 = 17", user=str(GM), secret=True),
    ]


async def test_slash_command_reaches_the_core_as_its_text_command() -> None:
    api, core = DiscordApi(), StubCore([Outgoing("channel", CHANNEL, "ok")])
    client = make_client(core, api)
    await invoke(client, api, command_payload("roll", ALICE, "Alice",
                                              expression="2d6+3", reason="攻擊"))
    assert core.incoming == [Incoming(
        platform="discord", channel=CHANNEL, user=str(ALICE), text=".r 2d6+3 攻擊",
        display_name="Alice", is_private=False,
        message_id=core.incoming[0].message_id)]
    assert core.incoming[0].message_id.startswith("interaction:")


async def test_hidden_roll_ephemeral_to_roller_dm_to_gm_announcement_in_channel() -> None:
    api, core = DiscordApi(), StubCore(hidden_roll(BOB))
    client = make_client(core, api)
    await invoke(client, api, command_payload("rh", BOB, "Bob", expression="1d20"))
    assert api.public() == ["roller rolled in secret"]
    assert api.ephemeral() == ["1d20 = 17"]
    assert api.dms() == [(GM, "roller: 1d20 = 17")]
    assert not any("17" in text for text in api.public())
    assert core.failed == []


async def test_closed_dms_become_a_channel_notice_without_the_secret() -> None:
    api, core = DiscordApi(closed_dms={GM}), StubCore(hidden_roll(BOB))
    client = make_client(core, api)
    await invoke(client, api, command_payload("rh", BOB, "Bob", expression="1d20"))
    assert api.public() == ["roller rolled in secret", f"could not DM \\<@{GM}>"]
    assert [o.user for o in core.failed] == [str(GM)]
    assert api.ephemeral() == ["1d20 = 17"]
    assert [r.content for r in api.refused()] == ["roller: 1d20 = 17"]
    assert not any("17" in text for text in api.public())


async def test_echoed_mentions_are_neutralised_everywhere() -> None:
    echo = "Alice rolls for @everyone and @here and <@&42>: 12"
    api = DiscordApi()
    core = StubCore([Outgoing("channel", CHANNEL, echo),
                     Outgoing("private", CHANNEL, echo, user=str(ALICE)),
                     Outgoing("private", CHANNEL, echo, user=str(GM))])
    client = make_client(core, api)
    await invoke(client, api, command_payload("roll", ALICE, "Alice", expression="d20",
                                              reason="@everyone"))
    await client.on_message(guild_message(client, ALICE, "Alice", ".r d20 @everyone"))
    sent = api.messages()
    assert len(sent) == 6
    assert all(request.data["allowed_mentions"] == NONE for request in sent)
    assert NONE == {"parse": []}
    shown = "Alice rolls for @\u200beveryone and @\u200bhere and \\<@&42>: 12"
    assert all(request.content == shown for request in sent)


async def echo_everywhere(echo: str) -> list[str]:
    """``echo`` as the core's channel reply, the invoker's private copy and a GM's DM,
    for a slash command and for a prefix command: every content Discord received."""
    api = DiscordApi()
    core = StubCore([Outgoing("channel", CHANNEL, echo),
                     Outgoing("private", CHANNEL, echo, user=str(ALICE)),
                     Outgoing("private", CHANNEL, echo, user=str(GM))])
    client = make_client(core, api)
    await invoke(client, api, command_payload("roll", ALICE, "Alice", expression="d20"))
    await client.on_message(guild_message(client, ALICE, "Alice", ".r d20"))
    sent = api.messages()
    assert len(sent) == 6  # response, ephemeral follow-up, DM; reply, DM, DM
    assert all(request.data["allowed_mentions"] == NONE for request in sent)
    return [request.content for request in sent]


async def test_item13_discord_masked_link_is_escaped() -> None:
    echo = "🎲 Alice「[free nitro](https://evil.example/x)」：1d20 = [17] = 17"
    contents = await echo_everywhere(echo)
    assert contents == [
        "🎲 Alice「\\[free nitro\\](https:\u200b//evil.example/x)」：1d20 = \\[17\\] = 17"] * 6
    assert all(markup(content) == [] and shown(content) == echo for content in contents)


async def test_item13_discord_bare_link_is_neither_clickable_nor_embedded() -> None:
    echo = "Alice: see https://evil.example/a_b, <http://x.example> and discord.gg/abc"
    contents = await echo_everywhere(echo)
    assert contents == ["Alice: see https:\u200b//evil.example/a\\_b, "
                        "\\<http:\u200b//x.example> and discord.\u200bgg/abc"] * 6
    assert all("://" not in content and "discord.gg" not in content for content in contents)
    assert all(shown(content) == echo for content in contents)


@pytest.mark.parametrize(("echo", "sent"), [
    ("# big", "\\# big"),
    ("## medium", "\\## medium"),
    ("### small", "\\### small"),
    ("-# subtext", "\\-# subtext"),
    ("> quote", "\\> quote"),
    (">>> quote all", "\\>>> quote all"),
    ("- item", "\\- item"),
    ("+ item", "\\+ item"),
    ("* item", "\\* item"),
    ("12. item", "12\\. item"),
    ("  - indented", "  \\- indented"),
    ("**bold** *it* _it_ __under__ ~~strike~~", "\\*\\*bold\\*\\* \\*it\\* \\_it\\_ "
     "\\_\\_under\\_\\_ \\~\\~strike\\~\\~"),
    ("||spoiler|| `code` ```block```", "\\|\\|spoiler\\|\\| \\`code\\` "
     "\\`\\`\\`block\\`\\`\\`"),
    ("<@501> <@!501> <@&42> <#444> </roll:1> <t:0:R> <:e:1>",
     "\\<@501> \\<@!501> \\<@&42> \\<#444> \\</roll:1> \\<t:0:R> \\<:e:1>"),
    ("@everyone @here", "@\u200beveryone @\u200bhere"),
    ("a\\*b*", "a\\\\\\*b\\*"),
    ("line\n# two\n1. three", "line\n\\# two\n1\\. three"),
])
async def test_item13_discord_markup_is_shown_literally(echo: str, sent: str) -> None:
    api, core = DiscordApi(), StubCore([Outgoing("channel", CHANNEL, echo)])
    client = make_client(core, api)
    await invoke(client, api, command_payload("roll", ALICE, "Alice", expression="d20"))
    [content] = api.public()
    assert content == sent
    assert markup(content) == []
    assert shown(content) == echo


async def test_item13_discord_split_after_escaping_never_cuts_an_escape() -> None:
    echo = "a" + "*" * 1500  # 3,001 characters once escaped, no place to cut:
    # character 2,000 is the backslash of an escape, which must not be cut off
    api, core = DiscordApi(), StubCore([Outgoing("channel", CHANNEL, echo)])
    client = make_client(core, api)
    await invoke(client, api, command_payload("roll", ALICE, "Alice", expression="d20"))
    pieces = api.public()
    assert [utf16_len(piece) for piece in pieces] == [1999, 1002]
    assert all(markup(piece) == [] for piece in pieces)
    assert "".join(shown(piece) for piece in pieces) == echo


@pytest.mark.parametrize(("marker", "escaped"), [
    ("#", "\\#"), ("-#", "\\-#"), (">", "\\>"), ("-", "\\-"), ("3.", "3\\.")])
async def test_item13_discord_a_piece_cut_at_a_space_never_starts_with_markup(
        marker: str, escaped: str) -> None:
    echo = "x" * 1998 + f" {marker} tail"  # the cut falls on the space before the marker
    api, core = DiscordApi(), StubCore([Outgoing("channel", CHANNEL, echo)])
    client = make_client(core, api)
    await invoke(client, api, command_payload("roll", ALICE, "Alice", expression="d20"))
    assert api.public() == ["x" * 1998, f"{escaped} tail"]


async def test_long_replies_are_split_at_2000_characters() -> None:
    lines = [f"{i:04d} " + "骰" * 95 for i in range(45)]  # 45 lines of 100 characters
    api, core = DiscordApi(), StubCore([Outgoing("channel", CHANNEL, "\n".join(lines))])
    client = make_client(core, api)
    await invoke(client, api, command_payload("help", ALICE, "Alice"))
    pieces = api.public()
    assert len(pieces) == 3
    assert all(len(piece) <= 2000 for piece in pieces)
    assert "\n".join(pieces) == "\n".join(lines)


async def test_secret_never_goes_to_a_channel() -> None:
    api = DiscordApi()
    core = StubCore([Outgoing("channel", CHANNEL, "17", secret=True),
                     Outgoing("channel", CHANNEL, "public")])
    client = make_client(core, api)
    await invoke(client, api, command_payload("rh", ALICE, "Alice", expression="d20"))
    assert api.public() == ["public"]


async def test_an_empty_answer_still_answers_the_interaction() -> None:
    api, core = DiscordApi(), StubCore([])
    client = make_client(core, api)
    await invoke(client, api, command_payload("init", ALICE, "Alice", client_locale="zh-TW"))
    assert api.ephemeral() == ["（沒有可回覆的內容）"]


async def test_slow_core_defers_then_replaces_the_placeholder() -> None:
    api = DiscordApi()
    core = StubCore(hidden_roll(ALICE), delay=0.2)
    client = make_client(core, api, defer_after=0.05)
    await invoke(client, api, command_payload("rh", ALICE, "Alice", expression="d20"))
    steps = [(r.method, r.path.split("/")[1], r.content, r.ephemeral) for r in api.requests]
    assert steps[0][:2] == ("POST", "interactions")  # the deferral ("thinking…")
    assert api.requests[0].body["type"] == 5
    assert steps[1] == ("PATCH", "webhooks", "roller rolled in secret", False)
    assert steps[2] == ("POST", "webhooks", "1d20 = 17", True)
    assert api.dms() == [(GM, "roller: 1d20 = 17")]


async def test_slow_core_with_only_a_private_answer_removes_the_public_placeholder() -> None:
    api = DiscordApi()
    core = StubCore([Outgoing("private", CHANNEL, "only for you", user=str(ALICE))],
                    delay=0.2)
    client = make_client(core, api, defer_after=0.05)
    await invoke(client, api, command_payload("gm", ALICE, "Alice", action="pending"))
    assert [(r.method, r.path.split("/")[-1]) for r in api.requests] == [
        ("POST", "callback"), ("DELETE", "@original"), ("POST", "fake-interaction-token")]
    assert api.ephemeral() == ["only for you"]
    assert api.public() == []


async def test_prefix_command_replies_in_channel_and_dms_the_secret() -> None:
    api, core = DiscordApi(), StubCore(hidden_roll(BOB))
    client = make_client(core, api, message_content=True)
    await client.on_message(guild_message(client, BOB, "Bob", "。rh 1d20"))
    assert core.incoming[0].text == "。rh 1d20"
    assert core.incoming[0].channel == CHANNEL
    assert api.public() == ["roller rolled in secret"]
    reply = api.messages()[0]
    assert reply.data["message_reference"]["fail_if_not_exists"] is False
    assert api.dms() == [(BOB, "1d20 = 17"), (GM, "roller: 1d20 = 17")]


async def test_prefix_command_roller_with_closed_dms_gets_a_notice() -> None:
    api, core = DiscordApi(closed_dms={BOB}), StubCore(hidden_roll(BOB))
    client = make_client(core, api)
    await client.on_message(guild_message(client, BOB, "Bob", ".rh 1d20"))
    assert api.public() == ["roller rolled in secret", f"could not DM \\<@{BOB}>"]
    assert api.dms() == [(GM, "roller: 1d20 = 17")]


async def test_a_refused_channel_post_does_not_cost_the_gm_their_copy() -> None:
    api = DiscordApi(locked_channels={CHANNEL_ID})
    core = StubCore(hidden_roll(BOB))
    client = make_client(core, api)
    await client.on_message(guild_message(client, BOB, "Bob", ".rh 1d20"))
    assert [r.content for r in api.refused()] == ["roller rolled in secret"]
    assert api.dms() == [(BOB, "1d20 = 17"), (GM, "roller: 1d20 = 17")]


async def test_prefix_command_in_a_dm_uses_the_private_pseudo_channel() -> None:
    api = DiscordApi()
    core = StubCore([Outgoing("channel", f"dm:{ALICE}", "hello")])
    client = make_client(core, api)
    await client.on_message(dm_message(client, api, ALICE, "Alice", ".help"))
    assert core.incoming[0].channel == f"dm:{ALICE}"
    assert core.incoming[0].is_private
    assert api.dms() == [(ALICE, "hello")]


@pytest.mark.parametrize("content", ["hello", "r 1d20", "", "/r 1d20"])
async def test_ordinary_messages_are_ignored(content: str) -> None:
    api, core = DiscordApi(), StubCore([Outgoing("channel", CHANNEL, "x")])
    client = make_client(core, api)
    await client.on_message(guild_message(client, ALICE, "Alice", content))
    assert core.incoming == [] and api.requests == []


async def test_other_bots_are_ignored() -> None:
    api, core = DiscordApi(), StubCore([Outgoing("channel", CHANNEL, "x")])
    client = make_client(core, api)
    await client.on_message(guild_message(client, 999, "OtherDiceBot", ".r", bot=True))
    assert core.incoming == []


async def test_skill_autocomplete_filters_the_sheet() -> None:
    api, core = DiscordApi(), StubCore()
    client = make_client(core, api)
    await invoke(client, api, command_payload("check", ALICE, "Alice", kind=4,
                                              skill=("觀", "focused")))
    assert api.requests[-1].body == {"type": 8, "data": {"choices": [
        {"name": "觀察", "value": "觀察"}]}}


async def test_mentioning_the_bot_works_without_the_message_content_intent() -> None:
    api, core = DiscordApi(), StubCore([Outgoing("channel", CHANNEL, "ok")])
    client = make_client(core, api)
    await client.on_message(guild_message(client, ALICE, "Alice", f"<@{BOT_ID}> .r 1d20"))
    assert core.incoming[0].text == ".r 1d20"
