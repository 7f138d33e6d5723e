"""`ace` damage: `.atk` (AE-5 … AE-12 from sheet values: hit, damage, called shots,
lethal attacks, assassination, energy), `.area` (AE-6 area damage) and `.dmg` (damage a
GM applies directly: a skill's effect, after AE-11 / AE-12).

Damage lands on the target's HP: a character's sheet (生命, full = 體質 × 10) or a GM's
enemy. A character whose attack brings a target to 0 counts a kill on its mark (AE-14).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TypedDict

from bot.context import Context
from bot.errors import CommandError
from bot.kits.args import is_word
from bot.kits.references import require_owner_or_gm
from bot.messages import Outgoing
from bot.permissions import require_gm, require_gm_if_any
from bot.systems.ace.args import echo, join_spaced, number, option
from bot.systems.ace.documents import FIGHT, MARK, OPTIONS
from bot.systems.ace.sheet import energy_key
from bot.systems.ace.state import (
    Someone,
    acting_fighter,
    armed,
    pop_by,
    set_hp,
    someone,
)
from bot.systems.ace.table import command
from bot.systems.ace.text import (
    contest_text,
    damage_text,
    data,
    dice_text,
    energy_word,
    hit_text,
    hp_text,
    joined,
    readable,
    word,
)
from bot.systems.ace.words import ASSASSINATE, KINDS, LETHAL, PARTS, REFLEXES, any_of, lookup
from rules.systems.ace import combat, mark, stealth
from rules.systems.ace import fight as rules_fight

ENERGY = ("能量", "energy", "屬性", "属性", "元素")
HIT = ("命中", "hit")
ATTACK = ("攻擊", "攻击", "攻", "atk", "attack", "dmg")
WEAPON = ("武器", "w", "weapon")
AMMO = ("子彈", "子弹", "ammo")
CONTEST = ("對抗", "对抗", "contest")
HIDDEN = ("hidden", "暗", "暗骰")


def energy_of(token: str) -> str | None:
    head, sep, value = token.partition("=")
    if sep and value and is_word(head, *ENERGY):
        return energy_key(value)
    return None


class Gear(TypedDict, total=False):
    """The attacker's sheet numbers an attack overrides (``武器=N``, ``子彈=N``)."""

    weapon: int
    ammo: int


def pop_hidden(words: list[str]) -> tuple[list[str], bool]:
    """The GM's ``hidden`` word (its result to the GMs alone) taken out."""
    rest = [w for w in words if not any_of(w, HIDDEN)]
    return rest, len(rest) != len(words)


def parse_attack(words: list[str]) -> tuple[str, combat.AttackSpec, Gear]:
    """``狼人 頭 命中+2 武器=4 能量=火`` → (target, spec, gear overrides)."""
    if not words:
        raise CommandError("ace.error.atk_usage")
    gear: Gear = {}
    target, spec = words[0], combat.AttackSpec()
    for token in words[1:]:
        kind, part, reflex = lookup(token, KINDS), lookup(token, PARTS), lookup(token, REFLEXES)
        energy = energy_of(token)
        parsed = option(token)
        if kind is not None:
            spec = replace(spec, kind=kind)
        elif part is not None:
            spec = replace(spec, part=part)
        elif reflex is not None:
            spec = replace(spec, reflex=reflex)
        elif any_of(token, LETHAL):
            spec = replace(spec, lethal=True)
        elif any_of(token, ASSASSINATE):
            spec = replace(spec, assassinate=True)
        elif energy is not None:
            spec = replace(spec, energy=energy)
        elif parsed is not None and is_word(parsed[0], *HIT):
            spec = replace(spec, hit_mod=spec.hit_mod + parsed[2])
        elif parsed is not None and is_word(parsed[0], *ATTACK):
            spec = replace(spec, attack_mod=spec.attack_mod + parsed[2])
        elif parsed is not None and is_word(parsed[0], *CONTEST):
            spec = replace(spec, contest_mod=spec.contest_mod + parsed[2])
        elif parsed is not None and parsed[1] == "set" and is_word(parsed[0], *WEAPON):
            gear["weapon"] = parsed[2]
        elif parsed is not None and parsed[1] == "set" and is_word(parsed[0], *AMMO):
            gear["ammo"] = parsed[2]
        else:
            raise CommandError("ace.error.atk_option", option=echo(token))
    return target, spec, gear


