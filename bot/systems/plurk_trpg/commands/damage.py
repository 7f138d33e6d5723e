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
``bot.systems.plurk_trpg.fatal.fatal_event`` offers intervention; if the investigator
intervenes, the hook below gives the battle its HP back (``cancel_damage``).
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, replace
from typing import Any

from bot.context import Context
from bot.errors import CommandError
from bot.kits.args import is_word
from bot.kits.hidden import deliver
from bot.kits.references import require_owner_or_gm
from bot.messages import Outgoing
from bot.names import fold
from bot.permissions import require_gm_if_any
from bot.systems.plurk_trpg.battle_args import current_actor, find_name, number
from bot.systems.plurk_trpg.battle_state import (
    hp_waiting,
    load_battle,
    running_battle,
    save_battle,
    sheet_durability,
    sheet_for,
    sync_sheet_hp,
    write_sheet_durability,
    write_sheet_hp,
)
from bot.systems.plurk_trpg.battle_text import (
    battle_data,
    enemy_band,
    hp_text,
    kept_from_channel,
    readable,
    shows_numbers,
    spend_text,
    spent_replies,
    turn_event_text,
)
from bot.systems.plurk_trpg.characters import stat_modifier
from bot.systems.plurk_trpg.check_records import last_checks, remember, store_record
from bot.systems.plurk_trpg.commands.battle_turns import pass_fallen
from bot.systems.plurk_trpg.documents import CheckRecord, FatalEvent, StoredBattle
from bot.systems.plurk_trpg.fatal import Outcome, fatal_event, on_fatal_resolved
from bot.systems.plurk_trpg.system import HP
from bot.systems.plurk_trpg.table import command, ping_next_actor
from bot.unit_of_work import Sheet
from rules.errors import RuleError
from rules.kits.encounter import require_active
from rules.systems import plurk_trpg as plurk
from rules.systems.plurk_trpg import Battle, Combatant, DamageResult, KnockOutResult
from rules.systems.plurk_trpg import damage as plurk_damage

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
    """What an attack declares besides target and damage. ``skill`` / ``hit_bonus``
    / ``threshold``: the hit check `.atk` rolls first (`武器+2 >=13`, `hit=+3`)."""

    knock_out: bool = False
    impale: bool = False
    parry: bool = True
    penetration: int = 0
    kind: str | None = None
    damage_type: str = "physical"
    attacker: str | None = None
    skill: str | None = None
    hit_bonus: int | None = None
    threshold: int | None = None
    reach: int = plurk_damage.MELEE_REACH

    @property
    def rolls_hit(self) -> bool:
        return self.skill is not None or self.hit_bonus is not None


_SKILL = re.compile(r"^(?P<stat>[^\d+\-=<>≥]+?)(?P<bonus>[+-]\d{1,3})?$")
_THRESHOLD = re.compile(r"^(?:>=|≥|>)(?P<n>\d{1,3})$")
_SIGNED = re.compile(r"^[+-]?\d{1,3}$")
_SKILL_KINDS = {"普通攻擊": "unarmed", "擒拿": "grapple", "武術": "martial", "弓術": "bow",
                "槍炮": "gun"}
"""The attack kind a combat skill implies (武器 / 投擲 depend on the weapon: kind=)."""


def combat_skill(word: str) -> str | None:
    """The canonical combat skill a word names (`武器`, `weapon`, `擒拿` …), else None."""
    stat = plurk.resolve_stat(word)
    return stat.name if stat is not None and plurk.is_combat_skill(stat.name) else None


def attack_kind(text: str) -> str:
    """`kind=` value → an attack kind id (rules' ids, combat skills, common words)."""
    return _KIND_WORDS.get(fold(text)) or plurk.attack_kind(text)


