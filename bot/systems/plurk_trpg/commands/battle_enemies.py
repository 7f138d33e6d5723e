"""`plurk` enemies: `.enemy` defines them for the next battle (GM).

`.enemy add 食屍鬼 靈巧=12 hp=20 armor=2 human` defines an enemy (during a battle
it enters at once), `.enemy` lists the definitions, `.enemy del` / `.enemy clear`
forget them, `.enemy reveal 食屍鬼` shows the channel its numbers. An enemy's numbers
are the GMs' (issue 24): at a table with a GM the channel sees names and health
bands, the GMs get the numbers privately (``bot.kits.encounter.for_gms``). The
definitions are the battle setup's (``bot.systems.plurk_trpg.battle_state``);
`.battle start` brings them all in.
"""

from __future__ import annotations

from typing import Any

from bot.context import Context
from bot.errors import CommandError
from bot.kits.args import is_word
from bot.kits.encounter import for_gms
from bot.messages import Outgoing
from bot.permissions import require_gm_if_any
from bot.systems.plurk_trpg.battle_roster import (
    enemy_entrant,
    enemy_line,
    enter,
    parse_enemy,
    remember_enemy,
)
from bot.systems.plurk_trpg.battle_state import load_battle, load_setup, save_setup, sync_sheet_hp
from bot.systems.plurk_trpg.battle_text import battle_json, enemy_band, hp_text, readable
from bot.systems.plurk_trpg.table import command
from rules.systems.plurk_trpg import Battle


@command("enemy", "敵人", "敌人")
@readable
async def enemy_command(ctx: Context) -> list[Outgoing]:
    """GM: define enemies for the next battle; during a battle a new one enters it."""
    verb, _, rest = ctx.args.strip().partition(" ")
    if is_word(verb, "", "list", "ls", "列表"):
        return await list_enemies(ctx)
    if not rest and (await load_setup(ctx)).enemy(verb) is not None:
        return await list_enemies(ctx, verb)  # `.enemy 食屍鬼`: that one
    require_gm_if_any(ctx)
    if is_word(verb, "reveal", "show", "公開", "公开"):
        return await reveal_enemy(ctx, rest.strip())
    if is_word(verb, "add", "new", "新增", "增加"):
        return await add_enemy(ctx, rest)
    if is_word(verb, "del", "rm", "remove", "刪除", "移除"):
        return await delete_enemy(ctx, rest.strip())
    if is_word(verb, "clear", "清除", "清空"):
        setup = await load_setup(ctx)
        setup.enemies = []
        save_setup(ctx, setup)
        return [ctx.reply(ctx.t("plurk.battle.enemies_cleared"))]
    raise CommandError("plurk.error.battle.enemy_usage")


async def list_enemies(ctx: Context, name: str | None = None) -> list[Outgoing]:
    """The definitions (or the one ``name`` names): their numbers are the GMs' (issue
    24) — at a table with a GM the channel sees names and health bands, every GM the
    numbers privately."""
    setup = await load_setup(ctx)
    if not setup.enemies:
        return [ctx.reply(ctx.t("plurk.battle.enemies_none"))]
    enemies = setup.enemies if name is None else [setup.enemy(name)]
    header = ctx.t("plurk.battle.enemies_header")
    secret = "\n".join([header, *(enemy_line(ctx, e) for e in enemies if e)])
    data = {"kind": "plurk.enemies", "enemies": enemies}
    if not ctx.gm_users:
        return [ctx.reply(secret, data)]
    _, battle = await load_battle(ctx)
    public = "\n".join([header, *(name_line(ctx, e, battle) for e in enemies if e)])
    names = {"kind": "plurk.enemies", "names": [e["name"] for e in enemies if e]}
    if not ctx.is_gm:
        return [ctx.reply(public, names)]
    return for_gms(ctx, public, names, secret, data)


def name_line(ctx: Context, e: dict[str, Any], battle: Battle | None) -> str:
    """An enemy as the channel sees it: its name, and its health band once it fights."""
    fighting = battle.find(e["name"]) if battle is not None else None
    band = ctx.t("plurk.battle.enemy_band", band=enemy_band(ctx, fighting)) \
        if fighting is not None else ""
    return ctx.t("plurk.battle.enemy_name", name=e["name"], band=band)


async def reveal_enemy(ctx: Context, name: str) -> list[Outgoing]:
    """GM: `.enemy reveal 食屍鬼` shows the channel an enemy's numbers (its definition,
    and its HP now when it fights)."""
    setup = await load_setup(ctx)
    found = setup.enemy(name) if name else None
    _, battle = await load_battle(ctx)
    fighting = battle.find(name) if battle is not None and name else None
    if found is None and fighting is None:
        raise CommandError("plurk.error.battle.enemy_unknown", name=name)
    lines = [ctx.t("plurk.battle.enemy_revealed")]
    if found is not None:
        lines.append(enemy_line(ctx, found))
    if fighting is not None:
        lines.append(ctx.t("plurk.battle.enemy_now", name=fighting.name,
                           hp=hp_text(ctx, fighting.hp), hp_max=hp_text(ctx, fighting.hp_max),
                           armor=fighting.armor))
    shown = battle_json(battle) if battle is not None and fighting is not None else None
    return [ctx.reply("\n".join(lines), {"kind": "plurk.enemies", "revealed": found,
                                         "battle": shown})]


async def add_enemy(ctx: Context, text: str) -> list[Outgoing]:
    """Define an enemy; during a battle it enters at once. A name already defined
    or fighting is numbered (a second 狂信者 is 狂信者2, issue 12 item 13): the
    first is never silently replaced (`.enemy del` removes one)."""
    values = parse_enemy(text)
    setup = await load_setup(ctx)
    stored, battle = await load_battle(ctx)
    asked = remember_enemy(setup, values, battle)
    save_setup(ctx, setup)
    note = ctx.t("plurk.battle.enemy_numbered", asked=asked, name=values["name"]) \
        if asked else None
    if battle is None:
        text = ctx.t("plurk.battle.enemy_defined", line=enemy_line(ctx, values, item=False))
        public = ctx.t("plurk.battle.enemy_defined_public", name=values["name"])
        return for_gms(ctx, f"{note}\n{public}" if note else public,
                       {"kind": "plurk.enemies", "names": [e["name"] for e in setup.enemies]},
                       f"{note}\n{text}" if note else text,
                       {"kind": "plurk.enemies", "enemies": setup.enemies})
    return enter(ctx, stored, await sync_sheet_hp(ctx, stored, battle), enemy_entrant(values),
                 note=note)


async def delete_enemy(ctx: Context, name: str) -> list[Outgoing]:
    setup = await load_setup(ctx)
    found = setup.enemy(name) if name else None
    if found is None:
        raise CommandError("plurk.error.battle.enemy_unknown", name=name)
    setup.enemies.remove(found)
    save_setup(ctx, setup)
    return [ctx.reply(ctx.t("plurk.battle.enemy_deleted", name=found["name"]))]
