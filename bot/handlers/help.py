"""`.help [command]`: the command list, or one command's usage."""

from __future__ import annotations

from bot import router
from bot.context import Context
from bot.errors import CommandError
from bot.messages import Outgoing
from bot.router import command


@command("help")
async def help_(ctx: Context) -> list[Outgoing]:
    wanted = ctx.args.strip()
    if wanted:
        found = router.find(wanted)
        if found is None:
            raise CommandError("error.help_unknown", command=wanted)
        names = " / ".join("." + n for n in found.names)
        return [ctx.reply(f"{names}\n{ctx.t(found.help_key)}")]
    lines = [ctx.t("help.header")]
    for cmd in router.commands():
        summary = ctx.t(cmd.help_key).splitlines()[0]
        lines.append(f".{cmd.names[0]} — {summary}")
    lines.append(ctx.t("help.footer"))
    return [ctx.reply("\n".join(lines))]