def parse_hit_options(tokens: list[str], usage: str, *, hit: bool = False) -> HitOptions:
    """Attack options; with ``hit`` (`.atk`) also the hit check's skill, bonus and
    threshold and a melee reach (`reach=2`)."""
    opts = HitOptions()
    for token in tokens:
        key, eq, value = token.partition("=")
        threshold = _THRESHOLD.match(token)
        skill = _SKILL.match(token)
        if hit and threshold is not None and opts.threshold is None:
            opts.threshold = int(threshold["n"])
        elif hit and not eq and skill is not None and opts.skill is None \
                and combat_skill(skill["stat"]) is not None:
            opts.skill = combat_skill(skill["stat"])
            opts.hit_bonus = int(skill["bonus"] or 0)
        elif hit and eq and is_word(key, "hit", "命中") and _SIGNED.match(value) \
                and opts.hit_bonus is None:
            opts.hit_bonus = int(value)
        elif hit and eq and is_word(key, "reach", "觸及", "距離"):
            opts.reach = number(value, usage=usage)
        elif not eq:
            if is_word(token, "ko", "擊昏", "knockout"):
                opts.knock_out = True
            elif is_word(token, "impale", "貫穿", "穿刺"):
                opts.impale = True
            elif is_word(token, "noparry", "招架失敗", "不招架"):
                opts.parry = False
            elif hit:  # `.atk`: name what could not be read, and the order of things
                raise CommandError("plurk.error.battle.atk_option", option=token[:30])
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
    if opts.threshold is not None and not opts.rolls_hit:
        raise CommandError("plurk.error.battle.atk_threshold")  # for which check?
    if opts.kind is None and opts.skill in _SKILL_KINDS:
        opts.kind = _SKILL_KINDS[opts.skill]
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


def knock_out_text(ctx: Context, ko: KnockOutResult, victim: Combatant, *,
                   numbers: bool = True) -> str:
    """The knock-out (PL-17); without ``numbers`` (an enemy's, in the channel) the
    體質 check is named, not its roll, nor the HP the condition was judged on."""
    if ko.already:
        return ctx.t("plurk.battle.ko.already", target=victim.name, turns=victim.unconscious,
                     damage=ko.damage)
    if not ko.condition_met:
        key = "plurk.battle.ko.no_condition" if numbers else "plurk.battle.ko.no_condition_hidden"
        return ctx.t(key, raw=ko.raw_damage, hp=ko.hp, damage=ko.damage)
    check = ko.check
    assert check is not None
    detail = ctx.t("plurk.battle.ko.check", raw=check.raw, mod=f"{check.modifier:+d}",
                   value=check.value, threshold=check.threshold) if numbers \
        else ctx.t("plurk.battle.ko.check_hidden")
    if not ko.knocked_out:
        return ctx.t("plurk.battle.ko.resisted", check=detail, damage=ko.damage)
    return ctx.t("plurk.battle.ko.knocked_out", check=detail,
                 dice=", ".join(map(str, ko.rounds_rolls)), rounds=ko.rounds,
                 damage=ko.damage)


def hit_text(ctx: Context, hit: DamageResult, band: str | None = None, *,
             held: bool = False) -> str:
    """Parry, armor and HP of one hit; with ``band`` (an enemy at a table with a GM)
    the channel's version: that it was hit and its band, no damage taken, armor or HP. ``held``:
    an investigator's loss a fatal event holds (:func:`held_by_fatal`), no HP change."""
    parts = []
    if hit.parried:
        key = "plurk.battle.dmg.parry_broken" if hit.weapon_broken else "plurk.battle.dmg.parry"
        parts.append(ctx.t(key, absorbed=hit.absorbed, before=hit.durability_before,
                           after=hit.durability_after))
    if hit.parry_blocked is not None:
        parts.append(ctx.t(f"plurk.battle.dmg.parry_blocked.{hit.parry_blocked}",
                           target=hit.target, attacker=hit.attacker))
    if hit.damage_type != "physical":
        parts.append(ctx.t("plurk.battle.dmg.armorless",
                           type=ctx.t(f"plurk.battle.damage_type.{hit.damage_type}")))
    elif (hit.armor or hit.penetration) and band is None:
        parts.append(ctx.t("plurk.battle.dmg.armor", armor=hit.armor, pen=hit.penetration,
                           effective=hit.effective_armor))
    if band is not None:
        parts.append(ctx.t("plurk.battle.dmg.taken_band", target=hit.target, band=band))
    elif held:  # PL-12: the fatal event's line says what would happen, not yet done
        parts.append(ctx.t("plurk.battle.dmg.taken_fatal", target=hit.target, taken=hit.taken))
    else:
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


