"""Attacks and damage: `.atk` (AP-1 spend, AP-2 defence, AP-3/4 check, AP-6 layers, AP-7
sneak attack, AP-9 typed damage — and a tactical layer's verdict) and `.dmg` (AP-9)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from bot import systems
from bot.context import Context
from bot.errors import CommandError
from bot.kits import layers
from bot.kits.args import is_word, key_value
from bot.kits.encounter import for_gms
from bot.kits.hidden import deliver
from bot.messages import Outgoing
from bot.names import fold
from bot.permissions import require_gm_if_any
from bot.systems.ap20.args import ECHO, kind, layer, require_speaker
from bot.systems.ap20.state import (
    actor,
    find,
    life_of,
    numbers,
    numbers_hidden,
    points_kept,
    require_able,
    roster_hook,
    running,
    save,
    sheet_of,
    write_hp,
)
from bot.systems.ap20.table import command
from bot.systems.ap20.text import band_of, comparison, label, signed
from rules.kits.advantage import DEFENSE_PARTS, AttackKind, AttackTactics, Layer
from rules.kits.encounter import Life
from rules.systems import ap20
from rules.systems.ap20 import Attack, DamageRoll, Fighter

_DICE = re.compile(r"^[+-]?\d*d\d+([+-]\d*d?\d+)*$|^\d+d\d+$", re.IGNORECASE)
_MOD = re.compile(r"^[+-]\d{1,3}$")


@dataclass
class AttackArgs:
    target: str
    damage: str | None = None
    damage_type: str | None = None
    kind: AttackKind = "melee"
    mods: int = 0
    layers: list[Layer] = field(default_factory=list)
    action: str = "standard"
    nodef: bool = False
    sneak: bool = False
    hidden: bool = False
    by: str | None = None


def parse_attack(ctx: Context, text: str) -> AttackArgs:
    tokens = text.split()
    if not tokens or key_value(tokens[0]) is not None:
        raise CommandError("ap20.error.atk_usage")
    args = AttackArgs(tokens[0])
    for token in tokens[1:]:
        pair = key_value(token)
        if pair is not None and is_word(pair[0], "by", "由"):
            args.by = pair[1]
        elif _DICE.match(token):
            args.damage = token
        elif _MOD.match(token):
            args.mods += int(token)
        elif (found := ap20.damage_type(token)) is not None:
            args.damage_type = found
        elif (attack_kind := kind(token)) is not None:
            args.kind = attack_kind
        elif (declared := layer(token)) is not None:
            args.layers.append(declared)
        elif is_word(token, "opp", "藉機", "借机", "迅捷", "swift"):
            args.action = "swift"
        elif is_word(token, "nodef", "不防禦", "不防御"):
            args.nodef = True
        elif is_word(token, "sneak", "偷襲", "偷袭"):
            args.sneak = True
        elif is_word(token, "hidden", "暗骰", "秘密"):
            args.hidden = True
        else:
            raise CommandError("ap20.error.atk_word", word=token[:ECHO],
                               types=type_words(ctx))
    return args


def type_words(ctx: Context) -> str:
    """Every damage type in the reader's words, for a refusal that lists them."""
    return ctx.t("ap20.sep").join(label(ctx, "type", k) for k in ap20.DAMAGE_TYPES)


async def resistances(ctx: Context, fighter: Fighter) -> dict[str, int]:
    """A GM-run fighter's stored resistances; a player's sheet entries ``火焰抗性``."""
    character = await sheet_of(ctx, fighter)
    if character is None:
        return dict(fighter.resist)
    found: dict[str, int] = {}
    for key, value in (character.stats or {}).items():
        text = fold(key)
        if text.endswith(fold("抗性")):
            kind_ = ap20.damage_type(key[:-2])
            if kind_ is not None:
                found[kind_] = int(value)
    return found


def _roll_text(ctx: Context, rolls: tuple[int, ...], raw: int, net: int) -> str:
    if len(rolls) == 1:
        return ctx.t("ap20.roll.one", raw=raw)
    key = "ap20.roll.high" if net > 0 else "ap20.roll.low"
    return ctx.t(key, a=rolls[0], b=rolls[1], raw=raw)


