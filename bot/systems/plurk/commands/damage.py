"""`plurk` damage (PL-16 … PL-18, PL-12 in battle): `.parry`, `.atk`, `.dmg`.

`.parry 食屍鬼 [耐久]` — the current actor declares a parry (PL-16, costs parry BP).
`.atk 食屍鬼 1d8+1 [ko] [impale] [pen=N] [kind=…] [type=…] [noparry]` — the current
actor attacks: pays the attack BP, rolls the damage (impale: dice twice, PL-18),
and the hit goes through parry, armor and penetration; `ko` is a knock-out
attempt (PL-17). `.dmg 食屍鬼 7 [from=…] …` — the GM applies raw damage (no roll,
no BP): traps, reactions, corrections.

The arithmetic is the rules' (``roll_damage``, ``apply_damage``, ``knock_out``).
Enemies' HP lives in the battle; an investigator's HP is also written to the
sheet — unless the hit is a fatal event (PL-12): then the sheet waits and
``bot.systems.plurk.fatal.fatal_event`` offers intervention; if the investigator
intervenes, the hook below gives the battle its HP back (``cancel_damage``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from bot.context import Context
from bot.errors import CommandError
from bot.messages import Outgoing
from bot.names import fold
from bot.permissions import require_gm_if_any
from bot.store.models import ChannelState
from bot.systems.plurk.battle_args import current_actor, find_name, is_word, number
from bot.systems.plurk.battle_state import (
    battle_serial,
    hp_waiting,
    load_battle,
    running_battle,
    save_battle,
    sheet_for,
    write_sheet_hp,
)
from bot.systems.plurk.battle_text import battle_data, hp_text, readable, spend_text
from bot.systems.plurk.fatal import Outcome, fatal_event, on_fatal_resolved
from bot.systems.plurk.system import HP
from bot.systems.plurk.table import command
from rules.systems import plurk
from rules.systems.plurk import Battle, DamageResult, KnockOutResult

FATAL_SOURCE = "battle"
"""The ``source`` of the fatal events a hit opens (PL-12): its hook restores the
battle's HP when the investigator intervenes."""

# Words players use for attack kinds, besides the rules' ids and combat skill names.
_KIND_WORDS: dict[str, str] = {
    fold(word): kind
    for kind, spellings in {
        "unarmed": ("徒手", "拳腳", "拳脚"),
        "blunt": ("鈍器", "钝器", "鈍擊"),
        "edged": ("利器", "刀劍", "刀剑", "刃器"),
        "bow": ("弓", "弩"),
        "gun": ("槍", "枪"),
        "heavy_gun": ("火炮", "砲", "榴彈", "heavy"),
        "thrown_blunt": ("投擲鈍器", "投掷钝器"),
        "thrown_edged": ("投擲利器", "投掷利器"),
        "other": ("其他", "爪", "法術", "法术"),
    }.items()
    for word in spellings
}


@dataclass
class HitOptions:
    """What an attack declares besides target and damage."""

    knock_out: bool = False
    impale: bool = False
    parry: bool = True
    penetration: int = 0
    kind: str | None = None
    damage_type: str = "physical"
    attacker: str | None = None


def attack_kind(text: str) -> str:
    """`kind=` value → an attack kind id (rules' ids, combat skills, common words)."""
    return _KIND_WORDS.get(fold(text)) or plurk.attack_kind(text)


def parse_hit_options(tokens: list[str], usage: str) -> HitOptions:
    opts = HitOptions()
    for token in tokens:
        key, eq, value = token.partition("=")
        if not eq:
            if is_word(token, "ko", "擊昏", "knockout"):
                opts.knock_out = True
            elif is_word(token, "impale", "貫穿", "穿刺"):
                opts.impale = True
            elif is_word(token, "noparry", "招架失敗", "不招架"):
                opts.parry = False
            else:
                raise CommandError(usage)
        elif is_word(key, "pen", "penetration", "穿透"):
            opts.penetration = number(value, usage=usage)
        elif is_word(key, "kind", "種類", "武器類型"):
            opts.kind = attack_kind(value)
        elif is_word(key, "type", "傷害類型", "屬性"):
            opts.damage_type = value
        elif is_word(key, "from", "來源", "攻擊者"):
            opts.attacker = value
        else:
            raise CommandError(usage)
    if opts.kind is None and opts.knock_out:
        opts.kind = "unarmed"  # 普通攻擊: the plainest attack a knock-out allows
    if opts.kind is None and opts.impale:
        opts.kind = "edged"  # a blade: the plainest attack that impales
    return opts


# --------------------------------------------------------------------------- rendering


def roll_text(ctx: Context, rolled: plurk.DiceRoll) -> str:
    dice = ", ".join(map(str, rolled.rolls))
    mod = f"{rolled.modifier:+d}" if rolled.modifier else ""
    key = "plurk.battle.dmg.roll_impale" if rolled.impale else "plurk.battle.dmg.roll"
    return ctx.t(key, expr=rolled.expr, dice=dice, mod=mod, total=rolled.total)


