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
from bot.kits.encounter import INIT_WORDS, for_gms, life_text, ping, route_init, with_skipped
from bot.kits.references import may_act_for
from bot.messages import Outgoing
from bot.names import canonical
from bot.permissions import require_gm_if_any
from bot.systems.ace.args import MAX_VALUE, check_name, echo, join_spaced, option
from bot.systems.ace.documents import ENEMIES, FIGHT, OPTIONS, Enemy
from bot.systems.ace.sheet import hp_of, missing_attributes, resistance_energy
from bot.systems.ace.state import (
    Someone,
    actor_or_speaker,
    find_enemy,
    lives,
    pop_by,
    set_hp,
    someone,
    speaker,
)
from bot.systems.ace.table import command
from bot.systems.ace.text import data, energy_word, joined, readable, term, word
from bot.systems.ace.veil import band_of, shown, veiled
from bot.systems.ace.words import CLEAR, CONDITIONS, COVERS, STANCES, any_of, lookup
from rules.kits.encounter import Life
from rules.systems import ace
from rules.systems.ace import fight as rules_fight
from rules.systems.ace import vocabulary as v
from rules.systems.ace.fight import Fight

MAX_ENEMIES = 40
ADD = ("add", "new", "新增", "加入")
DEL = ("del", "rm", "remove", "刪除", "删除", "移除")
REVEAL = ("reveal", "公開", "公开", "揭露")
SET = ("set", "設定", "设定")


def init_usage(ctx: Context) -> CommandError:
    """ace's `.init` usage, its verbs in the reader's words as the kit's usage names them
    (``加入(join)``: the play-test read English verbs at a Chinese table)."""
    verbs = {verb: ctx.t(f"encounter.verb.{verb}") for verb in INIT_WORDS}
    return CommandError("ace.error.init_usage", set=ctx.t("ace.init.verb_set"), **verbs)


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
    who = enemy_someone(name, record)
    return ctx.t("ace.enemy.item", name=name, hp=who.hp, max=who.max_hp)


def enemy_someone(name: str, record: Enemy) -> Someone:
    return Someone(name, dict(record.stats), None, record.hp, record.revealed)


def public_line(ctx: Context, name: str, record: Enemy, fight: Fight) -> str:
    return ctx.t("ace.enemy.item_public", name=name,
                 band=band_of(ctx, enemy_someone(name, record), fight))


def keep_numbers(ctx: Context, public: str, public_data: dict[str, Any], secret: str,
                 secret_data: dict[str, Any], revealed: bool = False) -> list[Outgoing]:
    """Enemy numbers for the GMs (issue 24): a GM's command answers the GMs privately
    and the channel sees ``public``; a player reads ``public`` alone; a table without
    GMs, or an enemy the GM has ``revealed``, reads the numbers."""
    if revealed:
        return [ctx.reply(secret, secret_data)]
    if ctx.is_gm or not ctx.gm_users:
        return for_gms(ctx, public, public_data, secret, secret_data)
    return [ctx.reply(public, public_data)]


