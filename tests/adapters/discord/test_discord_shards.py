"""Discord sharded across processes (issue 25, item 6): discord.py's
``AutoShardedClient`` runs the shards the settings give this process, against the
loopback Discord; the settings are checked at start; only the process holding shard 0
syncs the slash commands; and any process may send a reply the bot stored (REST needs
no shard), once."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from pydantic import ValidationError

from adapters.config import Settings
from adapters.discord import serve
from adapters.discord.settings import DiscordSettings, discord_section
from bot.core import Core
from bot.messages import Incoming
from rules.dice.source import ScriptedSource
from tests.adapters.discord.doubles import APP_ID, BOT_ID, CHANNEL_ID, command_payload
from tests.adapters.discord.fake_discord import TOKEN, FakeDiscord

pytestmark = pytest.mark.timeout(30)


def sharded(tmp_path: Path, **shards: object) -> Settings:
    return Settings(_env_file=None, data_dir=tmp_path,
                    discord=DiscordSettings(enabled=True, token=TOKEN, **shards))


async def serving(settings: Settings, core: Core, fake: FakeDiscord, shards: int,
                  ) -> tuple[asyncio.Event, asyncio.Task[None]]:
    """``serve`` running until its shards identified (then ready: 2 s later at most)."""
    stop = asyncio.Event()
    task = asyncio.create_task(serve(core, settings, stop))
    for _ in range(200):
        if len(fake.identifies) >= shards:
            break
        await asyncio.sleep(0.05)
    return stop, task


async def stopped(stop: asyncio.Event, task: asyncio.Task[None]) -> None:
    stop.set()
    await asyncio.wait_for(task, 10)


def test_shard_settings_are_read_from_the_environment_and_checked(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRPGBOT_DISCORD__SHARD_COUNT", "4")
    monkeypatch.setenv("TRPGBOT_DISCORD__SHARD_IDS", "2,3")
    section = discord_section(Settings(_env_file=None))
    assert (section.shard_count, section.shard_ids, section.syncs_commands) == (4, [2, 3], False)
    assert DiscordSettings(shard_count=2, shard_ids=[0]).syncs_commands
    assert DiscordSettings().syncs_commands  # every shard here
    assert not DiscordSettings(sync_commands=False).syncs_commands
    for shards, problem in (({"shard_ids": [0]}, "needs TRPGBOT_DISCORD__SHARD_COUNT"),
                            ({"shard_ids": [0, 4], "shard_count": 4}, "[4] not within 0 to 3"),
                            ({"shard_ids": [-1], "shard_count": 4}, "[-1] not within 0 to 3"),
                            ({"shard_ids": [1, 1], "shard_count": 2}, "names a shard twice"),
                            ({"shard_count": 0}, "greater than or equal to 1")):
        with pytest.raises(ValidationError, match=problem.replace("[", r"\[")):
            DiscordSettings(**shards)


async def test_a_process_runs_only_its_shards_and_only_shard_0_syncs(
        tmp_path: Path, fake_discord: FakeDiscord) -> None:
    for shards, syncs in (([1], False), ([0], True)):
        fake_discord.identifies.clear()
        fake_discord.requests.clear()
        settings = sharded(tmp_path / str(shards[0]), shard_count=2, shard_ids=shards)
        core = await Core.open(settings)
        stop, task = await serving(settings, core, fake_discord, 1)
        try:
            await asyncio.sleep(0.5)  # a second shard would have identified by now
            assert fake_discord.identifies == [[shards[0], 2]]
            # a slash command on this process's shard is answered
            await fake_discord.dispatch_to_shard(shards[0], "INTERACTION_CREATE",
                                                 command_payload("gm", 601, "Alice"))
            _, _, answer = await fake_discord.wait_for_request("POST", "/interactions/")
            assert "Alice" in answer["data"]["content"]
        finally:
            await stopped(stop, task)
            await core.close()
        synced = [r for r in fake_discord.requests
                  if r[:2] == ("PUT", f"/applications/{APP_ID}/commands")]
        assert bool(synced) is syncs, shards
        assert ("GET", "/gateway/bot", None) not in fake_discord.requests  # count given


async def test_without_shard_settings_every_recommended_shard_runs_here(
        tmp_path: Path, fake_discord: FakeDiscord) -> None:
    fake_discord.recommended_shards = 2
    settings = sharded(tmp_path)
    core = await Core.open(settings)
    stop, task = await serving(settings, core, fake_discord, 2)
    try:
        assert sorted(fake_discord.identifies) == [[0, 2], [1, 2]]  # type: ignore[type-var]
        assert ("GET", "/gateway/bot", None) in fake_discord.requests
    finally:
        await stopped(stop, task)
        await core.close()


async def test_any_shard_sends_a_kept_reply_of_its_bot_and_never_another_bots(
        tmp_path: Path, fake_discord: FakeDiscord) -> None:
    """The guild of the channel is on shard 0, the process runs shard 1 only: it sends
    the reply over REST all the same (no gateway needed) — its bot's, not another's."""
    settings = sharded(tmp_path, shard_count=2, shard_ids=[1])
    last_run = await Core.open(settings, dice=ScriptedSource([17, 3]))
    try:
        for account, line in ((str(BOT_ID), ".r 1d20"), ("999", ".r 1d6")):
            await last_run.handle(Incoming("discord", str(CHANNEL_ID), "601", line,
                                           display_name="Alice", account=account))
    finally:
        await last_run.close()  # stopped before it sent them
    core = await Core.open(settings)
    path = f"/channels/{CHANNEL_ID}/messages"
    stop, task = await serving(settings, core, fake_discord, 1)
    try:
        await fake_discord.wait_for_request("POST", path, timeout=10)
        await asyncio.sleep(0.3)
    finally:
        await stopped(stop, task)
        await core.close()
    posts = [body["content"] for method, where, body in fake_discord.requests
             if method == "POST" and where == path]
    assert posts == ["🎲 Alice：1d20 = \\[17\\] = 17"]