async def settle_hp(ctx: Context, stored: StoredBattle, battle: Battle,
                    hit: DamageResult) -> list[str]:
    """Where the HP loss goes: an investigator's sheet, or a fatal event (PL-12)
    that waits for intervention; an enemy's stays in the battle.

    One investigator has at most one pending HP fatal event: a hit on someone
    already at 0 HP, or whose earlier fatal event is still pending, is reported
    (the GM rules on it) instead of opening a second event for the same fall."""
    victim = battle.get(hit.target)
    character = await sheet_for(ctx, stored, victim)
    if character is None:  # an enemy or ally (or a deleted sheet): the battle's HP only
        if hit.killed:
            return [ctx.t("plurk.battle.dmg.killed", name=victim.name)]
        return [ctx.t("plurk.battle.dmg.down", name=victim.name)] if hit.hp_after <= 0 < hit.taken \
            else []
    if hit.taken > 0 and (hit.fatal or hit.hp_before <= 0):
        pending = await hp_waiting(ctx, character)
        if pending:
            return [ctx.t("plurk.battle.dmg.fatal_pending", name=victim.name, id=pending[0].id,
                          taken=hit.taken)]
        if hit.hp_before <= 0:
            return [ctx.t("plurk.battle.dmg.already_down", name=victim.name, taken=hit.taken)]
        details = {"serial": stored.serial, "combatant": victim.name, "hit": asdict(hit)}
        return await fatal_event(ctx, victim.owner or character.owner, character.name, HP,
                                 hit.taken, source=FATAL_SOURCE, current=hit.hp_before,
                                 details=details, character_id=character.id)
    await write_sheet_hp(ctx, stored, victim, hit.hp_after)
    return []


@on_fatal_resolved(FATAL_SOURCE)
async def fatal_resolved(ctx: Context, record: FatalEvent, outcome: Outcome) -> list[str]:
    """PL-12 in battle: an intervention cancels the hit in the battle too; an
    accepted loss is already in the battle (the sheet just caught up) and the
    investigator dies (issue 24: the fatal event was not averted)."""
    stored, battle = await load_battle(ctx)
    details = record.details
    if battle is None or stored.serial != details.get("serial"):
        return []
    if battle.find(details.get("combatant", "")) is None:
        return []
    if outcome == "accepted":
        return await fatal_accepted(ctx, record, outcome)
    hit = DamageResult(**details["hit"])
    battle = plurk.cancel_damage(battle, hit)
    save_battle(ctx, stored, battle)
    restored = battle.get(hit.target)
    return [ctx.t("plurk.battle.dmg.restored", name=restored.name, hp=hp_text(ctx, restored.hp))]


@on_fatal_resolved("hp")
async def fatal_accepted(ctx: Context, record: FatalEvent, outcome: Outcome) -> list[str]:
    """An accepted HP fatal event (PL-12) of an investigator fighting now — a hit, or
    a `.hp` / `.st` loss — leaves it dead in the battle (issue 24)."""
    stored, battle = await load_battle(ctx)
    if outcome != "accepted" or battle is None:
        return []
    name = next((n for n, i in stored.sheets.items() if i == record.character_id), None)
    combatant = battle.find(name) if name is not None else None
    if combatant is None or combatant.dead:
        return []
    battle = plurk.update_combatant(await sync_sheet_hp(ctx, stored, battle), combatant.name,
                                    dead=True)
    save_battle(ctx, stored, battle)
    return [ctx.t("plurk.battle.died", name=combatant.name)]


def held_by_fatal(battle: Battle, hit: DamageResult) -> bool:
    """Does the hit bring an investigator to 0 — a loss PL-12 holds until `.accept`?"""
    return battle.get(hit.target).kind == "investigator" and hit.fatal and hit.taken > 0 \
        and hit.hp_before > 0


def damage_lines(ctx: Context, head: str, ko: KnockOutResult | None,
                 hit: DamageResult, battle: Battle) -> list[str]:
    lines = [head]
    if ko is not None:
        lines.append(knock_out_text(ctx, ko, battle.get(hit.target)))
    lines.append(hit_text(ctx, hit, held=held_by_fatal(battle, hit)))
    return lines


