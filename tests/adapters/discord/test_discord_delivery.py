"""Where the bot's replies go on Discord: slash commands (real ``Interaction``
objects through the real command tree) and prefix commands (real ``Message``
objects through ``on_message``), answered by the real Core on SQLite with
scripted dice; only Discord's HTTP API is a double (doubles.py).

``ScriptedCore`` remains only where a test needs a reply the real core never
gives (arbitrary text for the markdown escaping, a secret addressed to the
channel)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from adapters.discord import convert as discord_convert
from adapters.discord.delivery import (
    InteractionOrigin,
    MessageOrigin,
    send_dm,
    send_ping,
    send_to_channel,
)
from adapters.split import utf16_length
from bot.core import Core
from bot.messages import Incoming, Outgoing
from rules.dice.source import ScriptedSource
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
from tests.conftest import make_settings
from tests.support import strict_dice

CHANNEL = str(CHANNEL_ID)
ALICE, BOB, GM = 501, 502, 503
NONE = discord.AllowedMentions.none().to_dict()

# the real core's zh-Hant texts (bot/locales/zh-Hant), as Discord receives them
# (escaped for markdown: ``[`` → ``\[``)
GM_CLAIMED = "Gina 成為本頻道的 GM。"
BOB_ROLLED_IN_SECRET = "🎲 Bob 進行了一次暗骰。"
BOB_SECRET = "（暗骰）🎲 Bob：1d20 = \\[17\\] = 17"
BOB_SECRET_FOR_GM = "（Bob 的暗骰）🎲 Bob：1d20 = \\[17\\] = 17"
NOTHING_PENDING = "沒有待補送給你的私訊。"
NO_REPLY = "（沒有可回覆的內容）"  # adapters/discord/i18n.py reply.none, zh-TW


def cannot_dm(name: str) -> str:
    return (f"無法私訊 {name}（可能尚未加機器人好友或關閉了私訊）。"
            "內容已保留，加好友後請輸入 .gm pending 取回。")


OpenCore = Callable[..., Awaitable[Core]]


@pytest.fixture
async def open_core(tmp_path: Path) -> AsyncIterator[OpenCore]:
    """``await open_core(17, 4)``: a real Core whose dice roll 17, then 4."""
    opened: list[Core] = []

    async def open_(*dice: int) -> Core:
        core = await Core.open(make_settings(tmp_path),
                               dice=strict_dice(dice))
        opened.append(core)
        return core

    yield open_
    for core in opened:
        await core.close()


class SlowCore:
    """The real core, answering only after ``delay`` seconds (a busy database): long
    enough for the adapter to defer the interaction."""

    def __init__(self, core: Core | ScriptedCore, delay: float) -> None:
        self.core = core
        self.delay = delay

    async def handle(self, incoming: Incoming, dice: Any = None) -> list[Outgoing]:
        await asyncio.sleep(self.delay)
        return await self.core.handle(incoming, dice)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.core, name)


class ScriptedCore:
    """Returns ``outs`` for every command: only for replies the real core never gives."""

    def __init__(self, outs: list[Outgoing] | None = None) -> None:
        self.outs = outs or []

    async def handle(self, incoming: Incoming, dice: Any = None) -> list[Outgoing]:
        return self.outs

    async def private_delivery_failed(self, platform: str, outgoing: Outgoing) -> list[Outgoing]:
        raise AssertionError("no private message is refused in these tests")

    async def stat_names(self, platform: str, channel: str, user: str) -> list[str]:
        return []

    async def delivered(self, outgoing: Outgoing) -> None:
        pass

    async def undelivered(self, platform: str) -> list[Outgoing]:
        return []


async def test_slash_command_is_answered_by_the_core_in_the_channel(
        open_core: OpenCore) -> None:
    core = await open_core(4, 5)
    api = DiscordApi()
    client = make_client(core, api)
    await invoke(client, api, command_payload("roll", ALICE, "Alice",
                                              expression="2d6+3", reason="攻擊"))
    assert api.public() == ["🎲 Alice「攻擊」：2d6+3 = \\[4, 5\\]+3 = 12"]
    assert api.ephemeral() == [] and api.dms() == []
    [response] = api.requests
    assert (response.method, response.path.split("/")[-1]) == ("POST", "callback")
    assert response.body["type"] == 4  # the interaction's response, not a follow-up


async def gm_and_hidden_roll(client: discord.Client, api: DiscordApi) -> None:
    """Gina claims the GM seat, then Bob rolls ``/rh 1d20`` (the dice give 17)."""
    await invoke(client, api, command_payload("gm", GM, "Gina"))
    await invoke(client, api, command_payload("rh", BOB, "Bob", expression="1d20"))


async def test_hidden_roll_ephemeral_to_roller_dm_to_gm_announcement_in_channel(
        open_core: OpenCore) -> None:
    api, core = DiscordApi(), await open_core(17)
    client = make_client(core, api)
    await gm_and_hidden_roll(client, api)
    assert api.public() == [GM_CLAIMED, BOB_ROLLED_IN_SECRET]
    assert api.ephemeral() == [BOB_SECRET]
    assert api.dms() == [(GM, BOB_SECRET_FOR_GM)]
    assert api.refused() == []


async def test_closed_dms_become_a_channel_notice_without_the_secret(
        open_core: OpenCore) -> None:
    api, core = DiscordApi(closed_dms={GM}), await open_core(17)
    client = make_client(core, api)
    await gm_and_hidden_roll(client, api)
    assert api.public() == [GM_CLAIMED, BOB_ROLLED_IN_SECRET, cannot_dm("Gina")]
    assert api.ephemeral() == [BOB_SECRET]
    assert [r.content for r in api.refused()] == [BOB_SECRET_FOR_GM]
    assert api.dms() == []
    # kept for `.gm pending` (the core's promise), which answers ephemerally
    api.closed_dms.clear()
    await invoke(client, api, command_payload("gm", GM, "Gina", action="pending"))
    assert api.ephemeral() == [BOB_SECRET, BOB_SECRET_FOR_GM]


async def test_echoed_mentions_are_neutralised_everywhere(open_core: OpenCore) -> None:
    api, core = DiscordApi(), await open_core(12, 12)
    client = make_client(core, api)
    await invoke(client, api, command_payload("roll", ALICE, "Alice", expression="d20",
                                              reason="@everyone @here <@&42>"))
    await client.on_message(guild_message(client, ALICE, "Alice",
                                          ".r d20 @everyone @here <@&42>"))
    sent = api.messages()
    assert [r.content for r in sent] == [
        "🎲 Alice「@\u200beveryone @\u200bhere \\<@&42>」：1d20 = \\[12\\] = 12"] * 2
    assert all(request.data["allowed_mentions"] == NONE for request in sent)
    assert NONE == {"parse": []}


async def echo_everywhere(echo: str) -> list[str]:
    """``echo`` as the core's channel reply, the invoker's private copy and a GM's DM,
    for a slash command and for a prefix command: every content Discord received."""
    api = DiscordApi()
    core = ScriptedCore([Outgoing("channel", CHANNEL, echo),
                     Outgoing("private", CHANNEL, echo, user=str(ALICE)),
                     Outgoing("private", CHANNEL, echo, user=str(GM))])
    client = make_client(core, api)
    await invoke(client, api, command_payload("roll", ALICE, "Alice", expression="d20"))
    await client.on_message(guild_message(client, ALICE, "Alice", ".r d20"))
    sent = api.messages()
    assert len(sent) == 6  # response, ephemeral follow-up, DM; reply, DM, DM
    assert all(request.data["allowed_mentions"] == NONE for request in sent)
    return [request.content for request in sent]


async def test_discord_masked_link_is_escaped() -> None:
    echo = "🎲 Alice「[free nitro](https://evil.example/x)」：1d20 = [17] = 17"
    contents = await echo_everywhere(echo)
    assert contents == [
        "🎲 Alice「\\[free nitro\\](https:\u200b//evil.example/x)」：1d20 = \\[17\\] = 17"] * 6
    assert all(markup(content) == [] and shown(content) == echo for content in contents)


async def test_discord_bare_link_is_neither_clickable_nor_embedded() -> None:
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
async def test_discord_markup_is_shown_literally(echo: str, sent: str) -> None:
    api, core = DiscordApi(), ScriptedCore([Outgoing("channel", CHANNEL, echo)])
    client = make_client(core, api)
    await invoke(client, api, command_payload("roll", ALICE, "Alice", expression="d20"))
    [content] = api.public()
    assert content == sent
    assert markup(content) == []
    assert shown(content) == echo


async def test_discord_split_after_escaping_never_cuts_an_escape() -> None:
    echo = "a" + "*" * 1500  # 3,001 characters once escaped, no place to cut:
    # character 2,000 is the backslash of an escape, which must not be cut off
    api, core = DiscordApi(), ScriptedCore([Outgoing("channel", CHANNEL, echo)])
    client = make_client(core, api)
    await invoke(client, api, command_payload("roll", ALICE, "Alice", expression="d20"))
    pieces = api.public()
    assert [utf16_length(piece) for piece in pieces] == [1999, 1002]
    assert all(markup(piece) == [] for piece in pieces)
    assert "".join(shown(piece) for piece in pieces) == echo


@pytest.mark.parametrize(("marker", "escaped"), [
    ("#", "\\#"), ("-#", "\\-#"), (">", "\\>"), ("-", "\\-"), ("3.", "3\\.")])
async def test_discord_a_piece_cut_at_a_space_never_starts_with_markup(
        marker: str, escaped: str) -> None:
    echo = "x" * 1998 + f" {marker} tail"  # the cut falls on the space before the marker
    api, core = DiscordApi(), ScriptedCore([Outgoing("channel", CHANNEL, echo)])
    client = make_client(core, api)
    await invoke(client, api, command_payload("roll", ALICE, "Alice", expression="d20"))
    assert api.public() == ["x" * 1998, f"{escaped} tail"]


async def test_long_replies_are_split_at_2000_characters() -> None:
    lines = [f"{i:04d} " + "骰" * 95 for i in range(45)]  # 45 lines of 100 characters
    api, core = DiscordApi(), ScriptedCore([Outgoing("channel", CHANNEL, "\n".join(lines))])
    client = make_client(core, api)
    await invoke(client, api, command_payload("help", ALICE, "Alice"))
    pieces = api.public()
    assert len(pieces) == 3
    assert all(len(piece) <= 2000 for piece in pieces)
    assert "\n".join(pieces) == "\n".join(lines)


async def test_secret_never_goes_to_a_channel() -> None:
    api = DiscordApi()
    core = ScriptedCore([Outgoing("channel", CHANNEL, "17", secret=True),
                     Outgoing("channel", CHANNEL, "public")])
    client = make_client(core, api)
    await invoke(client, api, command_payload("rh", ALICE, "Alice", expression="d20"))
    assert api.public() == ["public"]


async def test_an_empty_answer_still_answers_the_interaction() -> None:
    """The real core answers every slash command with something (a verb its system
    lacks runs another system's command, which explains itself); a core answering
    nothing still gets the interaction answered: a short ephemeral text."""
    api = DiscordApi()
    client = make_client(ScriptedCore([]), api)
    await invoke(client, api, command_payload("roll", ALICE, "Alice", expression="d20",
                              client_locale="zh-TW"))
    assert [(r.method, r.path.split("/")[-1], r.body["type"]) for r in api.requests] == [
        ("POST", "callback", 4)]
    assert api.ephemeral() == [NO_REPLY]
    assert api.public() == []


async def test_slow_core_defers_then_replaces_the_placeholder(open_core: OpenCore) -> None:
    api, core = DiscordApi(), await open_core(17)
    client = make_client(SlowCore(core, 0.2), api, defer_after=0.05)
    await invoke(client, api, command_payload("gm", GM, "Gina"))
    api.requests.clear()
    payload = command_payload("rh", BOB, "Bob", expression="1d20")
    await invoke(client, api, payload)
    assert [(r.method, r.path.split("/")[-1], r.content, r.ephemeral)
            for r in api.requests if r.via == "webhook"] == [
        ("POST", "callback", "", False),  # the deferral ("thinking…")
        ("PATCH", "@original", BOB_ROLLED_IN_SECRET, False),
        ("POST", payload["token"], BOB_SECRET, True)]
    assert api.requests[0].body["type"] == 5
    assert api.dms() == [(GM, BOB_SECRET_FOR_GM)]


async def test_slow_core_with_only_a_private_answer_removes_the_public_placeholder(
        open_core: OpenCore) -> None:
    api, core = DiscordApi(), await open_core()
    client = make_client(SlowCore(core, 0.2), api, defer_after=0.05)
    payload = command_payload("gm", ALICE, "Alice", action="pending")
    await invoke(client, api, payload)
    token = payload["token"]
    assert [(r.method, r.path.split("/")[-1]) for r in api.requests] == [
        ("POST", "callback"), ("DELETE", "@original"), ("POST", token)]
    assert api.requests[0].body["type"] == 5
    assert api.ephemeral() == [NOTHING_PENDING]
    assert api.public() == [] and api.refused() == []


async def test_deferred_empty_answer_leaves_no_thinking_placeholder() -> None:
    """A deferred interaction whose core answer is empty: the public "thinking…"
    placeholder is deleted (``InteractionOrigin.finish``) and the fallback is said
    ephemerally, so neither a placeholder nor a public message is left. (The real
    core answers every slash verb, see above, so the empty answer is scripted.)"""
    api = DiscordApi()
    client = make_client(SlowCore(ScriptedCore([]), 0.2), api, defer_after=0.05)  # type: ignore[arg-type]
    payload = command_payload("roll", ALICE, "Alice", expression="d20",
                              client_locale="zh-TW")
    await invoke(client, api, payload)
    assert [(r.method, r.path.split("/")[-1]) for r in api.requests] == [
        ("POST", "callback"), ("DELETE", "@original"), ("POST", payload["token"])]
    assert api.requests[0].body["type"] == 5  # deferred: "thinking…"
    assert api.ephemeral() == [NO_REPLY]
    assert api.public() == [] and api.refused() == []
    assert api.originals == set()  # no original response (placeholder) is left


async def test_prefix_command_replies_in_channel_and_dms_the_secret(
        open_core: OpenCore) -> None:
    api, core = DiscordApi(), await open_core(17)
    client = make_client(core, api, message_content=True)
    await client.on_message(guild_message(client, GM, "Gina", ".gm"))
    await client.on_message(guild_message(client, BOB, "Bob", "。rh 1d20"))
    assert api.public() == [GM_CLAIMED, BOB_ROLLED_IN_SECRET]
    replies = [r for r in api.messages() if not api.is_dm(r)]
    assert all(r.data["message_reference"]["fail_if_not_exists"] is False for r in replies)
    assert api.dms() == [(BOB, BOB_SECRET), (GM, BOB_SECRET_FOR_GM)]


async def test_prefix_command_roller_with_closed_dms_gets_a_notice(
        open_core: OpenCore) -> None:
    api, core = DiscordApi(closed_dms={BOB}), await open_core(17)
    client = make_client(core, api)
    await client.on_message(guild_message(client, GM, "Gina", ".gm"))
    await client.on_message(guild_message(client, BOB, "Bob", ".rh 1d20"))
    assert api.public() == [GM_CLAIMED, BOB_ROLLED_IN_SECRET, cannot_dm(str(BOB))]
    assert [r.content for r in api.refused()] == [BOB_SECRET]
    assert api.dms() == [(GM, BOB_SECRET_FOR_GM)]


async def test_a_refused_channel_post_does_not_cost_the_gm_their_copy(
        open_core: OpenCore) -> None:
    api, core = DiscordApi(), await open_core(17)
    client = make_client(core, api)
    await client.on_message(guild_message(client, GM, "Gina", ".gm"))
    api.locked_channels.add(CHANNEL_ID)
    await client.on_message(guild_message(client, BOB, "Bob", ".rh 1d20"))
    assert [r.content for r in api.refused()] == [BOB_ROLLED_IN_SECRET]
    assert api.dms() == [(BOB, BOB_SECRET), (GM, BOB_SECRET_FOR_GM)]


async def test_prefix_command_in_a_dm_is_answered_in_the_dm(open_core: OpenCore) -> None:
    api, core = DiscordApi(), await open_core(17)
    client = make_client(core, api)
    await client.on_message(dm_message(client, api, ALICE, "Alice", ".r d20"))
    assert api.dms() == [(ALICE, "🎲 Alice：1d20 = \\[17\\] = 17")]
    assert api.public() == []


@pytest.mark.parametrize("content", ["hello", "r 1d20", "", "/r 1d20"])
async def test_ordinary_messages_are_ignored(open_core: OpenCore, content: str) -> None:
    api, core = DiscordApi(), await open_core()
    client = make_client(core, api, message_content=True)
    await client.on_message(guild_message(client, ALICE, "Alice", content))
    assert api.requests == []


async def test_other_bots_are_ignored(open_core: OpenCore) -> None:
    api, core = DiscordApi(), await open_core(17)
    client = make_client(core, api, message_content=True)
    await client.on_message(guild_message(client, 999, "OtherDiceBot", ".r", bot=True))
    assert api.requests == []


async def test_skill_autocomplete_filters_the_sheet(open_core: OpenCore) -> None:
    api, core = DiscordApi(), await open_core()
    client = make_client(core, api)
    await invoke(client, api, command_payload("st", ALICE, "Alice",
                                              values="觀察 5 靈巧 12 Spot 3"))
    await invoke(client, api, command_payload("check", ALICE, "Alice", kind=4,
                                              skill=("觀", "focused")))
    assert api.requests[-1].body == {"type": 8, "data": {"choices": [
        {"name": "觀察", "value": "觀察"}]}}


async def test_mentioning_the_bot_works_without_the_message_content_intent(
        open_core: OpenCore) -> None:
    api, core = DiscordApi(), await open_core(17)
    client = make_client(core, api)
    await client.on_message(guild_message(client, ALICE, "Alice", f"<@{BOT_ID}> .r 1d20"))
    assert api.public() == ["🎲 Alice：1d20 = \\[17\\] = 17"]


async def test_the_player_whose_turn_it_is_is_pinged_alone(tmp_path: Path) -> None:
    """Issue 12, item 7: after a turn announcement, one short message mentions the next
    investigator's player with allowed_mentions naming that user only."""
    core = await Core.open(make_settings(tmp_path), dice=ScriptedSource([15, 3]))
    try:
        api = DiscordApi()
        client = make_client(core, api, message_content=True, locale="zh-Hant")
        for user, name, line in ((901, "Gm", ".gm"), (601, "Alice", ".st 靈巧 2 體力 8"),
                                 (601, "Alice", ".battle join"),
                                 (901, "Gm", ".enemy add 暴徒 靈巧=1 hp=9 human")):
            await client.on_message(guild_message(client, user, name, line))
        api.requests.clear()
        await client.on_message(guild_message(client, 901, "Gm", ".battle start"))
        posts = [(r.content, r.data.get("allowed_mentions")) for r in api.messages()]
        assert len(posts) == 3
        assert posts[0][1] == {"parse": []}  # the announcement pings nobody
        assert posts[1] == ("<@601>", {"parse": [], "users": [601]})
        assert "暴徒 4（d20=3 靈巧+1）" in posts[2][0]  # the GM's copy: the enemy's roll
        api.requests.clear()
        await client.on_message(guild_message(client, 601, "Alice", ".pass"))
        # the enemy's turn: its GM plays it and is pinged alone (issue 24, the kit's ping)
        posts = [(r.content, r.data.get("allowed_mentions")) for r in api.messages()]
        assert [mentions for _, mentions in posts] == [{"parse": []},
                                                        {"parse": [], "users": [901]}]
        assert posts[1][0] == "<@901>"
    finally:
        await core.close()


async def test_a_board_is_a_code_block_on_discord(tmp_path: Path) -> None:
    """Issue 12, item 8: a battle board keeps its columns in a code block, where no
    markup, link or mention is rendered (a name cannot close the block)."""
    core = await Core.open(make_settings(tmp_path), dice=ScriptedSource([15]))
    try:
        api = DiscordApi()
        client = make_client(core, api, message_content=True, locale="zh-Hant")
        for user, name, line in ((901, "Gm", ".gm"), (601, "Alice", ".st 靈巧 2 體力 8"),
                                 (601, "Alice", ".battle join"), (901, "Gm", ".battle start"),
                                 (901, "Gm", ".place Alice B2")):
            await client.on_message(guild_message(client, user, name, line))
        api.requests.clear()
        await client.on_message(guild_message(client, 901, "Gm", ".field"))
        [board] = [r.content for r in api.messages()]
        assert board.startswith("```\n") and board.endswith("\n```")
        assert board.count("```") == 2 and "\\" not in board
    finally:
        await core.close()


def test_block_pieces_cannot_be_closed_by_their_text() -> None:
    from adapters.discord.convert import message_pieces

    assert message_pieces("A ``` **x** <@1>", block=True) == ["```\nA ˋˋˋ **x** <@1>\n```"]


# ------------------------------------------------------------------ delivery.py with small doubles
def _http_error(status: int = 403, code: int = 50013,
                message: str = "Missing Permissions") -> discord.HTTPException:
    """discord.py's exception for Discord's JSON error answer (docs, "JSON Error Codes")."""
    return discord.HTTPException(SimpleNamespace(status=status, reason="Forbidden"),
                                 {"code": code, "message": message})


class _Channel(discord.abc.Messageable):
    """A text channel that records what is sent to it (optionally refusing)."""

    def __init__(self, error: Exception | None = None) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []
        self.error = error

    async def _get_channel(self) -> Any:  # pragma: no cover - never reached
        return self

    async def send(self, content: Any = None, **kwargs: Any) -> Any:  # type: ignore[override]
        if self.error is not None:
            raise self.error
        self.sent.append((content, kwargs))


class _Client:
    """Discord's REST side for one text channel (id 444) and DMs."""

    def __init__(self, channel: Any, cached: bool = True,
                 dm_error: Exception | None = None) -> None:
        self.channel, self.cached, self.dm_error = channel, cached, dm_error
        self.fetched: list[int] = []
        self.dms: dict[int, _Channel] = {}

    def get_channel(self, channel_id: int) -> Any:
        assert isinstance(channel_id, int)
        return self.channel if self.cached and channel_id == 444 else None

    async def fetch_channel(self, channel_id: int) -> Any:
        self.fetched.append(channel_id)
        if channel_id != 444:
            raise _http_error(404, 10003, "Unknown Channel")
        return self.channel

    async def create_dm(self, user: discord.abc.Snowflake) -> _Channel:
        return self.dms.setdefault(user.id, _Channel(self.dm_error))


async def test_a_turn_ping_mentions_exactly_the_players_it_names() -> None:
    channel = _Channel()
    await send_ping(_Client(channel, cached=False), "444", ("11", "not-an-id", "22"))
    [(content, kwargs)] = channel.sent
    assert content == "<@11> <@22>"
    # what Discord receives: no @everyone/@here, no role, no reply ping; these users only
    assert kwargs["allowed_mentions"].to_dict() == {"parse": [], "users": [11, 22]}


async def test_a_turn_ping_needs_players_and_a_channel_id() -> None:
    channel = _Channel()
    client = _Client(channel, cached=False)
    await send_ping(client, "444", ("not-an-id",))
    await send_ping(client, "dm:11", ("11",))
    assert channel.sent == [] and client.fetched == []
    await send_ping(client, "444", ("11",))
    assert client.fetched == [444]


async def test_a_refused_turn_ping_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="adapters.discord.delivery"):
        await send_ping(_Client(_Channel(_http_error())), "444", ("11",))
    assert [r.getMessage() for r in caplog.records] == [
        "turn ping in channel 444 failed: 403 Forbidden (error code: 50013): "
        "Missing Permissions"]


