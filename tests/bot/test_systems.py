"""Rule systems are plugins: a system registers its own command table, and the same
input runs different handlers in channels that play different systems."""

from __future__ import annotations

import importlib
from collections.abc import AsyncIterator, Iterator

import pytest

from adapters.config import Settings
from bot import router, routes, systems
from bot.context import Context
from bot.core import Core
from bot.messages import Outgoing
from bot.routes import router as _router
from rules.kits.game_system import GameSystem
from rules.systems import registry
from tests.support import Table

ROUTER = _router()

# --------------------------------------------------------------- a test system, a dozen lines
DUEL = router.CommandTable("duel")  # routed only while the plugin is registered


@DUEL.command("ap")
async def duel_ap(ctx: Context) -> list[Outgoing]:
    return [ctx.reply(f"duel ap {ctx.args}")]


@DUEL.command("atk", "attack")
async def duel_atk(ctx: Context) -> list[Outgoing]:
    return [ctx.reply(f"duel atk {ctx.args}")]


@pytest.fixture
def duel() -> Iterator[None]:
    routes.register(systems.SystemPlugin(GameSystem("duel", ("決鬥",)), DUEL,
                                          verbs={"check": "atk"}))
    yield
    routes.unregister("duel")


@pytest.fixture
async def duel_core(duel: None, settings: Settings) -> AsyncIterator[Core]:
    core = await Core.open(settings)
    yield core
    await core.close()


# --------------------------------------------------------------------------------- tests


async def test_the_same_input_runs_each_channels_own_handler(duel_core: Core) -> None:
    plurk, duel = Table(duel_core, "thread-p"), Table(duel_core, "thread-d")
    assert await duel.text("gm", ".system duel") == "本頻道的規則系統改為 duel（決鬥）。"
    assert await duel.text("alice", ".ap spend 2") == "duel ap spend 2"
    assert await duel.text("alice", ".attack 食屍鬼") == "duel atk 食屍鬼"
    await plurk.text("gm", ".gm")
    assert await plurk.text("gm", ".ap set 3") == "行動點數設為 3：0 → 3"
    # a command of another system explains itself; the common ones work everywhere
    assert await duel.text("alice", ".ra 觀察") == (
        "⚠ .ra 是 ace、ap20、coc7、plurk 規則系統的指令；本頻道玩的是 duel（可用 .system 切換）。")
    assert await duel.text("alice", ".st 力量 3") == "alice 的數值已更新：力量:3"
    assert await duel.say("alice", ".rabbit") == []  # still no command at all


async def test_help_lists_each_channels_own_commands(duel_core: Core) -> None:
    plurk, duel = Table(duel_core, "thread-p"), Table(duel_core, "thread-d")
    await duel.text("gm", ".system duel")
    assert (await duel.text("u", ".help")).splitlines()[1] == (
        ".r .rh .set .st .pc .nn .gm .draw .drawh .log .ap .atk .campaign .system .lang "
        ".bot .ban .unban .dismiss .help")
    assert (await plurk.text("u", ".help")).splitlines()[1].startswith(".r .rh .ra .rah .set")
    assert await duel.text("u", ".help attack") == ".atk / .attack\nduel.help.atk"
    assert await duel.text("u", ".help ra") == (
        "⚠ 沒有 .ra 這個指令，輸入 .help 查看全部指令。")


async def test_an_adapter_verb_names_each_systems_command(duel_core: Core) -> None:
    await Table(duel_core, "thread-d").text("gm", ".system duel")
    assert await duel_core.verb_command("console", "thread-d", "check") == "atk"
    assert await duel_core.verb_command("console", "thread-p", "check") == "ra"
    # duel has none: the first system that has one (ace's `.ri`), which explains itself
    assert await duel_core.verb_command("console", "thread-d", "initiative") == "ri"


def test_a_system_package_declares_the_plugin_interface() -> None:
    plurk = systems.get("plurk")
    assert plurk is not None and plurk.id == "plurk" and plurk.commands.owner == "plurk"
    assert plurk.verbs == {"check": "ra", "initiative": "battle"}
    assert plurk.help_first == ("ra", "rah")
    assert ROUTER.find("ap", "plurk") is plurk.commands.find("ap")
    assert ROUTER.find("ap", "core") is None
    # its packages are named apart from the Plurk platform; its id stays `plurk`
    assert plurk is importlib.import_module("bot.systems.plurk_trpg").PLUGIN
    assert plurk.game is importlib.import_module("rules.systems.plurk_trpg").SYSTEM
    assert registry.get("plurk") is plurk.game and registry.get("plurk_trpg") is None
    assert systems.get("plurk_trpg") is None