# --------------------------------------------------------------------------- commands


@command("parry", "招架")
@readable
async def parry(ctx: Context) -> list[Outgoing]:
    """PL-16: at the end of its action the current actor names the enemy it parries.

    The weapon's durability: typed (`.parry 狂信者 4`), else the sheet's (`武器耐久`
    / `耐久`, or a weapon entry `短刀耐久` — `.parry 狂信者 短刀` picks one), else
    the combatant's own (an enemy's `耐久=`). A parry that cannot apply — no weapon,
    a broken or stuck one, a monster's own attacks, after an attack this round — is
    refused and costs nothing."""
    tokens = ctx.args.split()
    if len(tokens) not in (1, 2):
        raise CommandError("plurk.error.battle.parry_usage")
    stored, battle = await running_battle(ctx)
    actor = current_actor(ctx, battle)
    enemy = find_name(battle, tokens[0])
    durability, key, source = None, None, "battle"
    weapon = tokens[1] if len(tokens) == 2 and not tokens[1].isdigit() else None
    if len(tokens) == 2 and weapon is None:
        durability, source = number(tokens[1], usage="plurk.error.battle.parry_usage"), "typed"
    else:
        character = await sheet_for(ctx, stored, actor)
        found = sheet_durability(character.stats, weapon) if character is not None else None
        if weapon is not None and found is None:
            raise CommandError("plurk.error.battle.parry_no_weapon_entry", name=actor.name,
                               weapon=weapon)
        if found is not None:
            (key, durability), source = found, "sheet"
    battle, event = plurk.declare_parry(battle, enemy, actor=actor.name, durability=durability,
                                        allow_monster=False)
    save_battle(ctx, stored, battle, weapons={actor.name: key} if key else None)
    me = battle.get(actor.name)
    text = ctx.t("plurk.battle.parry_declared", actor=actor.name, enemy=battle.get(enemy).name,
                 durability=hp_text(ctx, me.weapon_durability),
                 source=ctx.t(f"plurk.battle.parry_source.{source}", key=key or ""))
    return [ctx.reply(text + "\n" + spend_text(ctx, battle, event),
                      battle_data("parry", battle, bp=event))]


def is_dice(text: str) -> bool:
    """Does an argument read as a damage expression (`1d6+2`, `2D8`)?"""
    try:
        plurk.parse_dice(text)
    except RuleError:
        return False
    return True


def target_and_dice(battle: Battle, tokens: list[str]) -> tuple[str, str]:
    """`.atk 狂信者 1d6` — or swapped, `.atk 1d6 狂信者` (issue 12 item 11): the
    stored target name and the damage expression."""
    first, second = tokens[0], tokens[1]
    if is_dice(first) and not is_dice(second) and battle.find(first) is None:
        first, second = second, first
    return battle.get(find_name(battle, first)).name, second


async def linked_check(ctx: Context, stored: StoredBattle, actor: Combatant
                       ) -> tuple[CheckRecord | None, plurk.CheckResult | None]:
    """The hit check `.atk` uses when it rolls none: the actor's player's last check,
    if it is a public combat-skill check of this character not yet used by an attack
    and made during this battle (`.battle start` retires older ones). Hidden checks
    are never linked (the attack would publish them)."""
    if actor.owner is None or actor.kind != "investigator":
        return None, None
    record = (await last_checks(ctx)).get(actor.owner)
    if record is None or record.hidden or record.attack_used:
        return None, None
    result = record.check
    if not result.combat or result.mode != "roll":
        return None, None
    character = await sheet_for(ctx, stored, actor)
    if character is None or not record.is_of(actor.owner, character):
        return None, None
    return record, result


def roll_hit(ctx: Context, character: Sheet | None, opts: HitOptions) -> plurk.CheckResult:
    """The hit check `.atk` rolls (PL-2): d20 + the sheet's combat skill (an enemy:
    0) + bonus ≥ threshold (11 unless given)."""
    modifier = 0
    stat = opts.skill
    if opts.skill is not None and character is not None:
        stat, modifier = stat_modifier(character, opts.skill)
    return plurk.check(ctx.dice, modifier, bonus=opts.hit_bonus or 0,
                       threshold=opts.threshold or plurk.DEFAULT_THRESHOLD, stat=stat)