async def test_a_dm_to_something_that_is_no_user_id_is_refused(
        caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR, logger="adapters.discord.delivery"):
        assert await send_dm(_Client(_Channel()), "dm:5", "hello") is False  # type: ignore[arg-type]
    assert [r.getMessage() for r in caplog.records] == ["not a Discord user id: 'dm:5'"]


async def test_a_dm_is_sent_without_mentions_and_a_refusal_is_reported(
        caplog: pytest.LogCaptureFixture) -> None:
    client = _Client(_Channel())
    assert await send_dm(client, "5", "@everyone *hi*") is True  # type: ignore[arg-type]
    assert [(c, k["allowed_mentions"]) for c, k in client.dms[5].sent] == [
        ("@\u200beveryone \\*hi\\*", discord_convert.NO_MENTIONS)]
    closed = _Client(_Channel(), dm_error=_http_error(403, 50007,
                                                     "Cannot send messages to this user"))
    with caplog.at_level(logging.INFO, logger="adapters.discord.delivery"):
        assert await send_dm(closed, "5", "hi") is False  # type: ignore[arg-type]
    assert [r.getMessage() for r in caplog.records] == ["DM to 5 refused: 403 50007"]


async def test_a_message_for_another_channel_goes_there_or_by_dm(
        caplog: pytest.LogCaptureFixture) -> None:
    channel = _Channel()
    client = _Client(channel)
    await send_to_channel(client, "444", "*a*")  # type: ignore[arg-type]
    await send_to_channel(client, "444", "*a*", True)  # type: ignore[arg-type]
    await send_to_channel(client, "dm:5", "*b*")  # type: ignore[arg-type]
    assert [c for c, _k in channel.sent] == ["\\*a\\*", "```\n*a*\n```"]
    assert all(k["allowed_mentions"] is discord_convert.NO_MENTIONS for _c, k in channel.sent)
    assert [c for c, _k in client.dms[5].sent] == ["\\*b\\*"]
    with caplog.at_level(logging.INFO, logger="adapters.discord.delivery"):
        await send_to_channel(client, "general", "x")  # type: ignore[arg-type]
        await send_to_channel(_Client(object()), "444", "x")  # type: ignore[arg-type]
        await send_to_channel(_Client(_Channel(_http_error())), "444", "x")  # type: ignore[arg-type]
    assert [r.getMessage() for r in caplog.records] == [
        "not a Discord channel id: 'general'",
        "channel 444 cannot receive messages",
        "post to channel 444 failed: 403 Forbidden (error code: 50013): Missing Permissions"]
    assert len(channel.sent) == 2


