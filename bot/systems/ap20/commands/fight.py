"""The fight (AP-1 turns, decision 2 initiative): `.init` and `.pass` — as Avrae's
`!init`: join, add, next, remove, set, end; `.init` alone shows the order."""

from __future__ import annotations

from dataclasses import replace

from bot.context import Context
from bot.errors import CommandError
from bot.kits.args import is_word, key_value
from bot.kits.references import active_sheet
from bot.messages import Outgoing
from bot.permissions import require_gm_if_any
from bot.systems.ap20.args import ECHO, integer, may_speak_for, name_arg
from bot.systems.ap20.state import (
    attribute,
    find,
    load,
    numbers,
    refreshed,
    running,
    save,
)
from bot.systems.ap20.table import command
from bot.systems.ap20.text import fight_data, fight_text, fighter_line, label, turn_text
from rules.systems import ap20
from rules.systems.ap20 import Combat, Fighter
from rules.systems.ap20.damage import damage_type

USAGE = "ap20.error.init_usage"

FLAG_WORDS = {
    "incapacitated": ("失能", "incapacitated", "down"),
    "hidden": ("隱匿", "隐匿", "hidden"),
    "invisible": ("隱形", "隐形", "invisible"),
    "blindsight": ("盲視", "盲视", "blindsight"),
    "truesight": ("真實視覺", "真实视觉", "truesight"),
}

STAT_WORDS = {
    "hp": ("hp", "生命"), "armor": ("armor", "護甲", "护甲"), "dodge": ("dodge", "閃避", "闪避"),
    "block": ("block", "格擋", "格挡"), "parry": ("parry", "招架"), "hit": ("hit", "命中"),
    "pen": ("pen", "破甲"), "crit": ("crit", "重擊強度", "重击强度", "重擊", "重击"),
    "toughness": ("toughness", "韌性", "韧性"), "mp": ("mp", "精神力"),
    "stamina": ("stamina", "耐力"), "con": ("con", "體質", "体质"), "dex": ("dex", "敏捷"),
}


def flag_key(word: str) -> str | None:
    return next((k for k, words in FLAG_WORDS.items() if is_word(word, *words)), None)


def stat_key(word: str) -> str | None:
    """The key a GM-run fighter's number is stored under: the rules' (``armor`` …), or an
    attribute's sheet name (力量 智力 感知 魅力; 敏捷 and 體質 are ``dex`` / ``con``)."""
    found = next((k for k, words in STAT_WORDS.items() if is_word(word, *words)), None)
    if found is None:
        declared = ap20.SYSTEM.stat(word)
        if declared is not None and declared.name in ap20.ATTRIBUTES:
            return declared.name
    return found


@command("init", "先攻", "戰鬥", "战斗")
async def init(ctx: Context) -> list[Outgoing]:
    """`.init` shows; join / add / next / remove / set / end."""
    verb, _, rest = ctx.args.strip().partition(" ")
    rest = rest.strip()
    if not verb or is_word(verb, "show", "list", "查看"):
        combat = await load(ctx)
        if combat is None:
            return [ctx.reply(ctx.t("ap20.fight.none"), fight_data(None, "show"))]
        return [ctx.reply(await fight_text(ctx, combat), fight_data(combat, "show"))]
    if is_word(verb, "join", "加入"):
        return await join(ctx, rest)
    if is_word(verb, "add", "新增", "加"):
        return await add(ctx, rest)
    if is_word(verb, "next", "n", "下一個", "下一个", "結束回合", "结束回合"):
        return await next_(ctx)
    if is_word(verb, "remove", "rm", "移除"):
        return await remove(ctx, rest)
    if is_word(verb, "set", "設定", "设定"):
        return await set_(ctx, rest)
    if is_word(verb, "end", "結束", "结束"):
        return await end(ctx)
    raise CommandError(USAGE)


@command("pass", "過", "过")
async def pass_(ctx: Context) -> list[Outgoing]:
    """End the current turn (`.init next`)."""
    if ctx.args.strip():
        raise CommandError("ap20.error.pass_usage")
    return await next_(ctx)


@command("ri", "擲先攻", "掷先攻")
async def ri(ctx: Context) -> list[Outgoing]:
    """SealDice's `.ri`: roll initiative and join (`.init join`)."""
    return await join(ctx, ctx.args.strip())


def _initiative_arg(rest: str) -> tuple[int | None, int]:
    """``=15`` (a value, no roll) or ``+2`` (a bonus to the roll) or nothing."""
    text = rest.strip()
    if not text:
        return None, 0
    if text.startswith(("=", "＝")):
        return integer(text[1:], USAGE), 0
    return None, integer(text, USAGE)


