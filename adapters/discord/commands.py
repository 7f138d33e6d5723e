"""The slash commands. Each one is the text command a player would type, so the
core stays the only place where commands are parsed: ``/roll 2d6+3 攻擊`` is
``.r 2d6+3 攻擊``, ``/check 觀察 2 15`` is ``.ra 觀察+2 15``. ``/check`` and ``/init``
are *verbs*: each channel's rule system says which of its commands they run
(plurk: ``.ra`` and ``.battle``), asked when the command is used.

``build_commands`` makes fresh ``app_commands.Command`` objects (one set per
client); ``known`` filters out commands whose text verb the core does not have
yet, so Discord never offers a command that would do nothing.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

import discord
from discord import app_commands
from discord.app_commands import Choice

from adapters.delivery import CoreAPI
from adapters.discord.convert import (
    PLATFORM,
    bot_account,
    channel_key,
    incoming_from_interaction,
)
from adapters.discord.delivery import DiscordDelivery, InteractionOrigin
from adapters.discord.i18n import command_text, option_text, reply, text

if TYPE_CHECKING:
    from adapters.discord.settings import DiscordSettings

log = logging.getLogger(__name__)

#: Slash command name → the text verb it stands for.
VERBS: dict[str, str] = {
    "roll": "r", "rh": "rh", "check": "check", "st": "st", "pc": "pc", "gm": "gm",
    "init": "initiative", "system": "system", "lang": "lang", "help": "help",
}
SYSTEM_VERBS = frozenset({"check", "initiative"})
"""Verbs each rule system maps to one of its own commands (``SystemPlugin.verbs``)."""

LOCALE_CHOICES = [Choice(name="繁體中文", value="zh-Hant"),
                  Choice(name="简体中文", value="zh-Hans"),
                  Choice(name="English", value="en")]

GM_ACTIONS = [Choice(name=text(f"command.gm.choice.{action}"), value=action)
              for action in ("claim", "list", "add", "del", "pending")]

MAX_CHOICES = 25

SlashCallback = Callable[..., Coroutine[Any, Any, None]]
T = TypeVar("T")


class App(Protocol):
    """What the commands need from the client (``TrpgDiscordClient``)."""

    core: CoreAPI
    settings: DiscordSettings


def text_line(verb: str, *parts: object) -> str:
    """``.verb part part`` with empty parts left out; line breaks (which the core
    would never see in a typed command) become spaces."""
    words = [str(part).replace("\n", " ").strip() for part in parts if part is not None]
    return " ".join(["." + verb, *(word for word in words if word)])


def check_line(verb: str, skill: str, modifier: int | None, threshold: int | None) -> str:
    """``.ra 觀察+2 >=15``: the skill with the situational modifier attached, then the
    threshold (the core applies the system's default when it is missing)."""
    head = skill.strip() + (f"{modifier:+d}" if modifier else "")
    return text_line(verb, head, None if threshold is None else f">={threshold}")


async def system_verb(interaction: discord.Interaction, verb: str) -> str:
    """The command ``verb`` runs in the interaction's channel (its system's own)."""
    channel = channel_key(interaction.channel_id, interaction.user.id, interaction.guild_id)
    return await _app(interaction).core.verb_command(PLATFORM, channel, verb)


def _app(interaction: discord.Interaction) -> App:
    return cast(App, interaction.client)


async def answer(interaction: discord.Interaction, line: str) -> None:
    """Run ``line`` through the core as the interaction's user and deliver the result.

    Discord drops an interaction not answered within 3 s; if the core is slower
    than ``defer_after``, the bot defers (a "thinking…" placeholder) first.
    """
    app = _app(interaction)
    incoming = incoming_from_interaction(interaction, line, bot_account(interaction.client))
    origin = InteractionOrigin(interaction)
    handling = asyncio.ensure_future(app.core.handle(incoming))
    done, _ = await asyncio.wait({handling}, timeout=app.settings.defer_after)
    if not done:
        await origin.defer()
    outs = await handling
    await DiscordDelivery(interaction.client, app.core, incoming, origin).deliver(outs)
    await origin.finish(reply("reply.none", interaction.locale))


async def skill_autocomplete(interaction: discord.Interaction,
                             current: str) -> list[Choice[str]]:
    """Names on the user's active sheet (and the system's stats) matching what is typed."""
    app = _app(interaction)
    channel = channel_key(interaction.channel_id, interaction.user.id, interaction.guild_id)
    names = await app.core.stat_names(PLATFORM, channel, str(interaction.user.id))
    wanted = current.strip().casefold()
    matches = [name for name in names if wanted in name.casefold()]
    return [Choice(name=name[:100], value=name[:100]) for name in matches[:MAX_CHOICES]]


async def system_autocomplete(interaction: discord.Interaction,
                              current: str) -> list[Choice[str]]:
    from bot.systems import declared

    wanted = current.strip().casefold()
    found = [system for system in declared().values()
             if wanted in system.id or any(wanted in name.casefold() for name in system.names)]
    return [Choice(name=f"{system.id} — {system.names[0]}"[:100], value=system.id)
            for system in found[:MAX_CHOICES]]


def slash(command: str) -> Callable[[SlashCallback], app_commands.Command[Any, Any, Any]]:
    """``app_commands.command`` with the name and description of ``command`` in the
    catalogs (``platform.discord.command.<command>``)."""
    return app_commands.command(name=command_text(command, "name"),
                                description=command_text(command, "description"))


def options(command: str, *params: str) -> Callable[[T], T]:
    """Name and describe each parameter from the catalogs (``….<command>.option.<param>``);
    the Python parameter keeps its own name."""
    def localise(func: T) -> T:
        func = app_commands.describe(
            **{param: option_text(command, param, "description") for param in params})(func)
        return app_commands.rename(
            **{param: option_text(command, param, "name") for param in params})(func)
    return localise


def build_commands(known: Callable[[str], bool] | None = None) -> list[app_commands.Command]:
    """Fresh command objects; with ``known``, only those whose verb the core has."""

    @slash("roll")
    @options("roll", "expression", "reason")
    async def roll(interaction: discord.Interaction, expression: str,
                   reason: str | None = None) -> None:
        await answer(interaction, text_line("r", expression, reason))

    @slash("rh")
    @options("roll", "expression", "reason")
    async def rh(interaction: discord.Interaction, expression: str,
                 reason: str | None = None) -> None:
        await answer(interaction, text_line("rh", expression, reason))

    @slash("check")
    @options("check", "skill", "modifier", "threshold")
    @app_commands.autocomplete(skill=skill_autocomplete)
    async def check(interaction: discord.Interaction, skill: str,
                    modifier: app_commands.Range[int, -1000, 1000] | None = None,
                    threshold: app_commands.Range[int, -1000, 100000] | None = None) -> None:
        verb = await system_verb(interaction, "check")
        await answer(interaction, check_line(verb, skill, modifier, threshold))

    @slash("st")
    @options("st", "values")
    async def st(interaction: discord.Interaction, values: str | None = None) -> None:
        await answer(interaction, text_line("st", values))

    @slash("pc")
    @options("pc", "args")
    async def pc(interaction: discord.Interaction, args: str | None = None) -> None:
        await answer(interaction, text_line("pc", args))

    @slash("gm")
    @options("gm", "action", "user")
    @app_commands.choices(action=GM_ACTIONS)
    async def gm(interaction: discord.Interaction, action: str | None = None,
                 user: discord.User | None = None) -> None:
        mention = f"<@{user.id}>" if user is not None else None
        await answer(interaction, text_line("gm", action, mention))

    @slash("init")
    @options("init", "args")
    async def init(interaction: discord.Interaction, args: str | None = None) -> None:
        await answer(interaction, text_line(await system_verb(interaction, "initiative"), args))

    @slash("system")
    @options("system", "system")
    @app_commands.autocomplete(system=system_autocomplete)
    async def system(interaction: discord.Interaction, system: str | None = None) -> None:
        await answer(interaction, text_line("system", system))

    @slash("lang")
    @options("lang", "locale")
    @app_commands.choices(locale=LOCALE_CHOICES)
    async def lang(interaction: discord.Interaction, locale: str | None = None) -> None:
        await answer(interaction, text_line("lang", locale))

    @slash("help")
    @options("help", "topic")
    async def help_(interaction: discord.Interaction, topic: str | None = None) -> None:
        await answer(interaction, text_line("help", topic))

    commands: dict[str, app_commands.Command[Any, Any, Any]] = {
        "roll": roll, "rh": rh, "check": check, "st": st, "pc": pc, "gm": gm, "init": init,
        "system": system, "lang": lang, "help": help_}
    return [cmd for name, cmd in commands.items() if known is None or known(VERBS[name])]


def core_knows(verb: str) -> bool:
    """Whether the core has a text command ``verb`` (its router is loaded with the core)."""
    from bot.routes import router
    from bot.systems import declared

    if verb in SYSTEM_VERBS:
        return any(verb in system.verbs for system in declared().values())
    return router().common.find(verb) is not None