class _Response:
    def __init__(self, error: Exception | None = None) -> None:
        self.error = error
        self.deferred: list[dict[str, Any]] = []
        self.sent: list[tuple[str, dict[str, Any]]] = []

    def is_done(self) -> bool:
        return bool(self.deferred or self.sent)

    async def defer(self, **kwargs: Any) -> None:
        self.deferred.append(kwargs)

    async def send_message(self, content: Any = None, **kwargs: Any) -> None:
        if self.error is not None:
            raise self.error
        self.sent.append((content, kwargs))


class _Followup:
    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []

    async def send(self, content: Any = None, **kwargs: Any) -> None:
        self.sent.append((content, kwargs))


def _interaction(error: Exception | None = None) -> Any:
    calls: list[tuple[str, dict[str, Any]]] = []

    async def edit_original_response(**kwargs: Any) -> None:
        calls.append(("edit", kwargs))

    async def delete_original_response() -> None:
        calls.append(("delete", {}))

    return SimpleNamespace(response=_Response(error), followup=_Followup(), calls=calls,
                           edit_original_response=edit_original_response,
                           delete_original_response=delete_original_response)


async def test_a_deferred_slash_command_shows_discords_thinking_placeholder() -> None:
    interaction = _interaction()
    await InteractionOrigin(interaction).defer()
    assert interaction.response.deferred == [{"thinking": True}]