async def join(ctx: Context, rest: str) -> list[Outgoing]:
    """A player's active character joins: initiative = d20 + 敏捷 modifier (decision 2)."""
    character = await active_sheet(ctx)
    combat = await load(ctx)
    if combat is not None and any(f.character_id == character.id for f in combat.fighters):
        raise CommandError("ap20.error.already_in", name=character.name)
    value, bonus = _initiative_arg(rest)
    fighter = Fighter(character.name, "party", ctx.user, character.id)
    values = await numbers(ctx, fighter)
    fighter = refreshed(fighter, values)
    fighter = replace(fighter, ap=fighter.ap_max)
    return _entered(ctx, combat, fighter, values, value, bonus)


def _entered(ctx: Context, combat: Combat | None, fighter: Fighter,
             values: dict[str, int], value: int | None, bonus: int) -> list[Outgoing]:
    dex = attribute(values, "敏捷")
    modifier = ap20.modifier(dex) if dex is not None else 0
    if value is None:
        rolled = ap20.initiative(ctx.dice, modifier=modifier, mods=bonus, tier=fighter.tier)
        fighter = replace(fighter, initiative=rolled.total, init_rolls=rolled.rolls,
                          tiebreak=modifier)
        detail = ctx.t("ap20.fight.init_roll", raw=rolled.raw, mod=f"{modifier:+d}",
                       extra=(f"{bonus:+d}" if bonus else "")
                       + (f"{rolled.tier_bonus:+d}" if rolled.tier_bonus else ""))
    else:
        fighter = replace(fighter, initiative=value, tiebreak=modifier)
        detail = ctx.t("ap20.fight.init_set")
    combat = ap20.join(combat, fighter)
    save(ctx, combat)
    text = ctx.t("ap20.fight.joined", name=fighter.name, init=fighter.initiative, detail=detail,
                 side=label(ctx, "side", fighter.side), ap=fighter.ap_max,
                 place=combat.fighters.index(combat.get(fighter.name)) + 1)
    return [ctx.reply(text, fight_data(combat, "join", name=fighter.name))]


async def add(ctx: Context, rest: str) -> list[Outgoing]:
    """GM: a GM-run fighter with its numbers: `.init add 哥布林 hp=12 護甲=2 閃避=3
    命中=4 破甲=1 tier=2 ap=6 init=+2 火焰=3 盲視 ally`."""
    require_gm_if_any(ctx)
    tokens = rest.split()
    if not tokens:
        raise CommandError("ap20.error.add_usage")
    name = name_arg(tokens[0])
    if key_value(name) is not None:
        raise CommandError("ap20.error.add_usage")
    combat = await load(ctx)
    stats: dict[str, int] = {}
    resist: dict[str, int] = {}
    flags: list[str] = []
    side, tier, ap_max, value, bonus = "foe", 1, ap20.DEFAULT_AP, None, 0
    for token in tokens[1:]:
        if is_word(token, "ally", "友方", "我方"):
            side = "party"
            continue
        flag = flag_key(token)
        if flag is not None:
            flags.append(flag)
            continue
        pair = key_value(token)
        if pair is None:
            raise CommandError("ap20.error.add_option", option=token[:ECHO])
        key, text = pair
        if is_word(key, "init", "先攻"):
            if text.startswith(("+", "-")):
                bonus = integer(text, "ap20.error.add_usage")
            else:
                value = integer(text, "ap20.error.add_usage")
        elif is_word(key, "tier", "等階", "等阶"):
            tier = integer(text, "ap20.error.add_usage")
        elif is_word(key, "ap", "行動力", "行动力"):
            ap_max = integer(text, "ap20.error.add_usage")
        elif (kind := damage_type(key.removeprefix("抗性").removeprefix("resist")
                                  .lstrip(":：") or key)) is not None:
            resist[kind] = integer(text, "ap20.error.add_usage")
        elif (stat := stat_key(key)) is not None:
            stats[stat] = integer(text, "ap20.error.add_usage")
        else:
            raise CommandError("ap20.error.add_option", option=token[:ECHO])
    if "hp" not in stats and "con" in stats:
        stats["hp"] = ap20.monster_hp(stats["con"], tier)  # AP-8
    fighter = Fighter(name, side, None, None, tier=tier, ap=max(0, ap_max),
                      ap_max=max(0, ap_max), stats=stats,
                      flags=tuple(f for f in ap20.FLAGS if f in flags), resist=resist)
    return _entered(ctx, combat, fighter, stats, value, bonus)


