"""`plurk` battle roster (PL-13, PL-14): `.battle` and `.turn`.

`.battle join` enlists a player's active character, `.battle start` rolls
initiative (`start_battle`), `.battle` / `.turn` show the order; `.battle
add/remove/skip/end/wake` are the GM's. Enemies are defined with `.enemy`
(``plurk_battle_enemies.py``), turns are played with `.act` / `.pass` / `.bp`
(``plurk_battle_turns.py``), the board is ``plurk_field.py`` and parry and
damage are ``plurk_damage.py``. What they share — the stored state, argument
words, the roster, the texts — is in ``bot/plurk/battle_*.py``.

Every rule — BP arithmetic, initiative, turn order, refills — is in
``rules.systems.plurk_trpg``; handlers only parse arguments, decide permissions and
render.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from bot.context import Context
from bot.errors import CommandError
from bot.kits.args import is_word
from bot.kits.encounter import Handler, for_gms, life_text, route_init
from bot.kits.references import mention, require_owner_or_gm
from bot.messages import Outgoing
from bot.names import fold
from bot.permissions import require_gm_if_any
from bot.systems.plurk_trpg.battle_args import current_actor, find_name, gm_target, number
from bot.systems.plurk_trpg.battle_roster import (
    enemy_entrant,
    enter,
    parse_enemy,
    remember_enemy,
)
from bot.systems.plurk_trpg.battle_state import (
    entrant_from_sheet,
    load_battle,
    load_setup,
    running_battle,
    save_battle,
    save_setup,
    stat_spellings,
    sync_sheet_hp,
    write_sheet_hp,
)
from bot.systems.plurk_trpg.battle_text import (
    battle_data,
    battle_json,
    enemy_band,
    fallen_name,
    hides_numbers,
    hp_text,
    initiative_line,
    kept_from_channel,
    readable,
    sep,
    shows_numbers,
    state_text,
    turn_event_text,
    turn_line,
)
from bot.systems.plurk_trpg.check_records import last_checks, store_record
from bot.systems.plurk_trpg.commands.battle_turns import end_turn, pass_fallen
from bot.systems.plurk_trpg.documents import Setup
from bot.systems.plurk_trpg.fatal import expire, pending_fatal, stale_value
from bot.systems.plurk_trpg.system import HP
from bot.systems.plurk_trpg.table import command, ping_next_actor
from bot.unit_of_work import Sheet
from rules.errors import RuleError
from rules.kits.encounter import VERBS, Life
from rules.systems import plurk_trpg as plurk
from rules.systems.plurk_trpg import Entrant, OpposedSide
from rules.systems.plurk_trpg import damage as plurk_damage
from rules.systems.plurk_trpg.opposed import GroupSurpriseResult, group_surprise

Verb = Callable[[Context, list[str]], Awaitable[list[Outgoing]]]


@command("battle", "init", "戰鬥", "战斗")
@readable
async def battle_command(ctx: Context) -> list[Outgoing]:
    """`.init` (`.battle`): the shared fight words of the encounter kit (issue 24:
    join add start next list end remove), then plurk's own (leave skip wake set
    retrieve …)."""
    return await route_init(ctx, _INIT_VERBS, fallback=own_verb)


async def own_verb(ctx: Context) -> list[Outgoing]:
    """A word of plurk's own after `.init` / `.battle` (and its older spellings of the
    shared ones: `begin`, `參加`, `stop` …)."""
    tokens = ctx.args.split()
    for spellings, handler in _BATTLE_VERBS:
        if is_word(tokens[0], *spellings):
            return await handler(ctx, tokens[1:])
    raise CommandError("plurk.error.battle.usage", shared=" / ".join(
        ctx.t(f"encounter.verb.{verb}") for verb in VERBS if verb in _INIT_VERBS),
        own=" / ".join(ctx.t(f"plurk.battle.verb.{verb}") for verb in OWN_VERBS))


@command("turn", "回合")
@readable
async def turn_command(ctx: Context) -> list[Outgoing]:
    return await show(ctx, [])


# --------------------------------------------------------------------------- before the battle


async def show(ctx: Context, _rest: list[str]) -> list[Outgoing]:
    """The order and whose turn it is; without a battle, who joined and which enemies wait."""
    stored, battle = await load_battle(ctx)
    if battle is None:
        return [ctx.reply(await setup_text(ctx), battle_data("none", None))]
    battle = await sync_sheet_hp(ctx, stored, battle)
    data = battle_data("show", battle)
    if ctx.is_gm and hides_numbers(ctx, battle):  # the GM's copy with the enemies' HP
        return for_gms(ctx, state_text(ctx, battle), {"kind": "plurk.battle", "event": "show"},
                       state_text(ctx, battle, True), data)
    return [ctx.reply(state_text(ctx, battle), data)]


async def setup_text(ctx: Context) -> str:
    setup = await load_setup(ctx)
    party = []
    for user in setup.party:
        character = await ctx.uow.active_sheet(user)
        party.append(character.name if character is not None else
                     ctx.t("plurk.battle.no_character", user=user))
    enemies = [e["name"] for e in setup.enemies]
    none = ctx.t("plurk.battle.nobody")
    return ctx.t("plurk.battle.no_battle", party=sep(ctx).join(party) or none,
                 enemies=sep(ctx).join(enemies) or none)


async def join(ctx: Context, _rest: list[str]) -> list[Outgoing]:
    """A player enlists their active character; during a battle it enters at once
    with its own initiative roll (PL-14), after everyone with an equal value."""
    character = await ctx.uow.active_sheet(ctx.user)
    if character is None:
        raise CommandError("core.error.pc_no_active")
    setup = await load_setup(ctx)
    if ctx.user not in setup.party:
        setup.party.append(ctx.user)
        save_setup(ctx, setup)
    stored, battle = await load_battle(ctx)
    if battle is None:
        return [ctx.reply(ctx.t("plurk.battle.joined", name=character.name),
                          battle_data("join", None, user=ctx.user))]
    return enter(ctx, stored, battle, entrant_from_sheet(ctx.user, character), character)


async def leave(ctx: Context, _rest: list[str]) -> list[Outgoing]:
    """A player withdraws before the battle; during it the GM removes combatants."""
    setup = await load_setup(ctx)
    if ctx.user not in setup.party:
        raise CommandError("plurk.error.battle.not_joined")
    _, battle = await load_battle(ctx)
    if battle is not None:
        raise CommandError("plurk.error.battle.leave_running")
    setup.party.remove(ctx.user)
    save_setup(ctx, setup)
    character = await ctx.uow.active_sheet(ctx.user)
    name = character.name if character is not None else ctx.name
    return [ctx.reply(ctx.t("plurk.battle.left", name=name), battle_data("leave", None))]


async def party_entrants(ctx: Context, setup: Setup
                         ) -> tuple[list[Entrant], list[str], dict[str, int]]:
    """Joined players' active characters (and their ids, by name); players without
    one are reported, not fatal."""
    entrants, missing, ids = [], [], {}
    for user in setup.party:
        character = await ctx.uow.active_sheet(user)
        if character is None:
            missing.append(user)
        else:
            entrants.append(entrant_from_sheet(user, character))
            ids[character.name] = character.id
    return entrants, missing, ids


_SIDES = {fold(w): "party" for w in ("party", "我方", "玩家", "調查員")} | {
    fold(w): "enemy" for w in ("enemy", "敵方", "敵人")}


def parse_start_options(rest: list[str]) -> tuple[str | None, str | None]:
    """(first, sneak): `first=party|enemy` (`先制=我方|敵方`) — the GM's ruling on
    who won surprise; `sneak=party|enemy` (`突襲=敵方`) — that side tries to surprise
    the other and the bot decides it with the seed's check (PL-14)."""
    first = sneak = None
    for token in rest:
        key, _, value = token.partition("=")
        if fold(value) not in _SIDES:
            raise CommandError("plurk.error.battle.start_usage")
        if is_word(key, "first", "surprise", "先制", "背襲") and first is None:
            first = _SIDES[fold(value)]
        elif is_word(key, "sneak", "ambush", "突襲", "突袭", "偷襲", "偷袭",
                     "潛行", "潜行") and sneak is None:
            sneak = _SIDES[fold(value)]
        else:
            raise CommandError("plurk.error.battle.start_usage")
    if first is not None and sneak is not None:
        raise CommandError("plurk.error.battle.start_usage")
    return first, sneak