def knock_out_text(ctx: Context, ko: KnockOutResult) -> str:
    if not ko.condition_met:
        return ctx.t("plurk.battle.ko.no_condition", raw=ko.raw_damage, hp=ko.hp, damage=ko.damage)
    check = ko.check
    assert check is not None
    detail = ctx.t("plurk.battle.ko.check", raw=check.raw, mod=f"{check.modifier:+d}",
                   value=check.value, threshold=check.threshold)
    if not ko.knocked_out:
        return ctx.t("plurk.battle.ko.resisted", check=detail, damage=ko.damage)
    return ctx.t("plurk.battle.ko.knocked_out", check=detail,
                 dice=", ".join(map(str, ko.rounds_rolls)), rounds=ko.rounds,
                 damage=ko.damage)


def hit_text(ctx: Context, hit: DamageResult) -> str:
    parts = []
    if hit.parried:
        key = "plurk.battle.dmg.parry_broken" if hit.weapon_broken else "plurk.battle.dmg.parry"
        parts.append(ctx.t(key, absorbed=hit.absorbed, before=hit.durability_before,
                           after=hit.durability_after))
    if hit.damage_type != "physical":
        parts.append(ctx.t("plurk.battle.dmg.armorless",
                           type=ctx.t(f"plurk.battle.damage_type.{hit.damage_type}")))
    elif hit.armor or hit.penetration:
        parts.append(ctx.t("plurk.battle.dmg.armor", armor=hit.armor, pen=hit.penetration,
                           effective=hit.effective_armor))
    parts.append(ctx.t("plurk.battle.dmg.taken", target=hit.target, taken=hit.taken,
                       before=hit.hp_before, after=hit.hp_after))
    return ctx.t("plurk.battle.dmg.steps_sep").join(parts)


# --------------------------------------------------------------------------- the hit


def strike(
    ctx: Context, battle: Battle, target: str, raw: int, opts: HitOptions
) -> tuple[Battle, DamageResult, KnockOutResult | None]:
    """One hit through the rules: a knock-out attempt (PL-17) or plain damage."""
    if opts.knock_out:
        battle, event = plurk.knock_out(
            battle, ctx.dice, target, raw, kind=opts.kind or "unarmed",
            attacker=opts.attacker, penetration=opts.penetration, parry=opts.parry)
        return battle, event.damage, event.knock_out
    battle, hit = plurk.apply_damage(
        battle, target, raw, attacker=opts.attacker, kind=opts.kind,
        penetration=opts.penetration, damage_type=opts.damage_type, parry=opts.parry)
    return battle, hit, None


async def settle_hp(ctx: Context, row: ChannelState, battle: Battle,
                    hit: DamageResult) -> list[str]:
    """Where the HP loss goes: an investigator's sheet, or a fatal event (PL-12)
    that waits for intervention; an enemy's stays in the battle.

    One investigator has at most one pending HP fatal event: a hit on someone
    already at 0 HP, or whose earlier fatal event is still pending, is reported
    (the GM rules on it) instead of opening a second event for the same fall."""
    victim = battle.get(hit.target)
    character = await sheet_for(ctx, row, victim)
    if character is None:  # an enemy or ally (or a deleted sheet): the battle's HP only
        return [ctx.t("plurk.battle.dmg.down", name=victim.name)] if hit.hp_after <= 0 < hit.taken \
            else []
    if hit.taken > 0 and (hit.fatal or hit.hp_before <= 0):
        pending = await hp_waiting(ctx, character)
        if pending:
            return [ctx.t("plurk.battle.dmg.fatal_pending", name=victim.name, id=pending[0]["id"],
                          taken=hit.taken)]
        if hit.hp_before <= 0:
            return [ctx.t("plurk.battle.dmg.already_down", name=victim.name, taken=hit.taken)]
        details = {"serial": battle_serial(row), "combatant": victim.name, "hit": asdict(hit)}
        return await fatal_event(ctx, victim.owner or character.owner, character.name, HP,
                                 hit.taken, source=FATAL_SOURCE, current=hit.hp_before,
                                 details=details, character_id=character.id)
    await write_sheet_hp(ctx, row, victim, hit.hp_after)
    return []


@on_fatal_resolved(FATAL_SOURCE)
async def fatal_resolved(ctx: Context, record: dict[str, Any], outcome: Outcome) -> list[str]:
    """PL-12 in battle: an intervention cancels the hit in the battle too; an
    accepted loss is already in the battle (the sheet just caught up)."""
    if outcome != "intervened":
        return []
    row, battle = await load_battle(ctx)
    details = record.get("details") or {}
    if battle is None or battle_serial(row) != details.get("serial"):
        return []
    if battle.find(details.get("combatant", "")) is None:
        return []
    hit = DamageResult(**details["hit"])
    battle = plurk.cancel_damage(battle, hit)
    save_battle(row, battle)
    restored = battle.get(hit.target)
    return [ctx.t("plurk.battle.dmg.restored", name=restored.name, hp=hp_text(ctx, restored.hp))]