def hit_check_text(ctx: Context, result: plurk.CheckResult, linked: bool) -> str:
    mod = f"{result.modifier + result.bonus:+d}"
    key = "plurk.battle.hit.linked" if linked else "plurk.battle.hit.rolled"
    text = ctx.t(key, stat=result.stat or ctx.t("plurk.battle.hit.unnamed"), raw=result.raw,
                 mod=mod, value=result.value, threshold=result.threshold,
                 outcome=ctx.t("plurk.battle.hit.hit" if result.success
                               else "plurk.battle.hit.miss"))
    if result.crit:
        text += ctx.t("plurk.battle.hit.crit")
    elif result.fumble:
        text += ctx.t("plurk.battle.hit.fumble")
    return text


@command("atk", "attack", "攻擊", "攻击")
@readable
async def atk(ctx: Context) -> list[Outgoing]:
    """The current actor's attack (PL-16…18): the hit check first — rolled here
    (`武器+2 >=13`, `hit=+3`) or the check just made (`.ra 武器`), linked and used
    once — then, only on a hit, attack BP, damage roll, parry/armor, HP. A miss
    spends the attack BP and rolls no damage. Melee beyond reach on the field, a
    stuck weapon, an attack after a parry this round: refused before any die.
    `hidden` (issue 24): a GM-run attacker's attack is announced, its result sent to
    the GMs only (``bot.kits.hidden.deliver``)."""
    words = ctx.args.split()
    tokens = [t for t in words if not is_word(t, *HIDDEN_WORDS)]
    if len(tokens) < 2:
        raise CommandError("plurk.error.battle.atk_usage")
    stored, battle = await running_battle(ctx)
    actor = current_actor(ctx, battle)
    hidden = len(tokens) < len(words)
    if hidden and (actor.owner is not None or not ctx.is_gm):
        raise CommandError("plurk.error.battle.hidden_gm_only", name=actor.name)
    target, expr = target_and_dice(battle, tokens)
    if target == actor.name:  # as a parry against oneself is (PL-16)
        raise CommandError("plurk.error.battle.attack_self", name=actor.name)
    plurk.require_target(battle, target)  # the dead are no target: refused before any die
    opts = parse_hit_options(tokens[2:], "plurk.error.battle.atk_usage", hit=True)
    if opts.attacker is not None:
        raise CommandError("plurk.error.battle.atk_usage")
    opts.attacker = actor.name
    plurk.parse_dice(expr)
    # refuse before any die is rolled: BP and attack-or-parry, the weapon, the reach
    plurk.spend_bp(battle, "attack", actor=actor.name)
    plurk_damage.check_weapon_free(battle, actor.name, opts.kind)
    plurk_damage.check_reach(battle, actor.name, target, opts.kind, reach=opts.reach)
    plurk_damage.impale_on_hit(None, opts.kind, opts.impale)
    if opts.knock_out and not battle.get(target).human_like:
        raise RuleError("plurk.knockout_not_human", target=target)
    character = await sheet_for(ctx, stored, actor)
    record, hit_check = (None, None) if opts.rolls_hit else await linked_check(ctx, stored, actor)
    if hit_check is not None and opts.impale:
        plurk_damage.impale_on_hit(hit_check, opts.kind, opts.impale)
    if opts.rolls_hit:
        hit_check = roll_hit(ctx, character, opts)
    lines: list[str] = []
    if hit_check is not None:
        lines.append(ctx.t("plurk.battle.dmg.attack", attacker=actor.name, target=target,
                           roll=hit_check_text(ctx, hit_check, linked=record is not None)))
        await keep_hit_check(ctx, actor, character, record, hit_check)
    if hit_check is not None and not hit_check.success:
        battle, spent = plurk.spend_bp(battle, "attack", actor=actor.name)
        save_battle(ctx, stored, battle)
        data = battle_data("attack", battle, check=hit_check, roll=None, hit=None,
                           knock_out=None, bp=spent)
        if hidden:
            lines.append(spend_text(ctx, battle, spent, numbers=True))
            return hidden_attack(ctx, battle, actor.name, lines, data, spent)
        return spent_replies(ctx, battle, lines, spent, data)
    impale = plurk_damage.impale_on_hit(hit_check, opts.kind, opts.impale)
    rolled = plurk.roll_damage(ctx.dice, expr, impale=impale, kind=opts.kind)
    battle, hit, ko = strike(ctx, battle, target, rolled.total, opts)
    if impale:
        battle = plurk_damage.lodge_weapon(battle, actor.name, target, opts.kind)
    battle, spent = plurk.spend_bp(battle, "attack", actor=actor.name)
    if hit_check is None:
        lines.append(ctx.t("plurk.battle.dmg.attack", attacker=actor.name, target=target,
                           roll=roll_text(ctx, rolled)))
    else:
        lines.append(roll_text(ctx, rolled))
    at = len(lines) + (ko is not None)  # where the hit's HP line goes
    lines.extend(damage_lines(ctx, "", ko, hit, battle)[1:])
    if impale and opts.kind in plurk_damage.LODGING_KINDS:
        lines.append(ctx.t("plurk.battle.dmg.lodged", attacker=actor.name, target=target))
    settled = await settle_hp(ctx, stored, battle, hit)
    lines.extend(settled)
    await settle_durability(ctx, stored, battle, hit)
    lines.append(spend_text(ctx, battle, spent, numbers=True))  # the channel's: hit_replies
    save_battle(ctx, stored, battle)
    data = battle_data("attack", battle, check=hit_check, roll=rolled, hit=hit, knock_out=ko,
                       bp=spent)
    if hidden:
        told = told_target(ctx, battle, actor.name, hit, settled)
        return [*hidden_attack(ctx, battle, actor.name, lines, data, spent), *told]
    return hit_replies(ctx, battle, hit, lines, at, data, ko, spent)


