"""`ace` fights: enemies (`.enemy`), initiative and rounds (`.ri`, `.init`, `.next` — the
SealDice / Dice! habit, on the turn kit), stances and cover (`.stance`, `.cover`,
AE-10) and conditions (`.cond`, AE-8).

Every rule — initiative, order, the ambush, what a stance does and how long — is in
``rules.systems.ace``; handlers parse, decide permissions and render.
"""

from __future__ import annotations

import re
from dataclasses import asdict, replace
from typing import Any

from bot.context import Context
from bot.errors import CommandError
from bot.kits.args import is_word
from bot.kits.references import may_act_for
from bot.messages import Outgoing
from bot.names import canonical
from bot.permissions import require_gm_if_any
from bot.systems.ace.args import MAX_VALUE, check_name, echo, join_spaced, option
from bot.systems.ace.documents import ENEMIES, FIGHT, OPTIONS, Enemy
from bot.systems.ace.sheet import hp_of, missing_attributes
from bot.systems.ace.state import (
    Someone,
    actor_or_speaker,
    down_names,
    find_enemy,
    pop_by,
    someone,
    speaker,
)
from bot.systems.ace.table import command
from bot.systems.ace.text import data, joined, readable, signed, word
from bot.systems.ace.words import CLEAR, CONDITIONS, COVERS, STANCES, any_of, lookup
from rules.systems import ace
from rules.systems.ace import fight as rules_fight
from rules.systems.ace import vocabulary as v
from rules.systems.ace.fight import Fight

MAX_ENEMIES = 40
ADD = ("add", "new", "新增", "加入")
DEL = ("del", "rm", "remove", "刪除", "删除", "移除")
START = ("start", "開始", "开始")
END = ("end", "clr", "clear", "結束", "结束", "清除")


# --------------------------------------------------------------------------- enemies


def glue_pairs(tokens: list[str]) -> list[str]:
    """``STR 6`` → ``STR6``, as `.st` reads it: a name followed by a lone number."""
    out: list[str] = []
    for token in tokens:
        if out and re.fullmatch(r"-?\d{1,6}", token) and option(out[-1]) is None:
            out[-1] += token
        else:
            out.append(token)
    return out


def parse_enemy(text: str) -> tuple[str, dict[str, int], int | None]:
    """``狼人 力量8 敏捷6 體質7 精神力3 防具2 hp=60 火抗5`` → (name, stats, hp)."""
    tokens = join_spaced(text).split()
    if not tokens:
        raise CommandError("ace.error.enemy_usage")
    name = check_name(tokens[0], "ace.error.enemy_usage")
    if option(name) is not None:
        raise CommandError("ace.error.enemy_usage")
    stats: dict[str, int] = {}
    hp = None
    for token in glue_pairs(tokens[1:]):
        parsed = option(token)
        if parsed is None or parsed[1] != "set" or abs(parsed[2]) > MAX_VALUE:
            raise CommandError("ace.error.enemy_option", option=echo(token))
        key = canonical(parsed[0], ace.SYSTEM, stats)
        if key == v.HP:
            if parsed[2] < 1:
                raise CommandError("ace.error.enemy_option", option=echo(token))
            hp = parsed[2]
        else:
            stats[key] = parsed[2]
    missing = missing_attributes(stats)
    if missing:
        raise CommandError("ace.error.attributes_missing", who=name, names=list(missing))
    return name, stats, hp


def enemy_line(ctx: Context, name: str, record: Enemy) -> str:
    return ctx.t("ace.enemy.item", name=name, hp=record.hp, max=ace.hp_max(record.stats[v.CON]))


