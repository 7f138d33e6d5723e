"""Slash commands are synced only when what Discord would show changed (a stored hash
of the translated command tree), and ``trpgbot discord sync`` forces a sync.

The real client and ``CommandTree`` against ``DiscordApi`` (discord.py's HTTP layer
answered as Discord documents), and the CLI against the loopback ``FakeDiscord``."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from adapters.cli import main
from adapters.config import Settings
from adapters.discord import i18n, serve
from adapters.discord.settings import DiscordSettings
from adapters.discord.sync import RECORD_FILE
from bot.core import Core
from bot.i18n import Catalog
from tests.adapters.discord.doubles import APP_ID, GUILD_ID, DiscordApi, make_client
from tests.adapters.discord.fake_discord import TOKEN, FakeDiscord

GLOBAL = ("PUT", f"/applications/{APP_ID}/commands")

pytestmark = pytest.mark.timeout(60)


async def started(record: Path, **options: object) -> list[tuple[str, str]]:
    """One start of the client (login done: its ``setup_hook``); the requests it made."""
    api = DiscordApi()
    await make_client(None, api, sync_record=record, **options).setup_hook()
    return [(request.method, request.path) for request in api.requests]


async def test_a_second_start_with_the_same_commands_makes_no_sync(tmp_path: Path) -> None:
    record = tmp_path / RECORD_FILE
    assert await started(record) == [GLOBAL]
    assert record.exists()
    assert await started(record) == []


async def test_a_changed_command_tree_is_synced(tmp_path: Path) -> None:
    record = tmp_path / RECORD_FILE
    assert await started(record) == [GLOBAL]
    assert await started(record, known=lambda verb: verb != "help") == [GLOBAL]
    assert await started(record, known=lambda verb: verb != "help") == []
    assert await started(record) == [GLOBAL]


async def test_a_changed_translation_is_synced(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Discord shows the translations too: a catalog edit in one locale is a change."""
    record = tmp_path / RECORD_FILE
    assert await started(record) == [GLOBAL]
    override = tmp_path / "override.toml"
    override.write_text('[zh-Hant]\n"platform.discord.command.roll.description" = "擲骰子"\n',
                        "utf-8")
    monkeypatch.setattr(i18n, "catalog", lambda: Catalog(override_file=override))
    assert await started(record) == [GLOBAL]
    assert await started(record) == []


async def test_the_development_server_and_global_are_recorded_apart(tmp_path: Path) -> None:
    record = tmp_path / RECORD_FILE
    guild = ("PUT", f"/applications/{APP_ID}/guilds/{GUILD_ID}/commands")
    assert await started(record) == [GLOBAL]
    assert await started(record, dev_guild_id=GUILD_ID) == [guild]
    assert await started(record, dev_guild_id=GUILD_ID) == []
    assert set(json.loads(record.read_text("utf-8"))) == {
        f"{APP_ID}/global", f"{APP_ID}/{GUILD_ID}"}


async def test_an_unreadable_record_means_one_sync_and_a_new_record(tmp_path: Path) -> None:
    record = tmp_path / RECORD_FILE
    record.write_text("{not json", "utf-8")
    assert await started(record) == [GLOBAL]
    assert await started(record) == []


def syncs(fake: FakeDiscord) -> int:
    return sum(1 for method, path, _ in fake.requests
               if (method, path) == GLOBAL)


async def test_the_cli_forces_a_sync_and_a_start_after_it_makes_none(
        tmp_path: Path, fake_discord: FakeDiscord, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """``trpgbot discord sync`` syncs even when nothing changed; ``run`` after it finds
    the same hash and syncs nothing."""
    monkeypatch.setenv("TRPGBOT_DISCORD__TOKEN", TOKEN)
    monkeypatch.setenv("TRPGBOT_DATA_DIR", str(tmp_path))
    for count in (1, 2):  # the second: nothing changed, synced all the same
        assert await asyncio.to_thread(main, ["discord", "sync"]) == 0
        assert syncs(fake_discord) == count
    assert capsys.readouterr().out.splitlines()[-1].endswith(" slash commands synced")

    settings = Settings(_env_file=None, data_dir=tmp_path,
                        discord=DiscordSettings(enabled=True, token=TOKEN))
    core = await Core.open(settings)
    stop = asyncio.Event()
    task = asyncio.create_task(serve(core, settings, stop))
    try:
        await asyncio.wait_for(fake_discord.identified.wait(), 10)
    finally:
        stop.set()
        await asyncio.wait_for(task, 10)
        await core.close()
    assert syncs(fake_discord) == 2


async def test_the_cli_without_a_token_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("TRPGBOT_DISCORD__TOKEN", raising=False)
    monkeypatch.setenv("TRPGBOT_DATA_DIR", str(tmp_path))
    assert await asyncio.to_thread(main, ["discord", "sync"]) == 1
    assert "TRPGBOT_DISCORD__TOKEN" in capsys.readouterr().err