def damage_text(ctx: Context, roll: DamageRoll, target: str, before: int | None,
                after: int | None, shown: str | None = None) -> str:
    """The damage line; ``shown`` (a health band) stands for the HP numbers of a
    fighter whose numbers are the GMs'."""
    dice = "+".join(str(d) for d in roll.dice)
    body = str(roll.rolled) if not roll.dice else ctx.t(
        "ap20.damage.body_crit" if roll.crit else "ap20.damage.body", expr=roll.expression,
        dice=f"[{dice}]", mod=signed(roll.modifier) if roll.modifier else "",
        rolled=roll.rolled)
    kind_ = ctx.t("ap20.damage.type", type=label(ctx, "type", roll.type)) if roll.type else ""
    resist = ctx.t("ap20.damage.resist", value=roll.resistance, taken=roll.taken) \
        if roll.resistance and shown is None else ""
    if shown is not None:
        hp = ctx.t("ap20.damage.band", name=target, state=shown)
    elif before is not None:
        hp = ctx.t("ap20.damage.hp", name=target, before=before, after=after)
        if after == 0 and before > 0:
            hp += ctx.t("ap20.damage.down")
    else:
        hp = ctx.t("ap20.damage.no_hp", name=target, taken=roll.taken)
    return ctx.t("ap20.damage.line", body=body, type=kind_, resist=resist, hp=hp)


def attack_text(ctx: Context, attacker: Fighter, target: Fighter, args: AttackArgs,
                result: Attack, notes: list[str], hp: tuple[int | None, int | None],
                shown: str | None = None, revealed: bool = False,
                hide: tuple[bool, bool] = (False, False)) -> str:
    """The attack as read: ``hide`` (attacker, target) leaves out the numbers that are
    the GMs' — an unrevealed enemy's hit and action points, or its defence and
    reaction — keeping the die, the outcome and the players' own numbers."""
    hide_attacker, hide_target = hide
    check = result.check
    tags = []
    if args.kind != "melee":
        tags.append(label(ctx, "kind", args.kind))
    if args.action == "swift":
        tags.append(ctx.t("ap20.attack.opportunity"))
    counts = [ctx.t(key, n=n) for key, n in (("ap20.attack.adv", check.advantage),
                                             ("ap20.attack.dis", check.disadvantage)) if n]
    if counts:
        tags.append("·".join(counts))
    if check.sneak:
        tags.append(ctx.t("ap20.attack.sneak", crit=ap20.SNEAK_CRIT))
    elif check.sneak_cancelled:
        tags.append(ctx.t("ap20.attack.sneak_seen"))
    tags.extend(notes)
    defense = result.defense
    if defense.armor_only == "no_ap" and hide_target:
        note = ""  # the reason would tell the enemy's action points
    elif defense.armor_only:
        note = ctx.t("ap20.attack.armor_only", reason=label(ctx, "armor_only",
                                                            defense.armor_only))
    elif defense.lost:
        note = ctx.t("ap20.attack.lost", parts=ctx.t("ap20.sep").join(
            label(ctx, "part", p) for p in defense.lost))
    else:
        note = ""
    if check.fumble:
        outcome = ctx.t("ap20.attack.fumble")
    elif check.crit_by == "raw20":
        outcome = ctx.t("ap20.attack.crit_raw20")
    elif check.crit and not hide_target:
        outcome = ctx.t("ap20.attack.crit", threshold=check.crit_threshold)
    elif check.crit:  # the threshold would tell the target's toughness
        outcome = ctx.t("ap20.attack.crit_hidden")
    else:
        outcome = ctx.t("ap20.attack.hit" if check.hit else "ap20.attack.miss")
    roll = _roll_text(ctx, check.rolls, check.raw, check.advantage - check.disadvantage)
    mods = ctx.t("ap20.attack.bonus", sign="+" if check.mods > 0 else "−",
                 n=abs(check.mods)) if check.mods else ""
    total = roll if hide_attacker else ctx.t(
        "ap20.attack.sum", roll=roll, mods=mods, total=check.total,
        strength=ctx.t("ap20.attack.strength",
                       hit=check.hit_level - (ap20.SNEAK_HIT if check.sneak else 0),
                       pen=check.pen) + (ctx.t("ap20.attack.sneak_hit", value=ap20.SNEAK_HIT)
                                         if check.sneak else ""))
    against = "" if hide_attacker or hide_target else ctx.t(
        "ap20.attack.against", cmp=comparison(check.hit, check.total, check.defense),
        defense=check.defense)
    lines = [ctx.t(
        "ap20.attack.line", attacker=attacker.name, target=target.name,
        tags=ctx.t("ap20.attack.tags", tags=ctx.t("ap20.attack.tag_sep").join(tags))
        if tags else "", sum=total, against=against, defense_note=note, outcome=outcome)]
    if result.damage is not None:
        lines.append(damage_text(ctx, result.damage, target.name, *hp, shown=shown))
    spent = [] if hide_attacker else [ctx.t(
        "ap20.attack.ap", name=attacker.name, before=result.spend.ap_before,
        after=result.spend.ap_after)]
    if result.defended:
        spent.append(ctx.t("ap20.attack.reaction_hidden", name=target.name) if hide_target
                     else ctx.t("ap20.attack.reaction", name=target.name,
                                before=result.reaction_ap_before,
                                after=result.reaction_ap_after))
    if spent:
        lines.append(ctx.t("ap20.attack.ap_sep").join(spent))
    if revealed:
        lines.append(ctx.t("ap20.attack.revealed", name=attacker.name))
    return "\n".join(lines)