@command("enemy", "敵人", "敌人")
@readable
async def enemy(ctx: Context) -> list[Outgoing]:
    """`.enemy add 狼人 力量8 敏捷6 體質7 精神力3 [防具2 基本步法1 hp=60 火抗5 …]`,
    `.enemy del 狼人`, `.enemy 狼人`, `.enemy` (every one), `.enemy reveal 狼人` (GM:
    its numbers to the channel). The numbers are the GMs' (privately); the channel sees
    each enemy's name and health band."""
    tokens = ctx.args.split()
    stored = await ctx.uow.load(ENEMIES)
    enemies = stored.enemies
    fight = await ctx.uow.load(FIGHT)
    if not tokens:
        public = [public_line(ctx, n, e, fight) for n, e in enemies.items()]
        items = [enemy_line(ctx, n, e) for n, e in enemies.items()]
        nobody = ctx.t("ace.nobody")
        return keep_numbers(
            ctx, ctx.t("ace.enemy.list", items=joined(ctx, public) or nobody),
            data("enemies", names=list(enemies)),
            ctx.t("ace.enemy.list", items=joined(ctx, items) or nobody),
            data("enemies", enemies=enemies))
    verb = tokens[0]
    name: str | None  # as typed (add), else as found among the enemies
    if is_word(verb, *ADD):
        require_gm_if_any(ctx)
        name, stats, hp = parse_enemy(" ".join(tokens[1:]))
        if find_enemy(enemies, name) is not None:
            raise CommandError("ace.error.enemy_exists", name=name)
        if len(enemies) >= MAX_ENEMIES:
            raise CommandError("ace.error.enemy_too_many", limit=MAX_ENEMIES)
        most = ace.hp_max(stats[v.CON])
        if hp is not None and hp > most:
            raise CommandError("ace.error.hp_over_max", name=name, max=most,
                               con=stats[v.CON])
        enemies[name] = Enemy(stats, hp if hp is not None else hp_of(stats))
        ctx.uow.save(ENEMIES, stored)
        text = ctx.t("ace.enemy.added", line=enemy_line(ctx, name, enemies[name]),
                     stats=stats_text(ctx, stats))
        if ace.unconscious(stats[v.SPI]):  # AE-1: a GM should know why its turns pass
            text += ctx.t("ace.enemy.unconscious")
        shown = ctx.t("ace.enemy.added_public", line=public_line(ctx, name, enemies[name],
                                                                fight))
        return keep_numbers(ctx, shown, data("enemy", name=name),
                            text, data("enemy", name=name, **asdict(enemies[name])))
    if is_word(verb, *DEL, *REVEAL):
        require_gm_if_any(ctx)
        if len(tokens) != 2:
            raise CommandError("ace.error.enemy_usage")
        name = find_enemy(enemies, tokens[1])
        if name is None:
            raise CommandError("ace.error.unknown_target", name=echo(tokens[1]))
        if is_word(verb, *REVEAL):  # its numbers are the table's from now on
            enemies[name] = replace(enemies[name], revealed=True)
            ctx.uow.save(ENEMIES, stored)
            return [ctx.reply(ctx.t("ace.enemy.revealed", line=enemy_line(ctx, name,
                                                                          enemies[name]),
                                    stats=stats_text(ctx, enemies[name].stats)),
                              data("enemy", name=name, **asdict(enemies[name])))]
        del enemies[name]
        ctx.uow.save(ENEMIES, stored)
        if fight.find(name) is not None:
            ctx.uow.save(FIGHT, rules_fight.remove(fight, name))
        return [ctx.reply(ctx.t("ace.enemy.removed", name=name), data("enemy", removed=name))]
    if len(tokens) != 1:
        raise CommandError("ace.error.enemy_usage")
    name = find_enemy(enemies, tokens[0])
    if name is None:
        raise CommandError("ace.error.unknown_target", name=echo(tokens[0]))
    return keep_numbers(
        ctx, ctx.t("ace.enemy.show_public", line=public_line(ctx, name, enemies[name], fight)),
        data("enemy", name=name),
        ctx.t("ace.enemy.show", line=enemy_line(ctx, name, enemies[name]),
              stats=stats_text(ctx, enemies[name].stats)),
        data("enemy", name=name, **asdict(enemies[name])), enemies[name].revealed)


def stats_text(ctx: Context, stats: dict[str, int]) -> str:
    """``力量:8 … 火抗:5`` — a resistance in the reader's words (``fire res:5``)."""
    out = []
    for key, value in stats.items():
        energy = resistance_energy(key)
        label = ctx.t("ace.enemy.resist", energy=energy_word(ctx, energy)) \
            if energy is not None else key
        out.append(f"{label}:{value}")
    return " ".join(out)


# --------------------------------------------------------------------------- initiative