async def next_(ctx: Context) -> list[Outgoing]:
    """End the current turn (its player or a GM); the first `next` starts round 1 (GM).
    The incoming fighter's AP refill to its max (AP-1; a player's max from the sheet)."""
    combat = await running(ctx)
    actor = combat.actor
    if actor is None:
        require_gm_if_any(ctx)
    elif not may_speak_for(ctx, actor.owner):
        raise CommandError("ap20.error.not_your_turn_to_end", actor=actor.name)
    # a player's AP max is the sheet's 行動力: read before the refill
    for fighter in combat.fighters:
        if fighter.character_id is not None:
            values = await numbers(ctx, fighter)
            combat = ap20.update(combat, fighter.name,
                                 ap_max=refreshed(fighter, values).ap_max)
    combat, turn = ap20.next_turn(combat)
    save(ctx, combat)
    current = combat.get(turn.current)
    out = ctx.reply(turn_text(ctx, turn, combat),
                    fight_data(combat, "next", turn={"previous": turn.previous,
                                                     "current": turn.current,
                                                     "round": turn.round,
                                                     "new_round": turn.new_round,
                                                     "ap_before": turn.ap_before,
                                                     "ap_after": turn.ap_after}))
    if current.owner is not None:
        out = replace(out, notify=(current.owner,))
    return [out]


async def remove(ctx: Context, rest: str) -> list[Outgoing]:
    """GM: a fighter leaves the fight; in a channel without GMs a player's fighter
    only by its player's word (issue 22), a GM-run one by anyone's."""
    require_gm_if_any(ctx)
    if not rest:
        raise CommandError(USAGE)
    combat = await running(ctx)
    fighter = find(combat, rest)
    if not may_speak_for(ctx, fighter.owner):
        raise CommandError("ap20.error.not_yours", name=fighter.name)
    after = ap20.remove(combat, fighter.name)
    save(ctx, after)
    return [ctx.reply(ctx.t("ap20.fight.removed", name=fighter.name),
                      fight_data(after, "remove", name=fighter.name))]


async def set_(ctx: Context, rest: str) -> list[Outgoing]:
    """`.init set 哥布林 ap=3 hp=5 +失能 -隱匿` — a player for their own fighter's
    states, a GM for anything."""
    tokens = rest.split()
    if len(tokens) < 2:
        raise CommandError("ap20.error.set_usage")
    combat = await running(ctx)
    fighter = find(combat, tokens[0])
    if not may_speak_for(ctx, fighter.owner):
        raise CommandError("ap20.error.not_yours", name=fighter.name)
    add_flags: list[str] = []
    drop_flags: list[str] = []
    changes, stats = {}, dict(fighter.stats)
    for token in tokens[1:]:
        if token[:1] in "+-" and (flag := flag_key(token[1:])) is not None:
            (add_flags if token[0] == "+" else drop_flags).append(flag)
            continue
        require_gm_if_any(ctx)
        pair = key_value(token)
        if pair is None:
            raise CommandError("ap20.error.set_usage")
        key, text = pair
        number = integer(text, "ap20.error.set_usage")
        if is_word(key, "ap", "行動力", "行动力"):
            changes["ap"] = number
        elif is_word(key, "max", "上限", "apmax"):
            changes["ap_max"] = number
        elif is_word(key, "tier", "等階", "等阶"):
            changes["tier"] = number
        elif is_word(key, "init", "先攻"):
            changes["initiative"] = number
        elif (stat := stat_key(key)) is not None and fighter.character_id is None:
            stats[stat] = number
        else:
            raise CommandError("ap20.error.add_option", option=token[:ECHO])
    combat = ap20.update(combat, fighter.name, stats=stats,
                         flags=ap20.with_flags(fighter, add_flags, drop_flags), **changes)
    save(ctx, combat)
    index = combat.fighters.index(combat.get(fighter.name))
    return [ctx.reply(ctx.t("ap20.fight.updated", line=(await fighter_line(
        ctx, combat, index)).strip()), fight_data(combat, "set", name=fighter.name))]


async def end(ctx: Context) -> list[Outgoing]:
    require_gm_if_any(ctx)
    combat = await running(ctx)
    save(ctx, None)
    parts = []
    for fighter in combat.fighters:
        hp = (await numbers(ctx, fighter)).get("hp")
        if hp is not None:
            parts.append(ctx.t("ap20.fight.end_item", name=fighter.name, hp=hp))
    return [ctx.reply(ctx.t("ap20.fight.ended", round=combat.round,
                            items=ctx.t("ap20.sep").join(parts) or "—"),
                      fight_data(None, "end", rounds=combat.round))]