def label(ctx: Context, spec: combat.AttackSpec, target: combat.Fighter) -> str:
    parts = []
    if spec.kind != "melee":
        parts.append(word(ctx, "kind", spec.kind))
    if spec.part is not None:
        parts.append(word(ctx, "part", spec.part))
    if spec.lethal:
        parts.append(ctx.t("ace.attack.lethal"))
    if spec.reflex == "guard":
        parts.append(ctx.t("ace.reflex.guard_n", n=target.con // combat.GUARD_CON))
    elif spec.reflex == "dodge":
        parts.append(ctx.t("ace.reflex.dodge_n", n=target.dex // combat.DODGE_DEX))
    return ctx.t("ace.attack.label", text=joined(ctx, parts)) if parts else ""


async def land(ctx: Context, attacker: Someone, target: Someone, damage: int) -> list[str]:
    """HP after a hit; a kill counted on the attacker's mark (AE-14)."""
    if damage <= 0:
        return []
    change = combat.apply_hp(target.hp, damage)
    await set_hp(ctx, target, change.after)
    lines = [hp_text(ctx, target.name, change.before, change.after)]
    if change.dead and change.before > 0 and attacker.character is not None:
        after = mark.add_kills(await ctx.uow.load(MARK, attacker.character), 1)
        ctx.uow.save(MARK, after, attacker.character)
        lines.append(ctx.t("ace.attack.kill", name=attacker.name, kills=after.kills))
    return lines


@command("atk", "attack", "攻擊", "攻击")
@readable
async def atk(ctx: Context) -> list[Outgoing]:
    """`.atk 狼人 [槍|投擲] [頭|眼|腹|肋|鼻|喉|太陽穴|繳械|擊破] [護住|閃避] [致命] [暗殺]
    [命中+N] [攻擊+N] [武器=N] [子彈=N] [能量=火] [by=名字] [hidden]`.

    The attacker acts only when active and, in a running fight, on its turn; the
    dead are no target (issue 24); a reflex needs an active target. ``hidden`` (GM):
    the result goes to the GMs, the channel learns that an attack was rolled."""
    words, secret = pop_hidden(join_spaced(ctx.args).split())
    words, by = pop_by(words)
    ref, spec, gear = parse_attack(words)
    if secret:
        require_gm(ctx)
    fight = await ctx.uow.load(FIGHT)
    supernatural = (await ctx.uow.load(OPTIONS)).super
    attacker = await acting_fighter(ctx, by, fight)
    target = await someone(ctx, ref)
    target.require_alive()
    if spec.reflex is not None:
        target.require_active(fight)
    if spec.assassinate:
        stealth.check_assassination(fight.hidden, attacker.name, target.name)
    a = replace(armed(attacker, fight), **gear)
    t = armed(target, fight)
    combat.check_attack(a, t, spec)  # every refusal before a die
    if spec.reflex is not None:
        fight = rules_fight.spend_reflex(fight, target.name)
    result = combat.attack(ctx.dice, a, t, spec, supernatural=supernatural)
    fight = rules_fight.with_hidden(fight, stealth.reveal(fight.hidden, attacker.name))
    fight = rules_fight.mark_acted(fight, attacker.name)
    ctx.uow.save(FIGHT, fight)
    parts = [hit_text(ctx, result.hit)]
    if result.damage is not None:
        parts.append(damage_text(ctx, result.damage))
    if result.contest is not None:
        parts.append(contest_text(ctx, result.contest))
        if spec.part == "disarm":
            key = "ace.attack.disarmed" if result.disarmed else "ace.attack.kept"
            parts.append(ctx.t(key, target=target.name))
        else:
            parts.append(ctx.t("ace.attack.sundered", n=result.item_damage) if result.item_damage
                         else ctx.t("ace.attack.unbroken"))
    before = target.hp
    parts.extend(await land(ctx, attacker, target, result.total))
    head = "ace.attack.assassinate" if spec.assassinate else "ace.attack.line"
    text = ctx.t(head, attacker=attacker.name, target=target.name, label=label(ctx, spec, t),
                 parts=ctx.t("ace.bar").join(parts))
    payload = data("attack", result=result, total=result.total, hp_before=before,
                   hp_after=target.hp)
    if not secret:
        return [ctx.reply(text, payload)]
    announce = ctx.reply(ctx.t("ace.attack.hidden", attacker=attacker.name),
                         data("hidden_attack", attacker=attacker.name))
    return [announce, *ctx.to_gms(ctx.t("ace.attack.hidden_result", text=text), payload)]


def parse_energy(words: list[str]) -> tuple[list[str], str | None]:
    rest, energy = [], None
    for token in words:
        found = energy_of(token)
        if found is not None:
            energy = found
        else:
            rest.append(token)
    return rest, energy


@command("area", "範圍", "范围", "範圍傷害", "范围伤害")
@readable
async def area(ctx: Context) -> list[Outgoing]:
    """AE-6: `.area 15 狼人 蝙蝠 [能量=火]` — each target: dice = 15 − (max(敏捷, 體質) +
    基本步法), no hit die."""
    words, energy = parse_energy(join_spaced(ctx.args).split())
    if len(words) < 2:
        raise CommandError("ace.error.area_usage")
    value = number(words[0], "ace.error.area_usage")
    supernatural = (await ctx.uow.load(OPTIONS)).super
    fight = await ctx.uow.load(FIGHT)
    targets = [await someone(ctx, ref) for ref in words[1:]]
    for target in targets:
        target.require_alive()
    energy_text = ctx.t("ace.attack.energy", energy=energy_word(ctx, energy)) if energy else ""
    lines, results = [ctx.t("ace.area.head", area=value, energy=energy_text)], []
    for target in targets:
        result = combat.area(ctx.dice, value, armed(target, fight), energy=energy,
                             supernatural=supernatural)
        results.append(result)
        dice = dice_text(result.dice) if result.dice else ctx.t("ace.pool.no_dice")
        line = ctx.t("ace.area.item", name=target.name, avoid=result.avoid, dp=result.dp,
                     dice=dice, successes=result.successes, total=result.total)
        hp = await land_plain(ctx, target, result.total)
        lines.append(f"{line}{ctx.t('ace.bar')}{hp}" if hp else line)
    return [ctx.reply("\n".join(lines), data("area", results=results))]


async def land_plain(ctx: Context, target: Someone, damage: int) -> str:
    if damage <= 0:
        return ""
    change = combat.apply_hp(target.hp, damage)
    await set_hp(ctx, target, change.after)
    return hp_text(ctx, target.name, change.before, change.after)


@command("dmg", "傷害", "伤害")
@readable
async def dmg(ctx: Context) -> list[Outgoing]:
    """`.dmg 狼人 12 [能量=火]` (GM): damage from a skill's effect, after energy
    resistance (AE-11) and, with `.ace super on`, 體質's toughness (AE-12). In a channel
    without GMs a player's character takes it only from its player; an enemy from anyone."""
    require_gm_if_any(ctx)
    words, energy = parse_energy(join_spaced(ctx.args).split())
    if len(words) != 2:
        raise CommandError("ace.error.dmg_usage")
    target = await someone(ctx, words[0])
    require_owner_or_gm(ctx, target.owner)
    target.require_alive()
    amount = number(words[1], "ace.error.dmg_usage")
    supernatural = (await ctx.uow.load(OPTIONS)).super
    fight = await ctx.uow.load(FIGHT)
    result = combat.harm(amount, armed(target, fight), energy=energy, supernatural=supernatural)
    cut = []
    if result.resisted:
        cut.append(ctx.t("ace.attack.resisted", n=result.resisted))
    if result.con_reduction:
        cut.append(ctx.t("ace.attack.con_reduction", n=result.con_reduction))
    before = target.hp
    hp = await land_plain(ctx, target, result.total)
    text = ctx.t("ace.dmg.line_cut" if cut else "ace.dmg.line", name=target.name,
                 amount=amount, cut="".join(cut), total=result.total,
                 energy=ctx.t("ace.attack.energy", energy=energy_word(ctx, energy))
                 if energy else "")
    if hp:
        text = f"{text}{ctx.t('ace.bar')}{hp}"
    return [ctx.reply(text, data("damage", result=result, hp_before=before,
                                 hp_after=target.hp))]