async def test_a_slash_commands_channel_reply_is_public_and_laid_out_as_asked() -> None:
    interaction = _interaction()
    origin = InteractionOrigin(interaction)
    await origin.to_channel("*a*")
    await origin.to_channel("*a*", True)
    assert interaction.response.sent == [
        ("\\*a\\*", {"ephemeral": False, "allowed_mentions": discord_convert.NO_MENTIONS})]
    assert interaction.followup.sent == [
        ("```\n*a*\n```", {"ephemeral": False,
                            "allowed_mentions": discord_convert.NO_MENTIONS})]


async def test_no_answer_to_a_slash_command_can_ping_anyone() -> None:
    none = discord_convert.NO_MENTIONS
    answered = _interaction()
    origin = InteractionOrigin(answered)
    await origin.to_channel("@everyone")
    await origin.to_invoker("@here")
    assert answered.response.sent == [
        ("@\u200beveryone", {"ephemeral": False, "allowed_mentions": none})]
    assert answered.followup.sent == [
        ("@\u200bhere", {"ephemeral": True, "allowed_mentions": none})]
    # deferred: the placeholder is edited (public), or deleted for a private answer
    public, private = _interaction(), _interaction()
    for interaction, send in ((public, "to_channel"), (private, "to_invoker")):
        origin = InteractionOrigin(interaction)
        await origin.defer()
        await getattr(origin, send)("@everyone")
        await getattr(origin, send)("again")
    assert public.calls == [("edit", {"content": "@\u200beveryone", "allowed_mentions": none})]
    assert public.followup.sent == [("again", {"ephemeral": False, "allowed_mentions": none})]
    assert private.calls == [("delete", {})]
    assert private.followup.sent == [
        ("@\u200beveryone", {"ephemeral": True, "allowed_mentions": none}),
        ("again", {"ephemeral": True, "allowed_mentions": none})]


