"""Platforms as plugins (adapters/plugin.py): each platform package exports ``PLUGIN``,
found by discovery; a new package is configured, started and described to the core
without a line of the runner, the settings or the core changing."""

from __future__ import annotations

import ast
import asyncio
import signal
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

import adapters
from adapters import runner
from adapters.config import Settings
from adapters.plugin import plugins, settings_class
from bot.platforms import positive_integer_id

ROOT = Path(__file__).resolve().parents[2]

ECHO = textwrap.dedent('''
    """A made-up platform: one command when started, its answer kept in SEEN."""
    from adapters.plugin import AdapterPlugin, PlatformSettings
    from bot.messages import Incoming

    SEEN = []


    class EchoSettings(PlatformSettings):
        enabled: bool = False
        room: str = "lobby"
        locale: str = "en"


    async def serve(core, settings, stop):
        room = PLUGIN.of(settings).room
        outs = await core.handle(Incoming("echo", room, "7", ".r 1d1", display_name="Seven"))
        SEEN.append((room, [out.text for out in outs], core.platform_locale("echo"),
                     core.is_user_id("echo", "7"), core.is_user_id("echo", "x7")))
        for out in outs:
            await core.delivered(out)


    PLUGIN = AdapterPlugin("echo", "echo", EchoSettings, serve, user_id=str.isdigit)
''')


@pytest.fixture
def echo_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """``adapters/echo/`` for this test only (a folder outside the repository added to
    the ``adapters`` package's path)."""
    folder = tmp_path / "more_adapters"
    (folder / "echo").mkdir(parents=True)
    (folder / "echo" / "__init__.py").write_text(ECHO, "utf-8")
    monkeypatch.setattr(adapters, "__path__", [*adapters.__path__, str(folder)])
    plugins.cache_clear()
    settings_class.cache_clear()
    yield
    sys.modules.pop("adapters.echo", None)
    plugins.cache_clear()
    settings_class.cache_clear()


def test_the_platform_packages_are_found() -> None:
    found = plugins()
    assert {(p.platform, p.section, p.fallback) for p in found.values()} == {
        ("console", "console", True), ("qq", "onebot", False), ("discord", "discord", False),
        ("plurk", "plurk", False)}
    settings = Settings(_env_file=None)
    assert {p: found[p].locale(settings) for p in found} == {
        "console": "zh-Hant", "qq": "zh-Hans", "discord": "zh-Hant", "plurk": "zh-Hant"}
    assert all(found[p].is_user_id is not None for p in found)
    for platform in ("qq", "discord", "plurk"):
        assert found[platform].is_user_id("10001") and not found[platform].is_user_id("0")
        assert not found[platform].is_user_id("alice")
    assert found["console"].is_user_id("alice") and not found["console"].is_user_id("00")
    assert positive_integer_id("１２") is False  # full-width digits name nobody


def test_sections_are_read_from_the_same_environment_variables(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRPGBOT_ONEBOT__LOCALE", "en")
    monkeypatch.setenv("TRPGBOT_DISCORD__ENABLED", "true")
    monkeypatch.setenv("TRPGBOT_CONSOLE__USER", "gm")
    settings = Settings(_env_file=None)
    assert settings.onebot.locale == "en" and settings.discord.enabled  # type: ignore[attr-defined]
    assert settings.console.user == "gm"  # type: ignore[attr-defined]
    assert settings.platforms().locale("qq") == "en"
    assert list(runner.enabled_adapters(settings)) == ["discord"]


async def test_a_new_platform_package_runs_without_editing_the_runner(
        echo_package: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRPGBOT_ECHO__ENABLED", "true")
    monkeypatch.setenv("TRPGBOT_ECHO__ROOM", "tavern")
    settings = settings_class()(_env_file=None, data_dir=tmp_path)
    assert list(runner.enabled_adapters(settings)) == ["echo"]
    # the test process's heap stays collectable as before (bot/heap.py)
    monkeypatch.setattr(runner, "freeze_start_up", lambda: None)
    loop = asyncio.get_running_loop()
    try:
        assert await runner.run(settings) == 0  # it served once and stopped
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)
    [(room, texts, locale, digits, letters)] = sys.modules["adapters.echo"].SEEN
    assert room == "tavern" and locale == "en"  # its section and its default language
    assert len(texts) == 1 and "1d1 = [1] = 1" in texts[0]
    assert (digits, letters) == (True, False)  # its user-id rule, not the core's


def test_neither_the_runner_nor_the_core_names_a_platform() -> None:
    names = {name for p in plugins().values() for name in (p.platform, p.section)}
    # (bot/config names the rule system "plurk", a new channel's default: not a platform)
    for path in ("adapters/runner.py", "bot/core.py", "bot/platforms.py"):
        tree = ast.parse((ROOT / path).read_text("utf-8"))
        strings = {node.value for node in ast.walk(tree)
                   if isinstance(node, ast.Constant) and isinstance(node.value, str)}
        assert strings & names == set(), path
