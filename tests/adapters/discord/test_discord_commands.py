"""The slash commands: which text command each one becomes, their zh-Hant / zh-Hans
/ en names and descriptions (from the catalogs), and how they are synced (one server
in development, global otherwise)."""

from __future__ import annotations

import logging
import tomllib
from collections.abc import AsyncIterator, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from discord import Locale, app_commands

from adapters.config import Settings
from adapters.discord.commands import VERBS, build_commands, check_line, core_knows, text_line
from adapters.discord.convert import split_message
from adapters.discord.i18n import CommandTranslator
from adapters.split import utf16_length
from bot.core import Core
from bot.messages import Incoming, Outgoing
from tests.adapters.discord.doubles import (
    APP_ID,
    GUILD_ID,
    DiscordApi,
    command_payload,
    invoke,
    make_client,
)


class RecordingCore:
    """The real Core (SQLite), recording the command line each slash command became."""

    def __init__(self, core: Core) -> None:
        self.core = core
        self.lines: list[str] = []

    async def handle(self, incoming: Incoming, dice: Any = None) -> list[Outgoing]:
        self.lines.append(incoming.text)
        return await self.core.handle(incoming, dice)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.core, name)


@pytest.fixture
async def core(settings: Settings) -> AsyncIterator[RecordingCore]:
    opened = await Core.open(settings)
    yield RecordingCore(opened)
    await opened.close()


@pytest.mark.parametrize(("command", "options", "line"), [
    ("roll", {"expression": "2d6+3", "reason": "攻擊 哥布林"}, ".r 2d6+3 攻擊 哥布林"),
    ("roll", {"expression": "d20"}, ".r d20"),
    ("rh", {"expression": "1d20", "reason": "潛行"}, ".rh 1d20 潛行"),
    ("check", {"skill": "觀察"}, ".ra 觀察"),
    ("check", {"skill": "觀察", "modifier": 2, "threshold": 15}, ".ra 觀察+2 >=15"),
    ("check", {"skill": "靈巧", "modifier": -1}, ".ra 靈巧-1"),
    ("st", {"values": "觀察 5 靈巧 12"}, ".st 觀察 5 靈巧 12"),
    ("st", {}, ".st"),
    ("pc", {"args": "new 艾莉絲"}, ".pc new 艾莉絲"),
    ("gm", {}, ".gm"),
    ("gm", {"action": "pending"}, ".gm pending"),
    ("init", {"args": "start"}, ".battle start"),
    ("system", {"system": "plurk"}, ".system plurk"),
    ("lang", {"locale": "zh-Hans"}, ".lang zh-Hans"),
    ("help", {"topic": "r"}, ".help r"),
])
async def test_each_slash_command_is_its_text_command(
        core: RecordingCore, command: str, options: dict[str, Any], line: str) -> None:
    api = DiscordApi()
    client = make_client(core, api)
    await invoke(client, api, command_payload(command, 501, "Alice", **options))
    assert core.lines == [line]


async def test_gm_add_names_the_user_as_a_mention_the_core_understands(core: RecordingCore) -> None:
    api = DiscordApi()
    client = make_client(core, api)
    payload = command_payload("gm", 501, "Alice", action="add")
    payload["data"]["options"].append({"name": "user", "type": 6, "value": "777"})
    payload["data"]["resolved"] = {"users": {"777": {
        "id": "777", "username": "carol", "discriminator": "0", "global_name": "Carol",
        "avatar": None}}}
    await invoke(client, api, payload)
    assert core.lines == [".gm add <@777>"]


def test_text_lines_never_carry_line_breaks() -> None:
    assert text_line("r", "d20", "a\nb") == ".r d20 a b"
    assert check_line("ra", " 觀察 ", 0, None) == ".ra 觀察"


def test_commands_the_core_lacks_are_not_offered() -> None:
    names = {command.name for command in build_commands(core_knows)}
    assert {"roll", "rh", "st", "pc", "gm", "system", "lang", "help"} <= names
    assert all(core_knows(VERBS[name]) for name in names)
    assert {command.name for command in build_commands(lambda verb: verb == "r")} == {"roll"}


LOCALES = Path(__file__).resolve().parents[3] / "bot" / "locales"


def catalog_file(locale: str) -> dict[str, Any]:
    """``platform.discord`` of one locale's discord.toml, read as TOML (not through
    the code under test)."""
    data = tomllib.loads((LOCALES / locale / "discord.toml").read_text("utf-8"))
    return dict(data["platform"]["discord"])


def leaves(table: Mapping[str, Any], path: tuple[str, ...] = ()) -> Iterator[
        tuple[tuple[str, ...], str]]:
    for key, value in table.items():
        if isinstance(value, Mapping):
            yield from leaves(value, (*path, key))
        else:
            yield (*path, key), str(value)


def catalog_texts() -> dict[tuple[str, ...], tuple[str, str, str]]:
    """Every catalog text: its key → (en, zh-Hant, zh-Hans)."""
    en, hant, hans = (dict(leaves(catalog_file(locale)))
                      for locale in ("en", "zh-Hant", "zh-Hans"))
    assert en.keys() == hant.keys() == hans.keys()
    return {key: (en[key], hant[key], hans[key]) for key in en}


def shown(item: dict[str, Any], field: str) -> tuple[str, str, str]:
    """What Discord shows of ``field`` to en, zh-TW and zh-CN clients."""
    localised = item.get(f"{field}_localizations") or {}
    assert set(localised) == {"zh-TW", "zh-CN"}, (item[field], localised)
    return item[field], localised["zh-TW"], localised["zh-CN"]