def member_text(ctx: Context, member: rules_fight.Member, current: bool = False,
                life: Life = Life.ACTIVE) -> str:
    """``艾莉絲 14`` (``（偷襲）`` for an ambusher — first in every round, the tag says
    why; the play-test read the order as unsorted once it went — ``（死亡）`` once fallen)."""
    key = "ace.init.member_ambush" if member.ambush else "ace.init.member"
    text = ctx.t(key, name=member.name, initiative=member.initiative)
    if life is not Life.ACTIVE:
        text += ctx.t("ace.init.fallen", life=life_text(ctx, life))
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


def order_text(ctx: Context, fight: Fight, states: dict[str, Life]) -> str:
    members = [member_text(ctx, m, fight.started and i == fight.current,
                           states.get(m.name, Life.ACTIVE))
               for i, m in enumerate(fight.members)]
    key = "ace.init.order" if fight.started else "ace.init.pending"
    text = ctx.t(key, round=fight.round, members=joined(ctx, members) or ctx.t("ace.nobody"))
    extra = postures_text(ctx, fight)
    return f"{text}\n{extra}" if extra else text


def fight_data(ctx: Context, event: str, fight: Fight, **extra: Any) -> dict[str, Any]:
    """The fight for the channel's data; at a table with a GM an enemy's initiative
    shows its total alone (its die and 敏捷 are the GM's, issue 24)."""
    def shown_member(member: rules_fight.Member) -> rules_fight.Member:
        return replace(member, dex=0, raw=0, bonus=0) \
            if member.side == "enemy" and ctx.gm_users else member

    fight = replace(fight, members=tuple(shown_member(m) for m in fight.members))
    if "joined" in extra:
        extra["joined"] = [shown_member(m) for m in extra["joined"]]
    return data("fight", event=event, fight=fight, **extra)


def notify(ctx: Context, out: Outgoing, fight: Fight) -> Outgoing:
    """The player whose turn it is now is notified (the kit's ping); on an enemy's
    turn, the GMs who play it (the play-test: a GM playing by post was never pinged)."""
    actor = fight.actor
    return ping(out, actor.owner, ctx.gm_users) if actor is not None else out


@command("ri", "先攻", "投先攻")
@readable
async def ri(ctx: Context) -> list[Outgoing]:
    """`.ri` (the speaker's active character), `.ri 狼人 蝙蝠` (enemies, GM), `.ri 艾莉絲`:
    1d20 + 敏捷 (+ ⌊敏捷 / 10⌋ with `.ace super on`) each, in the order written."""
    refs: list[str | None] = [*ctx.args.split()] or [None]
    fight = await ctx.uow.load(FIGHT)
    supernatural = (await ctx.uow.load(OPTIONS)).super
    lines, public, rollers, joined_now = [], [], [], []
    fallen: list[tuple[str, Life]] = []
    for ref in refs:
        who = await speaker(ctx, ref)
        if len(refs) > 1 and who.life(fight) is not Life.ACTIVE:
            fallen.append((who.name, who.life(fight)))  # the living still roll (play-test)
            continue
        who.require_active(fight)
        rules_fight.check_join(fight, who.name)
        stats = who.fighter()
        member = rules_fight.roll_initiative(
            ctx.dice, who.name, stats.dex, side="enemy" if who.is_enemy else "party",
            owner=who.owner, supernatural=supernatural)
        fight = rules_fight.join(fight, member)
        joined_now.append(member)
        rollers.append(who)
        bonus = term(ctx, "dex", member.dex) + (term(ctx, "supernatural", member.bonus)
                                                if member.bonus else "")
        lines.append(ctx.t("ace.init.rolled", name=member.name, raw=member.raw, mods=bonus,
                           initiative=member.initiative))
        # a veiled enemy's roll reads as its initiative alone (its 敏捷 is the GM's)
        public.append(ctx.t("ace.init.member", name=member.name, initiative=member.initiative)
                      if veiled(ctx, who) else lines[-1])
    if not rollers:  # every name fallen: the first one's refusal
        (await speaker(ctx, refs[0])).require_active(fight)
    ctx.uow.save(FIGHT, fight)

    def rolls(items: list[str]) -> str:
        text = with_skipped(ctx, ctx.t("ace.init.rolls", items=joined(ctx, items)), fallen)
        return ctx.t("ace.init.joined_running", text=text, round=fight.round) \
            if fight.started else text

    return shown(ctx, rollers, rolls(public), fight_data(ctx, "join", fight, joined=joined_now),
                 rolls(lines), data("fight", event="join", fight=fight, joined=joined_now))


