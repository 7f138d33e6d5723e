"""`.help`: every command name in one short message; `.help all` one line of summary per
command; `.help <command>` its usage — each for the commands of the channel's system.

The short form comes first because on Plurk every 360 characters is another
response (and flood control counts them): a player looking for a command name
should not cost the thread ten posts.
"""

from __future__ import annotations

from bot import systems
from bot.context import CommandInfo, Context
from bot.errors import CommandError
from bot.messages import Outgoing
from bot.router import command


@command("help", "幫助", "帮助", "說明", "说明")
async def help_(ctx: Context) -> list[Outgoing]:
    wanted = ctx.args.strip()
    ordered = ordered_commands(ctx, ctx.channel.system)
    if not wanted:
        names = " ".join(f".{cmd.names[0]}" for cmd in ordered)
        return [ctx.reply(ctx.t("core.help.short", names=names))]
    if wanted.casefold() in ALL:
        lines = [ctx.t("core.help.header")]
        for cmd in ordered:
            summary = help_text(ctx, cmd).splitlines()[0]
            lines.append(f".{cmd.names[0]} — {summary}")
        lines.append(ctx.t("core.help.footer"))
        return [ctx.reply(text) for text in chunks(lines, HELP_MESSAGE_LIMIT)]
    found = ctx.services.command(wanted, ctx.channel.system)
    if found is None:
        raise CommandError("core.error.help_unknown", command=wanted)
    names = " / ".join("." + n for n in found.names)
    return [ctx.reply(f"{names}\n{help_text(ctx, found)}")]


def help_text(ctx: Context, cmd: CommandInfo) -> str:
    """A command's help at this table: a common command's examples name stats, so a
    system may give its own (``<system>.help.<name>``: ace's `.st` names 力量, not
    plurk's 觀察); the last layer's first, then the base's."""
    if not cmd.help_key.startswith("core."):
        return ctx.t(cmd.help_key)
    for system_id in reversed(ctx.channel.system.casefold().split("+")):
        key = f"{system_id}.help.{cmd.names[0]}"
        if ctx.has(key):
            return ctx.t(key)
    return ctx.t(cmd.help_key)


ALL = ("all", "全部")

DICE = ("r", "rh")
"""What every new player needs first: the dice rolls …"""
SHEETS = ("set", "st", "pc", "nn", "gm")
"""… then (after the system's own first commands, its checks) the sheets …"""
LAST = ("campaign", "system", "lang", "bot", "ban", "unban", "dismiss", "help")
"""… and the channel settings and group controls last."""


def ordered_commands(ctx: Context, system_id: str) -> list[CommandInfo]:
    """The channel's commands in the order `.help` lists them; a system's commands
    other than its ``help_first`` ones in the order the system registered them."""
    plugin = systems.get(system_id)
    first = plugin.help_first if plugin is not None else ()
    order = (*DICE, *first, *SHEETS)

    def rank(cmd: CommandInfo) -> int:
        name = cmd.names[0]
        if name in order:
            return order.index(name) - len(order)
        if name in LAST:
            return 1000 + LAST.index(name)
        return 0

    return sorted(ctx.services.commands(system_id), key=rank)


HELP_MESSAGE_LIMIT = 1500
"""Characters per help message: the list grows with every system, and one message
over a platform's limit would be cut (Discord 2,000) or split mid-line (Plurk 360)."""


def chunks(lines: list[str], limit: int) -> list[str]:
    """Join lines into messages of at most ``limit`` characters, never splitting a line."""
    messages: list[str] = []
    current = ""
    for line in lines:
        if current and len(current) + 1 + len(line) > limit:
            messages.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    messages.append(current)
    return messages