def roll_surprise(ctx: Context, entrants: list[Entrant], sneak: str
                  ) -> tuple[GroupSurpriseResult, list[str]]:
    """PL-14 (seed: the GM's secret 觀察/盲覺 rolls, then 潛行 against them): the
    sneaking side's quietest-is-loudest 潛行 against every watcher's best of
    觀察/盲覺, one opposed check each (``rules…group_surprise``). Returns the
    result and the detail lines, which only the GMs see (a secret roll, PL-7)."""
    def side(e: Entrant) -> str:
        return "enemy" if e.kind == "enemy" else "party"

    sneakers = [OpposedSide(e.name, e.stealth, "潛行") for e in entrants if side(e) == sneak]
    watchers = [OpposedSide(e.name, e.perception, "觀察") for e in entrants
                if side(e) != sneak]
    if not sneakers:
        raise CommandError("plurk.error.battle.surprise_nobody",
                           side=ctx.t(f"plurk.battle.side.{sneak}"))
    result = group_surprise(ctx.dice, sneakers, watchers)
    lines = []
    for check in result.checks:
        a, b = check.opposed.a, check.opposed.b
        lines.append(ctx.t(
            "plurk.battle.surprise.pair", sneaker=a.label, raw=a.raw, mod=f"{a.modifier:+d}",
            value=a.value, watcher=b.label, wraw=b.raw, wmod=f"{b.modifier:+d}",
            wvalue=b.value, outcome=ctx.t("plurk.battle.surprise.unseen" if check.surprised
                                          else "plurk.battle.surprise.seen")))
    return result, lines