@command("init", "先攻表", "戰鬥", "战斗")
@readable
async def init(ctx: Context) -> list[Outgoing]:
    """The shared fight words (``bot.kits.encounter``): `.init` / `.init list` (the
    order), `.init join` (= `.ri`), `.init add 狼人` (= `.ri 狼人`), `.init start`
    (round 1: ambushers first), `.init next` (= `.next`), `.init end`, `.init remove
    狼人`; and the GM's `.init set 艾莉絲 hp=10 [狀態=昏迷|清除]`."""
    return await route_init(ctx, {"join": ri, "add": ri, "start": start, "next": next_,
                                  "list": show_order, "end": end, "remove": remove},
                            fallback=init_set)


async def show_order(ctx: Context) -> list[Outgoing]:
    if ctx.args:
        raise init_usage(ctx)
    fight = await ctx.uow.load(FIGHT)
    return [ctx.reply(order_text(ctx, fight, await lives(ctx, fight)),
                      fight_data(ctx, "show", fight))]


async def start(ctx: Context) -> list[Outgoing]:
    if ctx.args:
        raise init_usage(ctx)
    require_gm_if_any(ctx)
    fight = rules_fight.start(await ctx.uow.load(FIGHT))
    states = await lives(ctx, fight)
    first = fight.actor
    assert first is not None  # a started fight has members
    skipped: list[tuple[str, Life]] = []
    if states.get(first.name, Life.ACTIVE) is not Life.ACTIVE:  # pass the fallen at once
        fight, event = rules_fight.next_turn(fight, states)
        skipped = [(first.name, states[first.name]), *((n, states[n]) for n in event.skipped)]
    ctx.uow.save(FIGHT, fight)
    ambush = [m.name for m in fight.members if m.ambush]
    lines = [ctx.t("ace.init.started", order=" → ".join(
        member_text(ctx, m, life=states.get(m.name, Life.ACTIVE)) for m in fight.members))]
    if ambush:
        lines.append(ctx.t("ace.init.ambush", names=joined(ctx, ambush)))
    actor = fight.actor
    assert actor is not None
    lines.append(with_skipped(ctx, ctx.t("ace.init.turn", name=actor.name, round=fight.round),
                              skipped))
    return [notify(ctx, ctx.reply("\n".join(lines), fight_data(ctx, "start", fight)), fight)]


async def end(ctx: Context) -> list[Outgoing]:
    if ctx.args:
        raise init_usage(ctx)
    require_gm_if_any(ctx)
    ctx.uow.save(FIGHT, rules_fight.end(await ctx.uow.load(FIGHT)))
    return [ctx.reply(ctx.t("ace.init.ended"), fight_data(ctx, "end", Fight()))]