HIDDEN_WORDS = ("hidden", "暗骰", "暗中")
"""`.atk … hidden`: a GM rolls an enemy's attack out of the channel's sight."""


def hidden_attack(ctx: Context, battle: Battle, attacker: str, lines: list[str],
                  data: dict[str, Any], spent: plurk.BpEvent) -> list[Outgoing]:
    """The GMs read the attack; the channel learns that ``attacker`` attacked in secret
    and, when the attack ended the turn, whose turn it is now."""
    outs = deliver(ctx, ctx.user, attacker, "\n".join(lines), data, hidden=True,
                   kind="plurk.hidden_attack", attack=True)
    if spent.turn is None or not outs or outs[0].to != "channel":
        return outs
    turn = turn_event_text(ctx, battle, spent.turn)
    announce = replace(outs[0], text=f"{outs[0].text}\n{turn}")
    return [ping_next_actor(ctx, announce, data), *outs[1:]]


def told_target(ctx: Context, battle: Battle, attacker: str, hit: DamageResult,
                settled: list[str]) -> list[Outgoing]:
    """A hidden attack that hit an investigator: their player learns it privately —
    the damage taken, their HP, and a fatal event waiting for `.accept` / `.intervene`
    (``settled``) — never the attacker's dice or hit check."""
    victim = battle.get(hit.target)
    if victim.owner is None or victim.owner == ctx.user or ctx.incoming.is_private:
        return []
    text = "\n".join([ctx.t("plurk.battle.dmg.hidden_hit", attacker=attacker,
                             target=victim.name),
                             hit_text(ctx, hit, held=held_by_fatal(battle, hit)), *settled])
    return [ctx.private(victim.owner, text, {
        "kind": "plurk.hidden_hit", "attacker": attacker, "target": victim.name,
        "taken": hit.taken, "before": hit.hp_before, "after": hit.hp_after})]