async def start(ctx: Context, rest: list[str]) -> list[Outgoing]:
    """PL-13/14: everyone rolls 靈巧 initiative (ties rerolled by the rules), round 0."""
    require_gm_if_any(ctx)
    first_side, sneak = parse_start_options(rest)
    stored, running = await load_battle(ctx)
    if running is not None:
        raise CommandError("plurk.error.battle.already")
    setup = await load_setup(ctx)
    entrants, missing, ids = await party_entrants(ctx, setup)
    entrants.extend(enemy_entrant(e) for e in setup.enemies)
    if not entrants:
        raise RuleError("plurk.battle_empty")
    surprise: GroupSurpriseResult | None = None
    secret: list[str] = []
    if sneak is not None:  # dice: the surprise checks first, then initiative
        surprise, secret = roll_surprise(ctx, entrants, sneak)
        first_side = sneak if surprise.surprised else None
    battle = plurk.start_battle(ctx.dice, entrants, costs=setup.costs, width=setup.width,
                                height=setup.height, first_side=first_side)
    setup.serial += 1
    save_setup(ctx, setup)
    save_battle(ctx, stored, battle, serial=setup.serial, sheets=ids)
    await forget_old_hit_checks(ctx)
    lines = [ctx.t("plurk.battle.started")]
    if sneak is not None:
        side = ctx.t(f"plurk.battle.side.{sneak}")
        lines.insert(0, ctx.t("plurk.battle.surprise.success" if first_side
                              else "plurk.battle.surprise.failed", side=side))
    at = len(lines)
    lines.extend(initiative_line(ctx, i, c) for i, c in enumerate(battle.combatants))
    if first_side is not None:
        lines.append(ctx.t(f"plurk.battle.first_side.{first_side}"))
    if missing:
        lines.append(ctx.t("plurk.battle.missing_characters", users=sep(ctx).join(missing)))
    lines.append(turn_line(ctx, battle))
    secret_kept = bool(secret) and bool(ctx.gm_users)
    if secret and not secret_kept:  # no GM: nobody to keep it secret from
        lines[1:1] = secret
    data = battle_data("start", battle, surprise=None if secret_kept else surprise)
    outs = [ctx.reply("\n".join(lines), data)]
    if hides_numbers(ctx, battle):  # the enemies' rolls and 靈巧 are the GMs'
        numbers = [*lines]
        numbers[at:at + len(battle.combatants)] = [
            initiative_line(ctx, i, c, True) for i, c in enumerate(battle.combatants)]
        numbers[-1] = turn_line(ctx, battle, True)
        outs = kept_from_channel(ctx, "\n".join(lines), "\n".join(numbers), data)
    if secret_kept:
        head = ctx.t("plurk.battle.surprise.secret_head", side=ctx.t(f"plurk.battle.side.{sneak}"))
        outs.extend(ctx.to_gms("\n".join([head, *secret]),
                               battle_data("surprise", None, result=surprise)))
    return outs