@command("atk", "attack", "攻擊", "攻击")
async def atk(ctx: Context) -> list[Outgoing]:
    args = parse_attack(ctx, ctx.args)
    combat = await running(ctx)
    attacker = await actor(ctx, combat, args.by)
    target = find(combat, args.target)
    if target.name == attacker.name:
        raise CommandError("ap20.error.self_attack", name=target.name)
    for word, used in (("sneak", args.sneak), ("hidden", args.hidden)):
        if used:  # decision 15: a sneak attack by word is the GM's ruling; hiding, the GM's
            try:
                require_gm_if_any(ctx)
            except CommandError as refused:
                raise CommandError(f"ap20.error.gm_{word}") from refused
    await require_able(ctx, attacker)
    if await life_of(ctx, target) is Life.DEAD:
        raise CommandError("ap20.error.target_dead", name=target.name)
    ap20.check_turn(combat, attacker.name, args.action)
    mine, theirs = await numbers(ctx, attacker), await numbers(ctx, target)
    tactics = AttackTactics()
    notes: list[str] = []
    if systems.layers(ctx.channel.system):
        roster = await roster_hook(ctx)
        assert roster is not None
        tactics, notes = await layers.attack_tactics(
            ctx, layers.AttackQuery(attacker.name, target.name, args.kind, roster))
    hp = theirs.get("hp")
    spec = ap20.AttackSpec(
        attacker_ap=attacker.ap, defender_ap=target.ap, hit=mine.get("hit", 0),
        pen=mine.get("pen", 0), mods=args.mods, crit_strength=mine.get("crit", 0),
        toughness=theirs.get("toughness", 0),
        defender_parts={p: theirs.get(p, 0) for p in DEFENSE_PARTS},
        incapacitated=target.has("incapacitated") or (hp is not None and hp <= 0),
        lost=tactics.lost_defense, undefendable=tactics.undefendable, nodef=args.nodef,
        layers=(*args.layers, *tactics.layers),
        sneak=args.sneak or tactics.sneak or attacker.has("hidden") or attacker.has("invisible"),
        seen=target.has("blindsight") or target.has("truesight"),
        damage=args.damage, damage_type=args.damage_type,
        resistances=await resistances(ctx, target), action=args.action)
    with points_kept(ctx, attacker):
        result = ap20.resolve_attack(ctx.dice, spec)
    combat = ap20.update(combat, attacker.name, ap=result.spend.ap_after)
    revealed = result.check.sneak and attacker.has("hidden")
    if revealed:
        combat = ap20.update(combat, attacker.name,
                             flags=ap20.after_attack(combat.get(attacker.name)).flags)
    combat = ap20.update(combat, target.name, ap=result.reaction_ap_after)
    before = after = None
    if result.damage is not None:
        combat, before, after = await write_hp(ctx, combat.get(target.name), combat,
                                               result.damage.taken)
    save(ctx, combat)
    text = attack_text(ctx, attacker, target, args, result, notes, (before, after),
                       revealed=revealed)
    data = attack_data(args, attacker, target, result, tactics.facts, before, after)
    target_now = combat.get(target.name)
    hide = (numbers_hidden(ctx, attacker), numbers_hidden(ctx, target_now))
    shown = await band_of(ctx, target_now) if hide[1] and result.damage is not None else None
    public = attack_text(ctx, attacker, target, args, result, notes, (before, after),
                         shown=shown, revealed=revealed, hide=hide)
    if args.hidden:
        return hidden_attack(ctx, attacker, target_now, public, text, data)
    if not any(hide):
        return [ctx.reply(text, data)]
    return for_gms(ctx, public, public_data(data, hide), text, data)


def public_data(data: dict[str, Any], hide: tuple[bool, bool]) -> dict[str, Any]:
    """An attack's data without the numbers ``attack_text`` leaves out for ``hide``: a
    hidden target's defence, reaction points, HP, toughness (the crit threshold tells
    it) and resistance (what was taken tells it)."""
    hide_attacker, hide_target = hide
    drop = {"defense", "reaction", "hp"} if hide_target else set()
    if hide_attacker:
        drop |= {"check", "spend", "defense"}
    public = {k: v for k, v in data.items() if k not in drop}
    if hide_target:
        if "check" in public:
            public["check"] = {k: v for k, v in public["check"].items()
                               if k != "crit_threshold"}
        if public["damage"] is not None:
            public["damage"] = public_damage(public["damage"])
    return public


def public_damage(damage: dict[str, Any]) -> dict[str, Any]:
    """Damage data as the channel may see it on a hidden target: what was rolled, not
    what its resistance left."""
    return {k: v for k, v in damage.items() if k not in ("resistance", "taken")}