async def test_a_refused_ephemeral_reply_is_reported_and_logged(
        caplog: pytest.LogCaptureFixture) -> None:
    error = _http_error(400, 40060, "Interaction has already been acknowledged.")
    origin = InteractionOrigin(_interaction(error))
    with caplog.at_level(logging.WARNING, logger="adapters.discord.delivery"):
        assert await origin.to_invoker("secret") is False
    assert [r.getMessage() for r in caplog.records] == [
        "ephemeral reply failed: 400 Forbidden (error code: 40060): "
        "Interaction has already been acknowledged."]


async def test_a_prefix_command_is_answered_by_one_reply_then_plain_messages() -> None:
    channel = _Channel()
    message = SimpleNamespace(channel=channel, to_reference=lambda **kw: ("reference", kw))
    origin = MessageOrigin(None, message)  # type: ignore[arg-type]
    await origin.to_channel("a" * 1999 + "\n" + "b" * 10)  # two pieces
    await origin.to_channel("later")
    assert [(content, kwargs["reference"]) for content, kwargs in channel.sent] == [
        ("a" * 1999, ("reference", {"fail_if_not_exists": False})),
        ("b" * 10, None), ("later", None)]
    assert all(kwargs["allowed_mentions"] is discord_convert.NO_MENTIONS
               for _content, kwargs in channel.sent)