async def remove(ctx: Context) -> list[Outgoing]:
    """`.init remove 名字`; without a name the speaker's own character (play-test). The
    one whose turn it is leaves: the next one's turn is said and pinged."""
    tokens = ctx.args.split()
    if len(tokens) > 1:
        raise init_usage(ctx)
    if not tokens:
        tokens = [(await speaker(ctx, None)).name]
    fight = await ctx.uow.load(FIGHT)
    member = fight.find(tokens[0])
    if member is None:
        raise CommandError("ace.error.unknown_fighter", name=echo(tokens[0]))
    if not may_act_for(ctx, member.owner):
        raise CommandError("core.error.not_yours")
    acting = fight.started and fight.actor is not None and fight.actor.name == member.name \
        and len(fight.members) > 1
    lines = [ctx.t("ace.init.removed", name=member.name)]
    if acting:  # the turn passes on first (a new round after the last), said and pinged
        states = await lives(ctx, fight)
        fight, event = rules_fight.next_turn(fight, states)
        acting = event.current != member.name  # else no one else stands to take it
        if acting:
            lines.append(turn_text(ctx, event, states))
    fight = rules_fight.remove(fight, member.name)
    ctx.uow.save(FIGHT, fight)
    out = ctx.reply("\n".join(lines), fight_data(ctx, "remove", fight))
    return [notify(ctx, out, fight) if acting else out]


HP_WORDS = ("hp", "生命", "生命值")
CONDITION_WORDS = ("cond", "condition", "狀態", "状态")


def parse_set(words: list[str]) -> tuple[int | None, str | None, bool]:
    """``hp=10`` / ``生命=10`` and ``狀態=昏迷`` / ``狀態=清除`` → (hp, condition, clear)."""
    hp, condition, clear = None, None, False
    for token in words:
        head, sep, value = token.partition("=")
        if sep and is_word(head, *HP_WORDS) and re.fullmatch(r"\d{1,6}", value):
            hp = int(value)
        elif sep and is_word(head, *CONDITION_WORDS) and any_of(value, CLEAR):
            clear = True
        elif sep and is_word(head, *CONDITION_WORDS) and lookup(value, CONDITIONS):
            condition = lookup(value, CONDITIONS)
        else:
            raise CommandError("ace.error.set_usage")
    if hp is None and condition is None and not clear:
        raise CommandError("ace.error.set_usage")
    return hp, condition, clear