@command("enemy", "敵人", "敌人")
@readable
async def enemy(ctx: Context) -> list[Outgoing]:
    """`.enemy add 狼人 力量8 敏捷6 體質7 精神力3 [防具2 基本步法1 hp=60 火抗5 …]`,
    `.enemy del 狼人`, `.enemy 狼人` (its numbers), `.enemy` (every one)."""
    tokens = ctx.args.split()
    stored = await ctx.uow.load(ENEMIES)
    enemies = stored.enemies
    if not tokens:
        items = [enemy_line(ctx, n, e) for n, e in enemies.items()]
        return [ctx.reply(ctx.t("ace.enemy.list", items=joined(ctx, items) or
                                ctx.t("ace.nobody")), data("enemies", enemies=enemies))]
    verb = tokens[0]
    name: str | None  # as typed (add), else as found among the enemies
    if is_word(verb, *ADD):
        require_gm_if_any(ctx)
        name, stats, hp = parse_enemy(" ".join(tokens[1:]))
        if find_enemy(enemies, name) is not None:
            raise CommandError("ace.error.enemy_exists", name=name)
        if len(enemies) >= MAX_ENEMIES:
            raise CommandError("ace.error.enemy_too_many", limit=MAX_ENEMIES)
        enemies[name] = Enemy(stats, hp if hp is not None else hp_of(stats))
        ctx.uow.save(ENEMIES, stored)
        text = ctx.t("ace.enemy.added", line=enemy_line(ctx, name, enemies[name]),
                     stats=stats_text(stats))
        if ace.unconscious(stats[v.SPI]):  # AE-1: a GM should know why its turns pass
            text += ctx.t("ace.enemy.unconscious")
        return [ctx.reply(text, data("enemy", name=name, **asdict(enemies[name])))]
    if is_word(verb, *DEL):
        require_gm_if_any(ctx)
        if len(tokens) != 2:
            raise CommandError("ace.error.enemy_usage")
        name = find_enemy(enemies, tokens[1])
        if name is None:
            raise CommandError("ace.error.unknown_target", name=echo(tokens[1]))
        del enemies[name]
        ctx.uow.save(ENEMIES, stored)
        fight = await ctx.uow.load(FIGHT)
        if fight.find(name) is not None:
            ctx.uow.save(FIGHT, rules_fight.remove(fight, name))
        return [ctx.reply(ctx.t("ace.enemy.removed", name=name), data("enemy", removed=name))]
    if len(tokens) != 1:
        raise CommandError("ace.error.enemy_usage")
    name = find_enemy(enemies, tokens[0])
    if name is None:
        raise CommandError("ace.error.unknown_target", name=echo(tokens[0]))
    return [ctx.reply(ctx.t("ace.enemy.show", line=enemy_line(ctx, name, enemies[name]),
                            stats=stats_text(enemies[name].stats)),
                      data("enemy", name=name, **asdict(enemies[name])))]


def stats_text(stats: dict[str, int]) -> str:
    return " ".join(f"{k}:{x}" for k, x in stats.items())


# --------------------------------------------------------------------------- initiative


def member_text(ctx: Context, member: rules_fight.Member, current: bool = False,
                round: int = 1) -> str:
    """``艾莉絲 14`` (``（偷襲）`` in the first round of an ambush)."""
    key = "ace.init.member_ambush" if member.ambush and round <= 1 else "ace.init.member"
    text = ctx.t(key, name=member.name, initiative=member.initiative)
    return ("▶" if current else "") + text


def postures_text(ctx: Context, fight: Fight) -> str:
    """Stances, cover, conditions and holds worth knowing, or ``""``."""
    parts = []
    for name, posture in fight.postures.items():
        if posture.stance != "none":
            stance = word(ctx, "stance", posture.stance)
            if posture.stance == "charge":
                stance = ctx.t("ace.stance.charge_m", metres=posture.charge)
            parts.append(f"{name} {stance}")
        if posture.cover != "none":
            parts.append(f"{name} {word(ctx, 'cover', posture.cover)}")
        if posture.condition is not None:
            parts.append(f"{name} {word(ctx, 'condition', posture.condition)}")
    for hold in fight.holds:
        parts.append(ctx.t(f"ace.grab.state_{hold.state}", grappler=hold.grappler,
                           target=hold.target, margin=hold.margin))
    for hidden in fight.hidden:
        if not hidden.seen_by:
            parts.append(ctx.t("ace.init.hidden", name=hidden.hider))
    return joined(ctx, parts)


def order_text(ctx: Context, fight: Fight) -> str:
    members = [member_text(ctx, m, fight.started and i == fight.current, fight.round)
               for i, m in enumerate(fight.members)]
    key = "ace.init.order" if fight.started else "ace.init.pending"
    text = ctx.t(key, round=fight.round, members=joined(ctx, members) or ctx.t("ace.nobody"))
    extra = postures_text(ctx, fight)
    return f"{text}\n{extra}" if extra else text


def fight_data(event: str, fight: Fight, **extra: Any) -> dict[str, Any]:
    return data("fight", event=event, fight=fight, **extra)


