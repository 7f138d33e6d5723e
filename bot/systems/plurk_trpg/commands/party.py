"""`.party`: the whole table at a glance for the GM — every active investigator's
HP / SAN / CP (PL-5, PL-12) and the party's AP pool (PL-11), in one short message.
HP or SAN not on a sheet shows as unknown; CP not on it is 0, as everywhere else."""

from __future__ import annotations

from bot.context import Context
from bot.messages import Outgoing
from bot.systems.plurk_trpg.characters import resource_value
from bot.systems.plurk_trpg.documents import ACTION_POINTS
from bot.systems.plurk_trpg.system import CP, HP, SAN, require_plurk
from bot.systems.plurk_trpg.table import command


@command("party", "隊伍", "队伍", "全員", "全员")
async def party(ctx: Context) -> list[Outgoing]:
    require_plurk(ctx)
    characters = await ctx.uow.active_sheets()
    pool = await ctx.uow.load(ACTION_POINTS)
    unknown = ctx.t("plurk.party.unknown")
    lines = [ctx.t("plurk.party.header", ap=pool.points)]
    rows = []
    for character in characters:
        stats = character.stats or {}
        values = {key: stats.get(name, unknown) for key, name in (("hp", HP), ("san", SAN))}
        values["cp"] = resource_value(character, CP)  # absent CP is 0, as `.cp` says (PL-12)
        lines.append(ctx.t("plurk.party.line", name=character.name, **values))
        rows.append({"character": character.name, "user": character.owner,
                     **{k: v for k, v in values.items() if v != unknown}})
    if not characters:
        lines.append(ctx.t("plurk.party.empty"))
    return [ctx.reply("\n".join(lines), {"kind": "plurk_party", "ap": pool.points,
                                         "members": rows})]