# --------------------------------------------------------------------------- during the battle


async def add(ctx: Context, rest: list[str]) -> list[Outgoing]:
    """GM: bring a defined enemy (by name), a new one (`name 靈巧=… hp=…`) or a
    player's active character (`@user`) into the running battle. In a channel without
    GMs a player brings in only their own: whether to fight is each player's call."""
    require_gm_if_any(ctx)
    if not rest:
        raise CommandError("plurk.error.battle.add_usage")
    stored, battle = await running_battle(ctx)
    entrant, character = await entrant_to_add(ctx, rest)
    return enter(ctx, stored, battle, entrant, character)


async def entrant_to_add(ctx: Context, rest: list[str]) -> tuple[Entrant, Sheet | None]:
    """The entrant `.battle add` means, and the sheet it comes from (a player's)."""
    if rest[0].startswith(("@", "<@", "[CQ:")) and len(rest) == 1:
        user = mention(rest[0]) or rest[0]
        require_owner_or_gm(ctx, user)
        character = await ctx.uow.active_sheet(user)
        if character is None:
            raise CommandError("plurk.error.battle.user_no_character", user=user)
        return entrant_from_sheet(user, character), character
    setup = await load_setup(ctx)
    _, battle = await load_battle(ctx)
    known = setup.enemy(rest[0])
    if known is not None and len(rest) == 1:
        if battle is None or battle.find(known["name"]) is None:
            return enemy_entrant(known), None
        values = dict(known)  # already fighting: another one like it (狂信者2)
    else:
        values = parse_enemy(" ".join(rest))
    remember_enemy(setup, values, battle)
    save_setup(ctx, setup)
    return enemy_entrant(values), None


async def retrieve(ctx: Context, rest: list[str]) -> list[Outgoing]:
    """GM: a weapon stuck in a target (PL-18 impale) is taken back — after the
    〈武器〉 check the seed asks for succeeded (a thrown item needs none)."""
    stored, battle, name = await gm_target(ctx, rest, 1, "plurk.error.battle.retrieve_usage")
    target = battle.get(name).stuck_in
    battle = plurk_damage.retrieve_weapon(battle, name)
    save_battle(ctx, stored, battle)
    return [ctx.reply(ctx.t("plurk.battle.retrieved", name=battle.get(name).name,
                            target=target), battle_data("retrieve", battle))]


async def remove(ctx: Context, rest: list[str]) -> list[Outgoing]:
    """Take a combatant out (fled, dead, left the table) — the GM anyone, a player their
    own investigator (issue 24); its turn passes if current, its cell is free at once."""
    if len(rest) != 1:
        raise CommandError("plurk.error.battle.remove_usage")
    stored, battle = await running_battle(ctx)
    name = find_name(battle, rest[0])
    require_owner_or_gm(ctx, battle.get(name).owner)
    battle, event = plurk.remove_combatant(battle, name)
    save_battle(ctx, stored, battle)
    text = ctx.t("plurk.battle.removed", name=name)
    if event is not None:
        text += "\n" + turn_event_text(ctx, battle, event)
    return [ctx.reply(text, battle_data("remove", battle, turn=event))]