async def test_every_name_and_description_comes_from_the_catalogs(
        core: RecordingCore) -> None:
    """Each command's, option's and choice's name and description is the catalogs'
    text in all three locales: English as Discord's default, zh-Hant for zh-TW
    clients, zh-Hans for zh-CN clients."""
    texts = catalog_texts()
    client = make_client(core, DiscordApi())
    translator = CommandTranslator()
    await client.tree.set_translator(translator)
    used: set[tuple[str, str, str]] = set()
    for command in client.tree.get_commands():
        assert isinstance(command, app_commands.Command)
        payload = await command.get_translated_payload(client.tree, translator)
        assert shown(payload, "name") == texts[("command", payload["name"], "name")]
        items = [payload, *payload.get("options", [])]
        for item in items:
            for field in ("name", "description"):
                assert shown(item, field) in texts.values()
                used.add(shown(item, field))
            for choice in item.get("choices", []):
                if choice["name"] in {"繁體中文", "简体中文", "English"}:
                    continue  # a language is named in its own language
                assert shown(choice, "name") in texts.values()
                used.add(shown(choice, "name"))
    commands = {key for key in texts if key[0] == "command"}
    assert {texts[key] for key in commands} <= used  # every catalog text is offered
    assert texts[("command", "roll", "name")] == ("roll", "擲骰", "掷骰")


async def test_translator_leaves_english_and_other_languages_to_the_default() -> None:
    translator = CommandTranslator()
    string = app_commands.locale_str("Roll dice for everyone to see",
                                     key="command.roll.description")
    context: Any = None
    assert await translator.translate(string, Locale.american_english, context) is None
    assert await translator.translate(string, Locale.japanese, context) is None
    assert await translator.translate(string, Locale.taiwan_chinese, context) == "公開擲骰"
    assert await translator.translate(string, Locale.chinese, context) == "公开掷骰"
    unkeyed = app_commands.locale_str("roll")
    assert await translator.translate(unkeyed, Locale.chinese, context) is None


async def test_development_sync_goes_to_one_server(core: RecordingCore) -> None:
    api = DiscordApi()
    client = make_client(core, api, dev_guild_id=GUILD_ID)
    await client.setup_hook()
    [sync] = api.requests
    assert (sync.method, sync.path) == ("PUT",
                                        f"/applications/{APP_ID}/guilds/{GUILD_ID}/commands")
    roll = next(command for command in sync.body if command["name"] == "roll")
    assert roll["description_localizations"]["zh-TW"] == "公開擲骰"


async def test_production_sync_is_global_and_can_be_turned_off(core: RecordingCore) -> None:
    api = DiscordApi()
    await make_client(core, api).setup_hook()
    assert [(r.method, r.path) for r in api.requests] == [
        ("PUT", f"/applications/{APP_ID}/commands")]
    quiet = DiscordApi()
    await make_client(core, quiet, sync_commands=False).setup_hook()
    assert quiet.requests == []


async def test_discord_sync_is_logged_at_info(
        core: RecordingCore, caplog: pytest.LogCaptureFixture) -> None:
    """The operator sees the sync at the default log level (INFO)."""
    caplog.set_level(logging.INFO)
    client = make_client(core, DiscordApi())
    await client.setup_hook()
    count = len(client.tree.get_commands())
    dev = make_client(core, DiscordApi(), dev_guild_id=GUILD_ID)
    await dev.setup_hook()
    assert [(r.levelname, r.getMessage()) for r in caplog.records] == [
        ("INFO", f"Discord: {count} slash commands synced globally"),
        ("INFO", f"Discord: {count} slash commands synced to server {GUILD_ID}")]


def test_split_counts_like_discord_and_keeps_surrogate_pairs() -> None:
    text = "🎲" * 1500  # 3000 UTF-16 units
    pieces = split_message(text)
    assert [utf16_length(piece) for piece in pieces] == [2000, 1000]
    assert "".join(pieces) == text
    assert split_message("") == []
    words = ("word " * 600).strip()
    assert all(not piece.startswith(" ") for piece in split_message(words))


def test_the_shared_slash_texts_name_no_system_s_own_command() -> None:
    """The slash commands are the same in every channel, whatever it plays: a text that
    named one system's command (`/init` once said "as after .battle") would be wrong in
    every other system."""
    from bot import systems
    from bot.routes import router

    common = set(router().common.names())
    own = {name for plugin in systems.plugins().values()
           for name in plugin.commands.names() if name not in common and name.isascii()}
    for key, texts in catalog_texts().items():
        for text in texts:
            named = {word.lstrip(".").casefold() for word in text.split()
                     if word.startswith(".")}
            assert not named & own, (key, text)


def valid_name(name: str) -> bool:
    """Discord's rule for command and option names (docs, "Application Command
    Naming"): 1-32 letters, digits, ``-``, ``_`` or ``'``, lower case where the script
    has cases."""
    return 1 <= len(name) <= 32 and name == name.lower() \
        and all(ch.isalnum() or ch in "-_'" for ch in name)


async def test_every_catalog_name_is_one_discord_accepts(core: RecordingCore) -> None:
    """Discord refuses the whole sync for one bad name, so the catalogs are checked
    here: valid names, unique per locale among the commands and among each command's
    options, descriptions of 1-100 characters."""
    client = make_client(core, DiscordApi())
    translator = CommandTranslator()
    payloads = [await command.get_translated_payload(client.tree, translator)
                for command in client.tree.get_commands()
                if isinstance(command, app_commands.Command)]
    for level in [payloads, *(payload.get("options", []) for payload in payloads)]:
        for index in range(3):
            names = [shown(item, "name")[index] for item in level]
            assert all(map(valid_name, names)), names
            assert len(set(names)) == len(names), names
        for item in level:
            assert all(1 <= len(text) <= 100 for text in shown(item, "description"))