def hit_replies(ctx: Context, battle: Battle, hit: DamageResult, lines: list[str], at: int,
                data: dict[str, Any], ko: KnockOutResult | None = None,
                spent: plurk.BpEvent | None = None) -> list[Outgoing]:
    """The reply of a hit; on an enemy at a table with a GM (issue 24) the channel's
    line ``at`` says that it was hit and its band — not the damage taken, which beside
    the damage rolled would give its armor away — or nothing when the next line says it
    fell; a knock-out (line ``at - 1``) names its 體質 check without the roll. The last
    line of an attack is the attacker's BP ``spent``, an enemy's BP in the GMs' copy
    only. The GMs get the numbers privately."""
    victim = battle.get(hit.target)
    if shows_numbers(ctx, victim):
        if spent is not None:
            return spent_replies(ctx, battle, lines[:-1], spent, data)
        return [ctx.reply("\n".join(lines), data)]
    public = list(lines)
    if spent is not None:
        public[-1] = spend_text(ctx, battle, spent)
    if ko is not None:
        public[at - 1] = knock_out_text(ctx, ko, victim, numbers=False)
    fell = hit.killed or hit.hp_after <= 0 < hit.taken  # the next line says so (once)
    public[at:at + 1] = [] if fell else [hit_text(ctx, hit, enemy_band(ctx, victim))]
    return kept_from_channel(ctx, "\n".join(public), "\n".join(lines), data)


async def keep_hit_check(ctx: Context, actor: Combatant, character: Sheet | None,
                         record: CheckRecord | None, result: plurk.CheckResult) -> None:
    """A hit check serves one attack: a linked one is marked used; one rolled here
    becomes the player's last check (a fate check may follow a crit, PL-4), used."""
    if record is not None and actor.owner is not None:
        await store_record(ctx, actor.owner, replace(record, attack_used=True))
    elif character is not None and actor.owner is not None:
        await remember(ctx, actor.owner, character.name, result, character_id=character.id)
        last = await last_checks(ctx)
        await store_record(ctx, actor.owner, replace(last[actor.owner], attack_used=True))


async def settle_durability(ctx: Context, stored: StoredBattle, battle: Battle,
                            hit: DamageResult) -> None:
    """A parry used the weapon (PL-16): an investigator's sheet keeps the durability."""
    if hit.parried:
        await write_sheet_durability(ctx, stored, battle.get(hit.target), hit.durability_after)


@command("dmg", "damage", "傷害", "伤害")
@readable
async def dmg(ctx: Context) -> list[Outgoing]:
    """GM: raw damage to a combatant, outside the BP economy (no roll, no BP); at a
    table without GMs anyone's to a GM-run combatant, a player's only to their own."""
    require_gm_if_any(ctx)
    tokens = ctx.args.split()
    if len(tokens) < 2:
        raise CommandError("plurk.error.battle.dmg_usage")
    raw = number(tokens[1], usage="plurk.error.battle.dmg_usage")
    opts = parse_hit_options(tokens[2:], "plurk.error.battle.dmg_usage")
    if opts.impale:
        raise CommandError("plurk.error.battle.dmg_impale")
    stored, battle = await running_battle(ctx)
    target = battle.get(find_name(battle, tokens[0])).name
    # an investigator's HP, outside any roll, is their player's or a GM's (as `.hp -N`)
    require_owner_or_gm(ctx, battle.get(target).owner)
    if opts.attacker is not None:
        opts.attacker = battle.get(find_name(battle, opts.attacker)).name
        source = battle.get(opts.attacker)
        require_active(source.name, source.life)  # the fallen strike nobody (issue 24)
    battle, hit, ko = strike(ctx, battle, target, raw, opts)
    head = ctx.t("plurk.battle.dmg.raw", target=target, raw=raw,
                 attacker=opts.attacker or ctx.t("plurk.battle.dmg.no_attacker"))
    lines = damage_lines(ctx, head, ko, hit, battle)
    at = len(lines) - 1
    lines.extend(await settle_hp(ctx, stored, battle, hit))
    await settle_durability(ctx, stored, battle, hit)
    save_battle(ctx, stored, battle)
    turn, passed = await pass_fallen(ctx)  # the actor fell on its own turn: it passes
    outs = hit_replies(ctx, battle, hit, [*lines, *turn], at,
                       battle_data("damage", battle, hit=hit, knock_out=ko), ko)
    return [ping_next_actor(ctx, out, passed) if out.to == "channel" else out
            for out in outs]

