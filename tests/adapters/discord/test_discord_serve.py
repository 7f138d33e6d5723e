"""``serve`` end to end against a loopback Discord (REST + gateway): login, command
sync, a slash command dispatched by discord.py itself, and a clean stop."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import discord
import pytest

from adapters.config import Settings
from adapters.discord import serve
from adapters.discord.settings import DiscordSettings
from bot.core import Core
from tests.adapters.discord.doubles import APP_ID, BOT_ID, command_payload
from tests.adapters.discord.fake_discord import TOKEN, FakeDiscord

pytestmark = pytest.mark.timeout(30)


def discord_settings(tmp_path: Path, token: str | None = TOKEN) -> Settings:
    return Settings(_env_file=None, data_dir=tmp_path,
                    discord=DiscordSettings(enabled=True, token=token))


async def test_serve_logs_in_syncs_answers_and_stops(tmp_path: Path,
                                                     fake_discord: FakeDiscord) -> None:
    settings = discord_settings(tmp_path)
    core = await Core.open(settings)
    stop = asyncio.Event()
    task = asyncio.create_task(serve(core, settings, stop))
    try:
        await asyncio.wait_for(fake_discord.identified.wait(), 10)
        _, _, body = await fake_discord.wait_for_request(
            "PUT", f"/applications/{APP_ID}/commands")
        assert {"roll", "rh", "gm", "st"} <= {command["name"] for command in body}
        await fake_discord.dispatch("INTERACTION_CREATE",
                                    command_payload("gm", 601, "Alice"))
        _, _, answer = await fake_discord.wait_for_request("POST", "/interactions/")
        assert "Alice" in answer["data"]["content"]
        assert answer["data"]["allowed_mentions"] == {"parse": []}
    finally:
        stop.set()
        await asyncio.wait_for(task, 10)
        await core.close()
    assert task.exception() is None


async def test_discord_connection_is_logged_at_info(
        tmp_path: Path, fake_discord: FakeDiscord, caplog: pytest.LogCaptureFixture) -> None:
    """At the default log level (INFO) the operator sees the commands synced and
    the bot logged in."""
    caplog.set_level(logging.INFO)
    settings = discord_settings(tmp_path)
    core = await Core.open(settings)
    stop = asyncio.Event()
    task = asyncio.create_task(serve(core, settings, stop))
    logged_in = f"Discord: logged in as trpgbot ({BOT_ID}), 0 servers"
    try:
        for _ in range(100):
            if logged_in in caplog.messages:
                break
            await asyncio.sleep(0.05)
    finally:
        stop.set()
        await asyncio.wait_for(task, 10)
        await core.close()
    connected = [(r.levelname, r.getMessage()) for r in caplog.records
                 if r.getMessage().startswith("Discord: ")]
    assert connected[0][0] == "INFO"
    assert connected[0][1].endswith(" slash commands synced globally")
    assert int(connected[0][1].split()[1]) >= 4
    assert connected[1] == ("INFO", logged_in)


async def test_a_wrong_token_is_a_login_failure(tmp_path: Path,
                                                fake_discord: FakeDiscord) -> None:
    settings = discord_settings(tmp_path, token="not-the-token")
    core = await Core.open(settings)
    try:
        with pytest.raises(discord.LoginFailure):
            await asyncio.wait_for(serve(core, settings, asyncio.Event()), 10)
    finally:
        await core.close()


async def test_a_missing_token_is_refused_before_any_connection(tmp_path: Path) -> None:
    settings = discord_settings(tmp_path, token=None)
    with pytest.raises(RuntimeError, match="TOKEN"):
        await serve(object(), settings, asyncio.Event())  # type: ignore[arg-type]


async def test_a_reply_committed_but_never_sent_is_sent_once_when_ready(
        tmp_path: Path, fake_discord: FakeDiscord) -> None:
    """The outbox: a reply the core committed before a crash or a stop (its interaction
    long gone) is posted to its channel when the bot is ready again — once."""
    from bot.messages import Incoming
    from rules.dice.source import ScriptedSource
    from tests.adapters.discord.doubles import CHANNEL_ID

    settings = discord_settings(tmp_path)
    last_run = await Core.open(settings, dice=ScriptedSource([17]))
    try:
        outs = await last_run.handle(Incoming("discord", str(CHANNEL_ID), "601", ".r 1d20",
                                              display_name="Alice", message_id="i1"))
    finally:
        await last_run.close()  # stopped before it sent the reply
    assert [o.text for o in outs] == ["🎲 Alice：1d20 = [17] = 17"]
    core = await Core.open(settings)
    path = f"/channels/{CHANNEL_ID}/messages"
    for again in (False, True):
        stop = asyncio.Event()
        task = asyncio.create_task(serve(core, settings, stop))
        try:
            await asyncio.wait_for(fake_discord.identified.wait(), 10)
            if again:  # ready comes ≤ 2 s after READY (discord.py's guild_ready_timeout)
                await asyncio.sleep(3)
            else:
                await fake_discord.wait_for_request("POST", path, timeout=10)
        finally:
            stop.set()
            await asyncio.wait_for(task, 10)
        fake_discord.identified.clear()
        await asyncio.sleep(0.3)  # the grouped outbox deletion
    await core.close()
    posts = [body["content"] for method, where, body in fake_discord.requests
             if method == "POST" and where == path]
    assert posts == ["🎲 Alice：1d20 = \\[17\\] = 17"]