def hidden_attack(ctx: Context, attacker: Fighter, target: Fighter, public: str,
                  text: str, data: dict[str, Any]) -> list[Outgoing]:
    """A GM's hidden attack (`hidden`): the channel learns that an attack was made, the
    GMs its result; a player's fighter hit by it tells its player privately what befell
    them, without the numbers that are the GMs'."""
    outs = deliver(ctx, ctx.user, attacker.name, text, data, hidden=True,
                   kind="hidden_attack", attack=True)
    if target.owner is None or target.owner == ctx.user or ctx.incoming.is_private:
        return outs
    return [*outs, ctx.private(target.owner, ctx.t("ap20.hidden_attack.target", text=public),
                               {"kind": "ap20.hidden_attack", "target": target.name})]


def attack_data(args: AttackArgs, attacker: Fighter, target: Fighter, result: Attack,
                facts: Any, before: int | None, after: int | None) -> dict[str, Any]:
    return {
        "kind": "ap20.attack", "attacker": attacker.name, "target": target.name,
        "attack_kind": args.kind, "action": args.action, "defended": result.defended,
        "spend": {"ap_before": result.spend.ap_before, "ap_after": result.spend.ap_after},
        "reaction": {"before": result.reaction_ap_before, "after": result.reaction_ap_after},
        "defense": {"total": result.defense.total, "counted": result.defense.counted,
                    "armor_only": result.defense.armor_only,
                    "lost": list(result.defense.lost)},
        "check": {"rolls": list(result.check.rolls), "raw": result.check.raw,
                  "advantage": result.check.advantage,
                  "disadvantage": result.check.disadvantage,
                  "layers": [[x.amount, x.reason] for x in result.check.layers],
                  "hit_level": result.check.hit_level, "pen": result.check.pen,
                  "mods": result.check.mods, "total": result.check.total,
                  "hit": result.check.hit, "crit": result.check.crit,
                  "crit_by": result.check.crit_by,
                  "crit_threshold": result.check.crit_threshold,
                  "sneak": result.check.sneak, "fumble": result.check.fumble},
        "tactics": dict(facts),
        "damage": None if result.damage is None else {
            "dice": list(result.damage.dice), "crit": result.damage.crit,
            "rolled": result.damage.rolled, "type": result.damage.type,
            "resistance": result.damage.resistance, "taken": result.damage.taken},
        "hp": {"before": before, "after": after}}


@command("dmg", "damage", "傷害", "伤害")
async def dmg(ctx: Context) -> list[Outgoing]:
    """`.dmg <target> <dice|N> [type] [crit]` — damage without a check (a failed save, a
    trap): AP-9 type and resistance, AP-5's crit doubles the dice (GM). In a channel
    without GMs a player's fighter takes it only from its player; a GM-run one from
    anyone (as plurk's `.dmg`)."""
    require_gm_if_any(ctx)
    tokens = ctx.args.split()
    if len(tokens) < 2:
        raise CommandError("ap20.error.dmg_usage")
    combat = await running(ctx)
    target = find(combat, tokens[0])
    require_speaker(ctx, target.name, target.owner)
    amount, crit, kind_ = tokens[1], False, None
    for token in tokens[2:]:
        if is_word(token, "crit", "重擊", "重击"):
            crit = True
        elif (found := ap20.damage_type(token)) is not None:
            kind_ = found
        else:
            raise CommandError("ap20.error.dmg_word", word=token[:ECHO], types=type_words(ctx))
    resist = await resistances(ctx, target)
    if amount.isdigit():
        roll = ap20.fixed_damage(min(int(amount), 100_000), kind=kind_, resistances=resist)
    elif _DICE.match(amount):
        roll = ap20.roll_damage(ctx.dice, amount, kind=kind_, crit=crit, resistances=resist)
    else:
        raise CommandError("ap20.error.dmg_usage")
    if await life_of(ctx, target) is Life.DEAD:
        raise CommandError("ap20.error.target_dead", name=target.name)
    combat, before, after = await write_hp(ctx, target, combat, roll.taken)
    save(ctx, combat)
    text = damage_text(ctx, roll, target.name, before, after)
    data = {"kind": "ap20.damage", "target": target.name, "dice": list(roll.dice),
            "crit": roll.crit, "rolled": roll.rolled, "type": roll.type,
            "resistance": roll.resistance, "taken": roll.taken,
            "hp": {"before": before, "after": after}}
    target_now = combat.get(target.name)
    if not numbers_hidden(ctx, target_now):
        return [ctx.reply(text, data)]
    public = damage_text(ctx, roll, target.name, before, after,
                         shown=await band_of(ctx, target_now))
    return for_gms(ctx, public, {**public_damage(data), "hp": None}, text, data)