async def skip(ctx: Context, _rest: list[str]) -> list[Outgoing]:
    """GM: the current actor loses the rest of its turn. In a channel without GMs only
    its player ends an investigator's turn (:func:`current_actor`), as `.pass` does."""
    require_gm_if_any(ctx)
    stored, battle = await running_battle(ctx)
    current_actor(ctx, battle)
    battle, event = plurk.skip_turn(battle)
    save_battle(ctx, stored, battle)
    return [ctx.reply(turn_event_text(ctx, battle, event), battle_data("skip", battle, turn=event))]


async def end(ctx: Context, rest: list[str]) -> list[Outgoing]:
    """GM: the battle is over. The join list is cleared (the seed: investigators
    say for each fight whether they join); enemy definitions stay for the next
    fight (issue 12 item 13) unless the GM says `.battle end clear`; GM costs and
    the field size stay too."""
    require_gm_if_any(ctx)
    clear = bool(rest) and is_word(rest[0], "clear", "清除", "清空")
    if len(rest) > 1 or (rest and not clear):
        raise CommandError("plurk.error.battle.end_usage")
    stored, battle = await running_battle(ctx)
    battle = plurk.end_battle(battle)
    save_battle(ctx, stored, None)
    setup = await load_setup(ctx)
    setup.party = []
    if clear:
        setup.enemies = []
    save_setup(ctx, setup)
    standing = [f"{fallen_name(ctx, c)} {ctx.t('plurk.battle.hp_label')} {hp_text(ctx, c.hp)}"
                if shows_numbers(ctx, c) else f"{c.name} {enemy_band(ctx, c)}"
                for c in battle.combatants]
    text = ctx.t("plurk.battle.ended", round=battle.round, summary=sep(ctx).join(standing))
    return [ctx.reply(text, battle_data("end", None, final=battle_json(battle)))]


async def wake(ctx: Context, rest: list[str]) -> list[Outgoing]:
    """GM: a successful 醫療 check woke a knocked-out combatant."""
    stored, battle, name = await gm_target(ctx, rest, 1, "plurk.error.battle.wake_usage")
    battle = plurk.wake(battle, name)
    save_battle(ctx, stored, battle)
    return [ctx.reply(ctx.t("plurk.battle.woken", name=battle.get(name).name),
                      battle_data("wake", battle))]


async def set_values(ctx: Context, rest: list[str]) -> list[Outgoing]:
    """GM: set or heal any combatant (`.init set 艾莉絲 hp=10`, `max=15`, `dead`,
    `alive`); an investigator's HP goes to its sheet too. HP stays within 0 … its
    maximum; only `alive` brings back the dead (issue 24). A player changes their own
    investigator's HP with `.hp`."""
    stored, battle, name = await gm_target(ctx, rest[:1], 1, "plurk.error.battle.set_usage")
    changes = parse_set(rest[1:])
    was_dead = battle.get(name).dead
    if was_dead and changes.get("dead") is not False:
        raise CommandError("plurk.error.battle.set_dead", name=name)
    battle = plurk.update_combatant(battle, name, **changes)
    save_battle(ctx, stored, battle)
    c = battle.get(name)
    expired: list[str] = []
    if "hp" in changes or "hp_max" in changes:
        await write_sheet_hp(ctx, stored, c, c.hp or 0)
        expired = await expire_changed(ctx)
    life = "" if c.life is Life.ACTIVE else \
        ctx.t("plurk.battle.set_life", life=life_text(ctx, c.life))
    revived = [ctx.t("plurk.battle.revived", name=c.name)] if was_dead and not c.dead else []
    numbers = "\n".join([*revived, ctx.t("plurk.battle.set", name=c.name, hp=hp_text(ctx, c.hp),
                                         hp_max=hp_text(ctx, c.hp_max), life=life), *expired])
    turn, passed = await pass_fallen(ctx)  # set down on its own turn: it passes
    numbers = "\n".join([numbers, *turn])
    data = battle_data("set", battle)
    if c.kind != "enemy":
        return [ping_next_actor(ctx, ctx.reply(numbers, data), passed)]
    public = "\n".join([*revived, ctx.t("plurk.battle.set_public", name=c.name,
                                         band=enemy_band(ctx, c)), *turn])
    return [ping_next_actor(ctx, out, passed) if out.to == "channel" else out
            for out in for_gms(ctx, public, {"kind": "plurk.battle", "event": "set"}, numbers,
                               data)]


