"""`.pc`: several characters per user per channel, exactly one of them active."""

from __future__ import annotations

from bot.context import Context
from bot.errors import CommandError
from bot.messages import Outgoing
from bot.names import visible_name
from bot.router import command
from bot.unit_of_work import Sheet

MAX_NAME = 50
MAX_CHARACTERS = 20


def check_name(name: str) -> str:
    name = name.strip()
    if not name:
        raise CommandError("core.error.pc_usage")
    if len(name) > MAX_NAME:
        raise CommandError("core.error.pc_name_too_long", limit=MAX_NAME)
    return visible_name(name)


async def create_character(ctx: Context, name: str) -> Sheet:
    """A new active character (the previous active one is kept, inactive)."""
    owned = await ctx.uow.sheets(ctx.user)
    if any(c.name == name for c in owned):
        raise CommandError("core.error.pc_exists", name=name)
    if len(owned) >= MAX_CHARACTERS:
        raise CommandError("core.error.pc_too_many", limit=MAX_CHARACTERS)
    for other in owned:
        other.active = False
    return await ctx.uow.add_sheet(ctx.user, name, active=True)


def find(owned: list[Sheet], name: str) -> Sheet:
    for character in owned:
        if character.name == name.strip():
            return character
    raise CommandError("core.error.pc_not_found", name=name.strip())


@command("pc", "角色")
async def pc(ctx: Context) -> list[Outgoing]:
    verb, _, rest = ctx.args.partition(" ")
    verb = verb.casefold()
    owned = await ctx.uow.sheets(ctx.user)
    if verb in ("", "show"):
        active = next((c for c in owned if c.active), None)
        if active is None:
            if owned:
                raise CommandError("core.error.pc_none_active")
            return [ctx.reply(ctx.t("core.pc.none"))]
        return [ctx.reply(ctx.t("core.pc.active", name=active.name))]
    if verb in ("new", "add"):
        character = await create_character(ctx, check_name(rest))
        return [ctx.reply(ctx.t("core.pc.created", name=character.name))]
    if verb in ("list", "ls"):
        if not owned:
            return [ctx.reply(ctx.t("core.pc.none"))]
        lines = [("▶ " if c.active else "・") + c.name for c in owned]
        return [ctx.reply(ctx.t("core.pc.list", names="\n".join(lines)))]
    if verb in ("switch", "use", "tag"):
        target = find(owned, rest)
        for character in owned:
            character.active = character is target
        return [ctx.reply(ctx.t("core.pc.switched", name=target.name))]
    if verb in ("rename", "mv"):
        parts = rest.split()
        if len(parts) == 1:
            active = next((c for c in owned if c.active), None)
            if active is None:
                raise CommandError("core.error.pc_no_active")
            target, new = active, check_name(parts[0])
        elif len(parts) == 2:
            target, new = find(owned, parts[0]), check_name(parts[1])
        else:
            raise CommandError("core.error.pc_usage")
        if any(c.name == new for c in owned):
            raise CommandError("core.error.pc_exists", name=new)
        old, target.name = target.name, new
        return [ctx.reply(ctx.t("core.pc.renamed", old=old, new=new))]
    if verb in ("del", "rm", "delete"):
        target = find(owned, rest)
        await ctx.uow.delete_sheet(target)
        return [ctx.reply(ctx.t("core.pc.deleted", name=target.name))]
    raise CommandError("core.error.pc_usage")
