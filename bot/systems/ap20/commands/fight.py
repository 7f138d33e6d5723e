"""The fight (AP-1 turns, decision 2 initiative) on the encounter kit (issue 24):
`.init` with the shared verbs (join, add, start, next, list, end, remove) and ap20's
own (set, reveal), `.pass` and `.ri`; `.init` alone shows the order."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.context import Context
from bot.errors import CommandError
from bot.kits.args import is_word, key_value
from bot.kits.encounter import for_gms, ping, route_init, skipped_line
from bot.kits.references import active_sheet
from bot.messages import Outgoing
from bot.permissions import require_gm_if_any
from bot.systems.ap20.args import ECHO, integer, may_speak_for, name_arg, require_speaker
from bot.systems.ap20.state import (
    attribute,
    find,
    life_of,
    load,
    numbers,
    numbers_hidden,
    refreshed,
    running,
    save,
    set_hp,
    sheet_value,
)
from bot.systems.ap20.table import command
from bot.systems.ap20.text import (
    fight_data,
    fight_text,
    fighter_line,
    health_parts,
    initiative_detail,
    label,
    ordinal,
    stat_block,
    turn_data,
    turn_text,
)
from rules.systems import ap20
from rules.systems.ap20 import Combat, Fighter
from rules.systems.ap20.damage import damage_type

USAGE = "ap20.error.init_usage"

FLAG_WORDS = {
    "dead": ("死亡", "dead"),
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
    """`.init` shows; the shared verbs (``bot.kits.encounter.route_init``: join / add /
    start / next / list / end / remove) and ap20's own: set, reveal."""
    return await route_init(ctx, {
        "join": lambda c: join(c, c.args), "add": lambda c: add(c, c.args), "start": start,
        "next": next_, "list": show, "end": end, "remove": lambda c: remove(c, c.args),
    }, fallback=own_verbs)


async def own_verbs(ctx: Context) -> list[Outgoing]:
    """ap20's `.init` words besides the shared ones (and its older spellings)."""
    verb, _, rest = ctx.args.strip().partition(" ")
    rest = rest.strip()
    if is_word(verb, "set", "設定", "设定"):
        return await set_(ctx, rest)
    if is_word(verb, "reveal", "公開", "公开"):
        return await reveal(ctx, rest)
    if is_word(verb, "n", "下一個", "下一个"):
        return await next_(ctx)
    if is_word(verb, "加"):
        return await add(ctx, rest)
    if is_word(verb, "查看"):
        return await show(ctx)
    raise CommandError(USAGE)


async def show(ctx: Context) -> list[Outgoing]:
    """The order; a GM asking also gets the hidden numbers privately."""
    combat = await load(ctx)
    if combat is None:
        return [ctx.reply(ctx.t("ap20.fight.none"), fight_data(ctx, None, "show"))]
    public = await fight_text(ctx, combat)
    if ctx.is_gm and any(numbers_hidden(ctx, f) for f in combat.fighters):
        return for_gms(ctx, public, fight_data(ctx, combat, "show"),
                       await fight_text(ctx, combat, secret=True),
                       fight_data(ctx, combat, "show", secret=True))
    return [ctx.reply(public, fight_data(ctx, combat, "show"))]


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
    top = sheet_value(dict(character.stats or {}), "生命上限")
    fighter = replace(refreshed(fighter, values),
                      hp_max=top if top is not None else values.get("hp"))
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
        detail = initiative_detail(ctx, rolled.raw, modifier, bonus, rolled.tier_bonus)
    else:
        fighter = replace(fighter, initiative=value, tiebreak=modifier)
        detail = ctx.t("ap20.fight.init_set")
    combat = ap20.join(combat, fighter)
    save(ctx, combat)
    place = ordinal(ctx, combat.fighters.index(combat.get(fighter.name)) + 1)
    text = ctx.t("ap20.fight.joined", name=fighter.name, init=fighter.initiative, detail=detail,
                 side=label(ctx, "side", fighter.side), ap=fighter.ap_max, place=place)
    data = fight_data(ctx, combat, "join", name=fighter.name)
    if not numbers_hidden(ctx, fighter):
        return [ctx.reply(text, data)]
    public = ctx.t("ap20.fight.joined_hidden", name=fighter.name, init=fighter.initiative,
                   side=label(ctx, "side", fighter.side), place=place)
    return for_gms(ctx, public, data, f"{text}\n{stat_block(ctx, fighter)}",
                   fight_data(ctx, combat, "join", secret=True, name=fighter.name))


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
                      ap_max=max(0, ap_max), stats=stats, hp_max=stats.get("hp"),
                      flags=tuple(f for f in ap20.FLAGS if f in flags), resist=resist)
    return _entered(ctx, combat, fighter, stats, value, bonus)


async def start(ctx: Context) -> list[Outgoing]:
    """`.init start` (GM): round 1 begins (what the first `.init next` does)."""
    combat = await running(ctx)
    if combat.started:
        raise CommandError("ap20.error.started", actor=combat.actor.name if combat.actor else "")
    return await next_(ctx)


async def next_(ctx: Context) -> list[Outgoing]:
    """End the current turn (its player or a GM); the first `next` starts round 1 (GM).
    The turn passes over the fallen (issue 24); the incoming fighter's AP refill to its
    max (AP-1; a player's max from the sheet), and its player is pinged — the GMs on
    an enemy's turn."""
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
    lives = {f.name: await life_of(ctx, f) for f in combat.fighters}
    combat, turn = ap20.next_turn(combat, lives)
    save(ctx, combat)
    current = combat.get(turn.current)
    skipped = skipped_line(ctx, [(name, lives[name]) for name in turn.skipped])
    text = "\n".join(t for t in (skipped, turn_text(ctx, turn, combat)) if t)
    out = ctx.reply(text, fight_data(ctx, combat, "next", turn=turn_data(ctx, turn, combat)))
    return [ping(out, current.owner, ctx.gm_users)]