async def expire_changed(ctx: Context) -> list[str]:
    """The GM set an investigator's HP while its fatal event waited: the event was
    judged on a value the sheet no longer has, so it expires now, and the reply says
    so (not at a later `.accept`)."""
    lines: list[str] = []
    for event in await pending_fatal(ctx):
        now = await stale_value(ctx, event)
        if now is not None:
            lines += await expire(ctx, event, now)
    return lines


_SET_HP = ("hp", *stat_spellings(HP))
_SET_MAX = ("max", "hp_max", "上限", "體力上限", "体力上限")
_SET_DEAD = ("dead", "死亡", "kill")
_SET_ALIVE = ("alive", "revive", "復活", "复活")


def parse_set(tokens: list[str]) -> dict[str, Any]:
    """`hp=10 max=12 dead|alive` → the changes for ``update_combatant``."""
    changes: dict[str, Any] = {}
    for token in tokens:
        key, eq, value = token.partition("=")
        if not eq and is_word(token, *_SET_DEAD):
            changes["dead"] = True
        elif not eq and is_word(token, *_SET_ALIVE):
            changes["dead"] = False
        elif eq and is_word(key, *_SET_HP):
            changes["hp"] = number(value, usage="plurk.error.battle.set_usage")
        elif eq and is_word(key, *_SET_MAX):
            changes["hp_max"] = number(value, usage="plurk.error.battle.set_usage")
        else:
            raise CommandError("plurk.error.battle.set_usage")
    if not changes:
        raise CommandError("plurk.error.battle.set_usage")
    return changes


def _shared(verb: Verb) -> Handler:
    """A plurk verb as the kit's `.init` calls it (the words after the verb are args)."""
    async def run(ctx: Context) -> list[Outgoing]:
        return await verb(ctx, ctx.args.split())

    return run


_INIT_VERBS: dict[str, Handler] = {
    "join": _shared(join), "add": _shared(add), "start": _shared(start), "next": end_turn,
    "list": _shared(show), "end": _shared(end), "remove": _shared(remove)}

#: plurk's own `.init` words beyond the kit's, as its usage line names them.
OWN_VERBS = ("leave", "skip", "wake", "set", "retrieve")

_BATTLE_VERBS: list[tuple[tuple[str, ...], Verb]] = [
    (("show", "state", "狀態", "状态"), show),
    (("start", "開始", "begin"), start),
    (("join", "參加", "參戰", "加入"), join),
    (("leave", "離開", "离开", "退出"), leave),
    (("add", "增加", "新增"), add),
    (("remove", "rm", "del", "移除", "刪除"), remove),
    (("skip", "跳過", "跳过"), skip),
    (("end", "結束", "stop"), end),
    (("wake", "喚醒", "唤醒", "清醒"), wake),
    (("set", "設定", "设定", "heal", "治療", "治疗"), set_values),
    (("retrieve", "取回", "拔出"), retrieve),
]


async def forget_old_hit_checks(ctx: Context) -> None:
    """A combat check made before this battle started is no hit check of it: `.atk`
    links only a check made during the battle (see ``commands/damage.py``)."""
    for owner, record in (await last_checks(ctx)).items():
        if record.check.combat and not record.attack_used:
            await store_record(ctx, owner, replace(record, attack_used=True))