async def init_set(ctx: Context) -> list[Outgoing]:
    """`.init set 艾莉絲 hp=10 [狀態=昏迷|清除]` (GM; a table without GMs: the
    character's player, an enemy anyone): HP within 0 … 體質 × 10; a heal of the dead
    says the GM brought it back."""
    tokens = join_spaced(ctx.args).split()
    if not tokens or not is_word(tokens[0], *SET):
        raise init_usage(ctx)
    if len(tokens) < 3:
        raise CommandError("ace.error.set_usage")
    require_gm_if_any(ctx)
    who = await someone(ctx, tokens[1])
    if not may_act_for(ctx, who.owner):
        raise CommandError("core.error.not_yours")
    hp, condition, clear = parse_set(tokens[2:])
    fight = await ctx.uow.load(FIGHT)
    lines, change = [], ""
    if hp is not None:
        if hp > who.max_hp:
            raise CommandError("ace.error.hp_over_max", name=who.name, max=who.max_hp,
                               con=who.max_hp // v.HP_PER_CON)
        before = who.hp
        await set_hp(ctx, who, hp)
        change = "revived" if before <= 0 < hp else "lowered" if hp < before else ""
        key = {"revived": "ace.set.revived", "lowered": "ace.set.hp_lowered"}.get(change,
                                                                                "ace.set.hp")
        lines.append(ctx.t(key, name=who.name, before=before, after=hp, max=who.max_hp))
    if condition is not None:
        who.require_alive()  # after the HP above: a revival may come with a condition
    if condition is not None or clear:
        fight = rules_fight.set_condition(await ctx.uow.load(FIGHT), who.name, condition)
        ctx.uow.save(FIGHT, fight)
        lines.append(ctx.t("ace.cond.set", name=who.name,
                           condition=word(ctx, "condition", condition))
                     if condition else ctx.t("ace.cond.cleared", name=who.name))
    payload = data("set", name=who.name, hp=who.hp, condition=condition)
    if not who.is_enemy or hp is None:
        return [ctx.reply("\n".join(lines), payload)]
    line = ctx.t("ace.enemy.item_public", name=who.name, band=band_of(ctx, who, fight))
    public = [ctx.t(f"ace.set.public_{change}" if change else "ace.set.public", line=line),
              *lines[1:]]
    return keep_numbers(ctx, "\n".join(public), data("set", name=who.name),
                        "\n".join(lines), payload)


@command("next", "pass", "下一位", "回合結束", "回合结束")
@readable
async def next_(ctx: Context) -> list[Outgoing]:
    """The current fighter's turn ends (its player or a GM); the fallen — dead or down —
    are passed over and named; a stance and the reflex action end when their fighter's
    turn starts."""
    if ctx.args:
        raise init_usage(ctx)
    fight = await ctx.uow.load(FIGHT)
    actor = fight.actor
    if actor is not None and not may_act_for(ctx, actor.owner):
        raise CommandError("ace.error.not_your_turn" if actor.owner else
                           "ace.error.not_your_turn_enemy", name=actor.name)
    states = await lives(ctx, fight)
    fight, event = rules_fight.next_turn(fight, states)
    ctx.uow.save(FIGHT, fight)
    text = turn_text(ctx, event, states)
    return [notify(ctx, ctx.reply(text, fight_data(ctx, "next", fight, turn=event)), fight)]


def turn_text(ctx: Context, event: rules_fight.TurnEvent, states: dict[str, Life]) -> str:
    """``⏭ 輪到 X（第2輪）`` / ``⏭ 第3輪開始，輪到 X``, the fallen passed over named."""
    key = "ace.init.new_round" if event.new_round else "ace.init.turn"
    return with_skipped(ctx, ctx.t(key, name=event.current, round=event.round),
                        [(n, states[n]) for n in event.skipped])


# --------------------------------------------------------------------------- stances, cover


async def acting(ctx: Context, words: list[str], fight: Fight) -> tuple[list[str], Someone]:
    """Who takes a stance: active (issue 24; the rules time a full attack / defence)."""
    rest, by = pop_by(words)
    who = await actor_or_speaker(ctx, by, fight)
    who.require_active(fight)
    return rest, who


@command("stance", "姿態", "姿态", "戰術", "战术")
@readable
async def stance(ctx: Context) -> list[Outgoing]:
    """AE-10: `.stance 全力攻擊` / `.stance 衝鋒 3` / `.stance 全防禦` / `.stance 格擋` /
    `.stance 伏地` / `.stance 無` — for this round (until the fighter's next turn)."""
    fight = await ctx.uow.load(FIGHT)
    words, who = await acting(ctx, ctx.args.split(), fight)
    if len(words) > 1 and lookup("-".join(words[:2]), STANCES):  # `full attack`
        words = ["-".join(words[:2]), *words[2:]]
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
    return [ctx.reply(text, fight_data(ctx, "stance", fight, name=who.name, stance=key,
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
    who.require_active(fight)
    fight = rules_fight.set_cover(fight, who.name, key)
    ctx.uow.save(FIGHT, fight)
    return [ctx.reply(ctx.t(f"ace.cover.set_{key}", name=who.name),
                      fight_data(ctx, "cover", fight, name=who.name, cover=key))]


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
    if key is not None:  # the dead sleep no more (the play-test: 蝙蝠（死亡）… 蝙蝠 睡眠)
        who.require_alive()
    fight = await ctx.uow.load(FIGHT)
    fight = rules_fight.set_condition(fight, who.name, key)
    ctx.uow.save(FIGHT, fight)
    text = ctx.t("ace.cond.set", name=who.name, condition=word(ctx, "condition", key)) \
        if key else ctx.t("ace.cond.cleared", name=who.name)
    return [ctx.reply(text, fight_data(ctx, "condition", fight, name=who.name, condition=key))]