async def remove(ctx: Context, rest: str) -> list[Outgoing]:
    """A fighter leaves the fight, by its player's word or a GM's (a GM-run one: a
    GM's, anyone's in a channel without GMs — issues 22, 24). The actor leaving ends
    its turn as `.init next` does: the fallen passed over, the next actor pinged."""
    if not rest:
        raise CommandError(USAGE)
    combat = await running(ctx)
    fighter = find(combat, rest)
    require_speaker(ctx, fighter.name, fighter.owner, leaving=True)
    lives = {f.name: await life_of(ctx, f) for f in combat.fighters}
    after, turn = ap20.leave(combat, fighter.name, lives)
    save(ctx, after)
    text = ctx.t("ap20.fight.removed", name=fighter.name)
    if after is None or turn is None:
        return [ctx.reply(text, fight_data(ctx, after, "remove", name=fighter.name))]
    skipped = skipped_line(ctx, [(name, lives[name]) for name in turn.skipped])
    text = "\n".join(t for t in (text, skipped, turn_text(ctx, turn, after)) if t)
    out = ctx.reply(text, fight_data(ctx, after, "remove", name=fighter.name,
                                     turn=turn_data(ctx, turn, after)))
    return [ping(out, after.get(turn.current).owner, ctx.gm_users)]


async def set_(ctx: Context, rest: str) -> list[Outgoing]:
    """GM: `.init set 艾莉絲 hp=10 ap=3 +失能 -隱匿 +死亡` — any fighter's HP (a player's
    on its sheet, within 0 … its maximum), action points, numbers and states (issue 24:
    players change their own sheet with `.st`; the states that grant a benefit are the
    GM's)."""
    require_gm_if_any(ctx)
    tokens = rest.split()
    if len(tokens) < 2:
        raise CommandError("ap20.error.set_usage")
    combat = await running(ctx)
    fighter = find(combat, tokens[0])
    require_speaker(ctx, fighter.name, fighter.owner)
    add_flags: list[str] = []
    drop_flags: list[str] = []
    changes: dict[str, Any] = {}
    stats = dict(fighter.stats)
    hp: int | None = None
    for token in tokens[1:]:
        if token[:1] in "+-" and (flag := flag_key(token[1:])) is not None:
            (add_flags if token[0] == "+" else drop_flags).append(flag)
            continue
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
        elif is_word(key, "hpmax", "生命上限"):
            changes["hp_max"] = max(0, number)
        elif is_word(key, *STAT_WORDS["hp"]):
            hp = number
        elif (stat := stat_key(key)) is not None and fighter.character_id is None:
            stats[stat] = number
        else:
            raise CommandError("ap20.error.add_option", option=token[:ECHO])
    combat = ap20.update(combat, fighter.name, stats=stats,
                         flags=ap20.with_flags(fighter, add_flags, drop_flags), **changes)
    capped = ""
    if hp is not None:
        combat, _, after = await set_hp(ctx, combat.get(fighter.name), combat, hp)
        if after != hp:
            capped = (ctx.t("ap20.sheet.top", top=after) if after else
                      ctx.t("ap20.sheet.floor"))
    save(ctx, combat)
    updated = combat.get(fighter.name)
    index = combat.fighters.index(updated)
    if hp is not None and updated.has("dead"):
        dead = ctx.t("ap20.fight.still_dead")
    elif fighter.has("dead") and not updated.has("dead"):
        dead = ctx.t("ap20.fight.revived", name=fighter.name)
    else:
        dead = ""
    line = (await fighter_line(ctx, combat, index, secret=True)).strip()
    text = ctx.t("ap20.fight.updated", line=line) + capped + dead
    if not numbers_hidden(ctx, updated):
        return [ctx.reply(text, fight_data(ctx, combat, "set", name=fighter.name))]
    public = ctx.t("ap20.fight.updated", line=(await fighter_line(ctx, combat, index)).strip())
    return for_gms(ctx, public, fight_data(ctx, combat, "set", name=fighter.name), text,
                   fight_data(ctx, combat, "set", secret=True, name=fighter.name))


async def reveal(ctx: Context, rest: str) -> list[Outgoing]:
    """GM: `.init reveal 食人魔` — the fighter's numbers to the channel, from now on."""
    require_gm_if_any(ctx)
    if not rest:
        raise CommandError("ap20.error.reveal_usage")
    combat = await running(ctx)
    fighter = find(combat, rest)
    combat = ap20.update(combat, fighter.name, revealed=True)
    save(ctx, combat)
    return [ctx.reply(ctx.t("ap20.fight.revealed", block=stat_block(ctx, fighter)),
                      fight_data(ctx, combat, "reveal", name=fighter.name))]


async def end(ctx: Context) -> list[Outgoing]:
    require_gm_if_any(ctx)
    combat = await running(ctx)
    save(ctx, None)
    parts = [ctx.t("ap20.fight.end_item", name=fighter.name, state=" ".join(health))
             for fighter in combat.fighters if (health := await health_parts(ctx, fighter))]
    return [ctx.reply(ctx.t("ap20.fight.ended", round=combat.round,
                            items=ctx.t("ap20.sep").join(parts) or "—"),
                      fight_data(ctx, None, "end", rounds=combat.round))]