def damage_lines(ctx: Context, head: str, ko: KnockOutResult | None,
                 hit: DamageResult) -> list[str]:
    lines = [head]
    if ko is not None:
        lines.append(knock_out_text(ctx, ko))
    lines.append(hit_text(ctx, hit))
    return lines


# --------------------------------------------------------------------------- commands


@command("parry", "招架")
@readable
async def parry(ctx: Context) -> list[Outgoing]:
    """PL-16: at the end of its action the current actor names the enemy it parries."""
    tokens = ctx.args.split()
    if len(tokens) not in (1, 2):
        raise CommandError("plurk.error.battle.parry_usage")
    durability = number(tokens[1], usage="plurk.error.battle.parry_usage") if len(tokens) == 2 \
        else None
    row, battle = await running_battle(ctx)
    actor = current_actor(ctx, battle)
    enemy = find_name(battle, tokens[0])
    battle, event = plurk.declare_parry(battle, enemy, actor=actor.name, durability=durability)
    save_battle(row, battle)
    me = battle.get(actor.name)
    text = ctx.t("plurk.battle.parry_declared", actor=actor.name, enemy=battle.get(enemy).name,
                 durability=hp_text(ctx, me.weapon_durability))
    return [ctx.reply(text + "\n" + spend_text(ctx, battle, event),
                      battle_data("parry", battle, bp=event))]


@command("atk", "attack", "攻擊", "攻击")
@readable
async def atk(ctx: Context) -> list[Outgoing]:
    """The current actor's attack: attack BP, damage roll, parry/armor, HP."""
    tokens = ctx.args.split()
    if len(tokens) < 2:
        raise CommandError("plurk.error.battle.atk_usage")
    row, battle = await running_battle(ctx)
    actor = current_actor(ctx, battle)
    target = battle.get(find_name(battle, tokens[0])).name
    if target == actor.name:  # as a parry against oneself is (PL-16)
        raise CommandError("plurk.error.battle.attack_self", name=actor.name)
    opts = parse_hit_options(tokens[2:], "plurk.error.battle.atk_usage")
    if opts.attacker is not None:
        raise CommandError("plurk.error.battle.atk_usage")
    opts.attacker = actor.name
    plurk.spend_bp(battle, "attack", actor=actor.name)  # refuse before any die is rolled
    rolled = plurk.roll_damage(ctx.dice, tokens[1], impale=opts.impale, kind=opts.kind)
    battle, hit, ko = strike(ctx, battle, target, rolled.total, opts)
    battle, spent = plurk.spend_bp(battle, "attack", actor=actor.name)
    lines = damage_lines(ctx, ctx.t("plurk.battle.dmg.attack", attacker=actor.name, target=target,
                                    roll=roll_text(ctx, rolled)), ko, hit)
    lines.extend(await settle_hp(ctx, row, battle, hit))
    lines.append(spend_text(ctx, battle, spent))
    save_battle(row, battle)
    data = battle_data("attack", battle, roll=rolled, hit=hit, knock_out=ko, bp=spent)
    return [ctx.reply("\n".join(lines), data)]


@command("dmg", "damage", "傷害", "伤害")
@readable
async def dmg(ctx: Context) -> list[Outgoing]:
    """GM: raw damage to a combatant, outside the BP economy (no roll, no BP)."""
    require_gm_if_any(ctx)
    tokens = ctx.args.split()
    if len(tokens) < 2:
        raise CommandError("plurk.error.battle.dmg_usage")
    raw = number(tokens[1], usage="plurk.error.battle.dmg_usage")
    opts = parse_hit_options(tokens[2:], "plurk.error.battle.dmg_usage")
    if opts.impale:
        raise CommandError("plurk.error.battle.dmg_impale")
    row, battle = await running_battle(ctx)
    target = battle.get(find_name(battle, tokens[0])).name
    if opts.attacker is not None:
        opts.attacker = battle.get(find_name(battle, opts.attacker)).name
    battle, hit, ko = strike(ctx, battle, target, raw, opts)
    head = ctx.t("plurk.battle.dmg.raw", target=target, raw=raw,
                 attacker=opts.attacker or ctx.t("plurk.battle.dmg.no_attacker"))
    lines = damage_lines(ctx, head, ko, hit)
    lines.extend(await settle_hp(ctx, row, battle, hit))
    save_battle(row, battle)
    return [ctx.reply("\n".join(lines), battle_data("damage", battle, hit=hit, knock_out=ko))]

