"""`ace` damage: `.atk` (AE-5 … AE-12 from sheet values: hit, damage, called shots,
lethal attacks, assassination, energy), `.area` (AE-6 area damage) and `.dmg` (damage a
GM applies directly: a skill's effect, after AE-11 / AE-12).

Damage lands on the target's HP: a character's sheet (生命, full = 體質 × 10) or a GM's
enemy. A character whose attack brings a target to 0 counts a kill on its mark (AE-14).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, TypedDict

from bot.context import Context
from bot.errors import CommandError
from bot.kits.args import is_word
from bot.kits.hidden import deliver
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
from bot.systems.ace.veil import band_line, shown, veiled
from bot.systems.ace.words import ASSASSINATE, KINDS, LETHAL, PARTS, REFLEXES, any_of, lookup
from rules.systems.ace import combat, mark, stealth
from rules.systems.ace import fight as rules_fight
from rules.systems.ace.fight import Fight

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


def label(ctx: Context, spec: combat.AttackSpec, target: combat.Fighter,
          hide: bool = False) -> str:
    """``（頭部、護住要害 DP−2）``: the reflex's size is the target's (``hide``: a veiled
    enemy's, left out)."""
    parts = []
    if spec.kind != "melee":
        parts.append(word(ctx, "kind", spec.kind))
    if spec.part is not None:
        parts.append(word(ctx, "part", spec.part))
    if spec.lethal:
        parts.append(ctx.t("ace.attack.lethal"))
    if spec.reflex is not None and hide:
        parts.append(ctx.t(f"ace.reflex.{spec.reflex}"))
    elif spec.reflex == "guard":
        parts.append(ctx.t("ace.reflex.guard_n", n=target.con // combat.GUARD_CON))
    elif spec.reflex == "dodge":
        parts.append(ctx.t("ace.reflex.dodge_n", n=target.dex // combat.DODGE_DEX))
    return ctx.t("ace.attack.label", text=joined(ctx, parts)) if parts else ""


#: An area of 200 rolls 195 dice: past this many a line shows their count, not each die.
SHOWN_DICE = 20


def area_dice(ctx: Context, dice: tuple[int, ...]) -> str:
    if not dice:
        return ctx.t("ace.pool.no_dice")
    return dice_text(dice) if len(dice) <= SHOWN_DICE else ctx.t("ace.pool.many_dice",
                                                                  n=len(dice))


def cuts(ctx: Context, result: combat.AreaResult | combat.HarmResult) -> str:
    """``−5抗性−2超自然體質``: what AE-11 / AE-12 took off, so the sum adds up."""
    out = ""
    if result.resisted:
        out += ctx.t("ace.attack.resisted", n=result.resisted)
    if result.con_reduction:
        out += ctx.t("ace.attack.con_reduction", n=result.con_reduction)
    return out


async def land(ctx: Context, attacker: Someone | None, target: Someone,
               damage: int) -> tuple[combat.HpChange | None, str]:
    """HP after a hit, and the kill counted on the attacker's mark (AE-14) said."""
    if damage <= 0:
        return None, ""
    change = combat.apply_hp(target.hp, damage)
    await set_hp(ctx, target, change.after)
    kill = ""
    if change.dead and change.before > 0 and attacker is not None \
            and attacker.character is not None:
        after = mark.add_kills(await ctx.uow.load(MARK, attacker.character), 1)
        ctx.uow.save(MARK, after, attacker.character)
        kill = ctx.t("ace.attack.kill", name=attacker.name, kills=after.kills)
    return change, kill


def landed_text(ctx: Context, target: Someone, change: combat.HpChange | None,
                fight: Fight, hide: bool) -> str:
    """The target's HP after the blow, or — ``hide`` — its health band (``""``: unhurt)."""
    if change is None:
        return ""
    return band_line(ctx, target, fight) if hide else \
        hp_text(ctx, target.name, change.before, change.after)


def attack_text(ctx: Context, spec: combat.AttackSpec, result: combat.AttackResult,
                who: tuple[Someone, Someone, combat.Fighter], landed: tuple[str, str],
                hide: tuple[bool, bool] = (False, False)) -> str:
    """The attack line; ``hide`` = (attacker veiled, target veiled) leaves their
    numbers out (issue 24); ``landed`` = (the target's HP or band, the kill)."""
    attacker, target, t = who
    parts = [hit_text(ctx, result.hit, hide_bonus=hide[0], hide_evasion=hide[1])]
    if result.damage is not None:
        parts.append(damage_text(ctx, result.damage, hide=any(hide)))
    if result.contest is not None:
        parts.append(contest_text(ctx, result.contest, hide_a=hide[0], hide_b=hide[1]))
        if spec.part == "disarm":
            key = "ace.attack.disarmed" if result.disarmed else "ace.attack.kept"
            parts.append(ctx.t(key, target=target.name))
        else:
            parts.append(ctx.t("ace.attack.sundered", n=result.item_damage) if result.item_damage
                         else ctx.t("ace.attack.unbroken"))
    parts.extend(x for x in landed if x)
    head = "ace.attack.assassinate" if spec.assassinate else "ace.attack.line"
    return ctx.t(head, attacker=attacker.name, target=target.name,
                 label=label(ctx, spec, t, hide[1]), parts=ctx.t("ace.bar").join(parts))


@command("atk", "attack", "攻擊", "攻击")
@readable
async def atk(ctx: Context) -> list[Outgoing]:
    """`.atk 狼人 [槍|投擲] [頭|眼|腹|肋|鼻|喉|太陽穴|繳械|擊破] [護住|閃避] [致命] [暗殺]
    [命中+N] [攻擊+N] [武器=N] [子彈=N] [能量=火] [by=名字] [hidden]`.

    The attacker acts only when active and, in a running fight, on its turn; the
    dead are no target (issue 24); a reflex needs an active target. A veiled enemy's
    numbers go to the GMs, the channel reads the line without them (``veil``).
    ``hidden`` (GM): the channel learns that an attack was made, the GMs the result,
    the target's player that it was hit and how it stands."""
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
    before = target.hp
    change, kill = await land(ctx, attacker, target, result.total)
    who = (attacker, target, t)
    text = attack_text(ctx, spec, result, who, (landed_text(ctx, target, change, fight, False),
                                                 kill))
    payload = data("attack", result=result, total=result.total, hp_before=before,
                   hp_after=target.hp)
    if secret:
        return hidden_attack(ctx, attacker, target, result, change, text, payload)
    hide = (veiled(ctx, attacker), veiled(ctx, target))
    public = attack_text(ctx, spec, result, who,
                         (landed_text(ctx, target, change, fight, hide[1]), kill), hide)
    public_data = data("attack", attacker=attacker.name, target=target.name,
                       hit=result.hit.hit, life=target.life(fight).value if hide[1] else None,
                       total=result.total, hp_after=None if hide[1] else target.hp)
    return shown(ctx, [attacker, target], public, public_data, text, payload)


def hidden_attack(ctx: Context, attacker: Someone, target: Someone,
                  result: combat.AttackResult, change: combat.HpChange | None, text: str,
                  payload: dict[str, Any]) -> list[Outgoing]:
    """A GM's ``hidden`` attack, delivered by the kit as every system's is (the channel
    learns that an attack was made, the GMs the result), and the target's player told
    privately that it was hit and where it stands now — without the attacker's numbers
    (the play-test: their HP changed and nobody said so)."""
    outs = deliver(ctx, ctx.user, attacker.name, text, payload, hidden=True,
                   kind="ace.hidden_attack", attack=True)
    owner = target.owner
    if result.hit.hit and owner is not None and owner not in ctx.gm_users \
            and not ctx.incoming.is_private:
        state = hp_text(ctx, target.name, change.before, change.after) if change is not None \
            else ctx.t("ace.attack.hidden_unhurt", name=target.name)
        outs.append(ctx.private(owner, ctx.t("ace.attack.hidden_hit", attacker=attacker.name,
                                             target=target.name, state=state),
                                data("hidden_hit", target=target.name, hp=target.hp)))
    return outs


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
    """AE-6: `.area 15 狼人 蝙蝠 [能量=火]` (GM) — each target: dice = 15 − (max(敏捷,
    體質) + 基本步法), no hit die. Like `.dmg`, a GM's: it is an effect's damage, not a
    fighter's action (the play-test: any player could hit anyone). In a channel without
    GMs a player's character takes it only from its player; an enemy from anyone."""
    require_gm_if_any(ctx)
    words, energy = parse_energy(join_spaced(ctx.args).split())
    if len(words) < 2:
        raise CommandError("ace.error.area_usage")
    value = number(words[0], "ace.error.area_usage")
    supernatural = (await ctx.uow.load(OPTIONS)).super
    fight = await ctx.uow.load(FIGHT)
    targets = [await someone(ctx, ref) for ref in words[1:]]
    for target in targets:
        require_owner_or_gm(ctx, target.owner)
        target.require_alive()
    energy_text = ctx.t("ace.attack.energy", energy=energy_word(ctx, energy)) if energy else ""
    head = ctx.t("ace.area.head", area=value, energy=energy_text)
    lines, public, results = [head], [head], []
    for target in targets:
        result = combat.area(ctx.dice, value, armed(target, fight), energy=energy,
                             supernatural=supernatural)
        results.append(result)
        line = ctx.t("ace.area.item", name=target.name, avoid=result.avoid, dp=result.dp,
                     dice=area_dice(ctx, result.dice), successes=result.successes,
                     cut=cuts(ctx, result), total=result.total)
        change, _ = await land(ctx, None, target, result.total)
        hp = landed_text(ctx, target, change, fight, False)
        lines.append(f"{line}{ctx.t('ace.bar')}{hp}" if hp else line)
        # a veiled enemy's avoidance (敏捷 / 體質 + 基本步法) and HP are the GM's
        public.append(band_line(ctx, target, fight) if veiled(ctx, target) else lines[-1])
    return shown(ctx, targets, "\n".join(public), data("area", names=[t.name for t in targets]),
                 "\n".join(lines), data("area", results=results))


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
    cut = cuts(ctx, result)
    before = target.hp
    change, _ = await land(ctx, None, target, result.total)
    text = ctx.t("ace.dmg.line_cut" if cut else "ace.dmg.line", name=target.name,
                 amount=amount, cut=cut, total=result.total,
                 energy=ctx.t("ace.attack.energy", energy=energy_word(ctx, energy))
                 if energy else "")
    hp = landed_text(ctx, target, change, fight, False)
    if hp:
        text = f"{text}{ctx.t('ace.bar')}{hp}"
    # a veiled enemy's resistance, toughness and HP are the GM's: its band in the channel
    public = ctx.t("ace.dmg.public", line=band_line(ctx, target, fight))
    return shown(ctx, [target], public, data("damage", name=target.name), text,
                 data("damage", result=result, hp_before=before, hp_after=target.hp))