def notify(out: Outgoing, fight: Fight, owners: dict[str, str | None]) -> Outgoing:
    """The player whose turn it is now is notified (mentioned where platforms ping)."""
    actor = fight.actor
    owner = owners.get(actor.name) if actor is not None else None
    return replace(out, notify=(owner,)) if owner else out


@command("ri", "先攻", "投先攻")
@readable
async def ri(ctx: Context) -> list[Outgoing]:
    """`.ri` (the speaker's active character), `.ri 狼人 蝙蝠` (enemies, GM), `.ri 艾莉絲`:
    1d20 + 敏捷 (+ ⌊敏捷 / 10⌋ with `.ace super on`) each, in the order written."""
    refs: list[str | None] = [*ctx.args.split()] or [None]
    fight = await ctx.uow.load(FIGHT)
    supernatural = (await ctx.uow.load(OPTIONS)).super
    lines, joined_now = [], []
    for ref in refs:
        who = await speaker(ctx, ref)
        rules_fight.check_join(fight, who.name)
        stats = who.fighter()
        member = rules_fight.roll_initiative(
            ctx.dice, who.name, stats.dex, side="enemy" if who.is_enemy else "party",
            owner=who.owner, supernatural=supernatural)
        fight = rules_fight.join(fight, member)
        joined_now.append(member)
        bonus = signed(member.dex) + (signed(member.bonus) if member.bonus else "")
        lines.append(ctx.t("ace.init.rolled", name=member.name, raw=member.raw, mods=bonus,
                           initiative=member.initiative))
    ctx.uow.save(FIGHT, fight)
    text = ctx.t("ace.init.rolls", items=joined(ctx, lines))
    if fight.started:
        text = ctx.t("ace.init.joined_running", text=text, round=fight.round)
    return [ctx.reply(text, fight_data("join", fight, joined=joined_now))]


@command("init", "先攻表", "戰鬥", "战斗")
@readable
async def init(ctx: Context) -> list[Outgoing]:
    """`.init` (the order), `.init start` (round 1: ambushers first), `.init end`,
    `.init del 狼人`."""
    tokens = ctx.args.split()
    fight = await ctx.uow.load(FIGHT)
    if not tokens:
        return [ctx.reply(order_text(ctx, fight), fight_data("show", fight))]
    verb = tokens[0]
    if is_word(verb, *START) and len(tokens) == 1:
        require_gm_if_any(ctx)
        fight = rules_fight.start(fight)
        ctx.uow.save(FIGHT, fight)
        ambush = [m.name for m in fight.members if m.ambush]
        lines = [ctx.t("ace.init.started", order=" → ".join(
            member_text(ctx, m) for m in fight.members))]
        if ambush:
            lines.append(ctx.t("ace.init.ambush", names=joined(ctx, ambush)))
        lines.append(ctx.t("ace.init.turn", name=fight.members[0].name, round=1))
        owners = {m.name: m.owner for m in fight.members}
        return [notify(ctx.reply("\n".join(lines), fight_data("start", fight)), fight, owners)]
    if is_word(verb, *END) and len(tokens) == 1:
        require_gm_if_any(ctx)
        ctx.uow.save(FIGHT, rules_fight.end(fight))
        return [ctx.reply(ctx.t("ace.init.ended"), fight_data("end", Fight()))]
    if is_word(verb, *DEL) and len(tokens) == 2:
        member = fight.find(tokens[1])
        if member is None:
            raise CommandError("ace.error.unknown_fighter", name=echo(tokens[1]))
        if not may_act_for(ctx, member.owner):
            raise CommandError("core.error.not_yours")
        fight = rules_fight.remove(fight, member.name)
        ctx.uow.save(FIGHT, fight)
        return [ctx.reply(ctx.t("ace.init.removed", name=member.name),
                          fight_data("remove", fight))]
    raise CommandError("ace.error.init_usage")


@command("next", "pass", "下一位", "回合結束", "回合结束")
@readable
async def next_(ctx: Context) -> list[Outgoing]:
    """The current fighter's turn ends (its player or a GM); fighters that are down are
    passed over; a stance and the reflex action end when their fighter's turn starts."""
    fight = await ctx.uow.load(FIGHT)
    actor = fight.actor
    if actor is not None and not may_act_for(ctx, actor.owner):
        raise CommandError("ace.error.not_your_turn", name=actor.name)
    fight, event = rules_fight.next_turn(fight, await down_names(ctx, fight))
    ctx.uow.save(FIGHT, fight)
    key = "ace.init.new_round" if event.new_round else "ace.init.turn"
    text = ctx.t(key, name=event.current, round=event.round)
    if event.skipped:
        text += ctx.t("ace.init.skipped", names=joined(ctx, event.skipped))
    owners = {m.name: m.owner for m in fight.members}
    return [notify(ctx.reply(text, fight_data("next", fight, turn=event)), fight, owners)]


# --------------------------------------------------------------------------- stances, cover


async def acting(ctx: Context, words: list[str], fight: Fight) -> tuple[list[str], Someone]:
    rest, by = pop_by(words)
    return rest, await actor_or_speaker(ctx, by, fight)


@command("stance", "姿態", "姿态", "戰術", "战术")
@readable
async def stance(ctx: Context) -> list[Outgoing]:
    """AE-10: `.stance 全力攻擊` / `.stance 衝鋒 3` / `.stance 全防禦` / `.stance 格擋` /
    `.stance 伏地` / `.stance 無` — for this round (until the fighter's next turn)."""
    fight = await ctx.uow.load(FIGHT)
    words, who = await acting(ctx, ctx.args.split(), fight)
    if not words or len(words) > 2:
        raise CommandError("ace.error.stance_usage")
    key = lookup(words[0], STANCES)
    if key is None:
        raise CommandError("ace.error.stance_usage")
    metres = 0
    if key == "charge":
        if len(words) != 2 or not words[1].rstrip("mM米").isdigit():
            raise CommandError("ace.error.stance_usage")
        metres = int(words[1].rstrip("mM米"))
    elif len(words) != 1:
        raise CommandError("ace.error.stance_usage")
    strength = who.fighter().strength
    fight = rules_fight.set_stance(fight, who.name, key, metres=metres, strength=strength)
    ctx.uow.save(FIGHT, fight)
    text = ctx.t(f"ace.stance.set_{key}", name=who.name, metres=metres)
    return [ctx.reply(text, fight_data("stance", fight, name=who.name, stance=key,
                                       metres=metres))]


@command("cover", "掩護", "掩护", "掩蔽")
@readable
async def cover(ctx: Context) -> list[Outgoing]:
    """AE-10: `.cover 少許|部分|大量|完全|無 [名字]` — against ranged attacks, and on the
    covered fighter's own shots."""
    fight = await ctx.uow.load(FIGHT)
    words, by = pop_by(ctx.args.split())
    if len(words) == 2 and by is None:
        words, by = words[:1], words[1]
    if len(words) != 1:
        raise CommandError("ace.error.cover_usage")
    key = lookup(words[0], COVERS)
    if key is None:
        raise CommandError("ace.error.cover_usage")
    who = await actor_or_speaker(ctx, by, fight)
    fight = rules_fight.set_cover(fight, who.name, key)
    ctx.uow.save(FIGHT, fight)
    return [ctx.reply(ctx.t(f"ace.cover.set_{key}", name=who.name),
                      fight_data("cover", fight, name=who.name, cover=key))]


@command("cond", "狀態", "状态")
@readable
async def cond(ctx: Context) -> list[Outgoing]:
    """AE-8: `.cond 狼人 睡眠|昏迷|石化|清除` (GM) — a lethal attack needs one of them,
    and a turn passes over them. In a channel without GMs a player's character is only
    its player's to put to sleep (it would open it to a lethal attack); an enemy anyone's."""
    require_gm_if_any(ctx)
    tokens = ctx.args.split()
    if len(tokens) != 2:
        raise CommandError("ace.error.cond_usage")
    who = await someone(ctx, tokens[0])
    if not may_act_for(ctx, who.owner):
        raise CommandError("core.error.not_yours")
    key = None if any_of(tokens[1], CLEAR) else lookup(tokens[1], CONDITIONS)
    if key is None and not any_of(tokens[1], CLEAR):
        raise CommandError("ace.error.cond_usage")
    fight = await ctx.uow.load(FIGHT)
    fight = rules_fight.set_condition(fight, who.name, key)
    ctx.uow.save(FIGHT, fight)
    text = ctx.t("ace.cond.set", name=who.name, condition=word(ctx, "condition", key)) \
        if key else ctx.t("ace.cond.cleared", name=who.name)
    return [ctx.reply(text, fight_data("condition", fight, name=who.name, condition=key))]
