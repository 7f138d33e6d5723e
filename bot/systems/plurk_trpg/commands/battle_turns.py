"""`plurk` turns and BP (PL-13): `.act`, `.pass`, `.bp`.

`.act 攻擊` spends the current actor's BP on an action, `.pass` ends its turn
(BP refills, the next in order acts), `.bp` shows BP or — GM — sets an action's
cost or one combatant's BP max. The arithmetic is ``rules.systems.plurk_trpg``'s.
"""

from __future__ import annotations

import re
from typing import Any

from bot.context import Context
from bot.errors import CommandError
from bot.kits.args import is_word
from bot.messages import Outgoing
from bot.permissions import require_gm_if_any
from bot.systems.plurk_trpg.battle_args import current_actor, gm_target, number
from bot.systems.plurk_trpg.battle_state import (
    load_battle,
    load_setup,
    running_battle,
    save_battle,
    save_setup,
)
from bot.systems.plurk_trpg.battle_text import (
    action_label,
    battle_data,
    hides_numbers,
    kept_from_channel,
    readable,
    sep,
    shows_numbers,
    spent_replies,
    turn_event_text,
)
from bot.systems.plurk_trpg.table import command
from rules.systems import plurk_trpg as plurk
from rules.systems.plurk_trpg import Battle

_COUNT = re.compile(r"^[x×*]?(\d{1,3})$", re.IGNORECASE)


# --------------------------------------------------------------------------- .act / .pass


def parse_act(args: str) -> tuple[str, int]:
    """`攻擊`, `移動 3`, `move x3` → (action, count)."""
    tokens = args.split()
    if not tokens or len(tokens) > 2:
        raise CommandError("plurk.error.battle.act_usage")
    count = 1
    if len(tokens) == 2:
        match = _COUNT.match(tokens[1])
        if match is None:
            raise CommandError("plurk.error.battle.act_usage")
        count = int(match.group(1))
    if count < 1:
        raise CommandError("plurk.error.battle.act_usage")
    return tokens[0], count


@command("act", "行動", "行动")
@readable
async def act(ctx: Context) -> list[Outgoing]:
    """PL-13: the current actor spends BP on an action (cost from the battle's table)."""
    action, count = parse_act(ctx.args)
    stored, battle = await running_battle(ctx)
    actor = current_actor(ctx, battle)
    battle, event = plurk.spend_bp(battle, action, actor=actor.name, count=count)
    save_battle(ctx, stored, battle)
    return spent_replies(ctx, battle, [], event, battle_data("spend", battle, bp=event))


@command("pass", "結束回合", "结束回合")
@readable
async def pass_(ctx: Context) -> list[Outgoing]:
    """PL-13: the actor ends its turn; BP refills, the next in order acts."""
    return await end_turn(ctx)


async def end_turn(ctx: Context) -> list[Outgoing]:
    """`.pass` and `.init next`: the current actor's player (or a GM) ends its turn."""
    stored, battle = await running_battle(ctx)
    actor = current_actor(ctx, battle)
    battle, event = plurk.pass_turn(battle, actor.name)
    save_battle(ctx, stored, battle)
    return [ctx.reply(turn_event_text(ctx, battle, event), battle_data("pass", battle, turn=event))]


async def pass_fallen(ctx: Context) -> tuple[list[str], dict[str, Any] | None]:
    """Issue 24: after a command that may have felled the current actor (a hit, an
    accepted fatal event, the GM's `.init set`), its turn passes at once. Returns the
    turn's lines (the kit's skipped line names the fallen) and the pass's data, whose
    next actor the reply pings (``table.ping_next_actor``) — None when nothing passed."""
    stored, battle = await load_battle(ctx)
    if battle is None:
        return [], None
    battle, event = plurk.pass_fallen(battle)
    if event is None:
        return [], None
    save_battle(ctx, stored, battle)
    return [turn_event_text(ctx, battle, event)], battle_data("pass", battle, turn=event)


# --------------------------------------------------------------------------- .bp


@command("bp", "戰鬥點數", "战斗点数")
@readable
async def bp(ctx: Context) -> list[Outgoing]:
    """`.bp` shows BP; `.bp cost [action N]` shows or (GM) sets a cost;
    `.bp max <who> N` (GM) overrides one combatant's BP max for this battle."""
    tokens = ctx.args.split()
    if not tokens:
        _, battle = await running_battle(ctx)
        data = battle_data("bp", battle)
        if hides_numbers(ctx, battle):
            return kept_from_channel(ctx, bp_text(ctx, battle), bp_text(ctx, battle, True), data)
        return [ctx.reply(bp_text(ctx, battle), data)]
    if is_word(tokens[0], "cost", "costs", "費用", "消耗"):
        return await bp_cost(ctx, tokens[1:])
    if is_word(tokens[0], "max", "上限"):
        return await bp_max(ctx, tokens[1:])
    raise CommandError("plurk.error.battle.bp_usage")


def bp_text(ctx: Context, battle: Battle, numbers: bool = False) -> str:
    """Everyone's BP but the dead's, and — unless ``numbers`` (the GMs' copy) — but an
    enemy's whose numbers are the GMs' (its BP max comes from its 靈巧)."""
    items = [ctx.t("plurk.battle.bp_item", name=c.name, bp=c.bp, bp_max=c.bp_max)
             for c in battle.combatants
             if not c.dead and (numbers or shows_numbers(ctx, c))]
    return ctx.t("plurk.battle.bp_show", items=sep(ctx).join(items))


def costs_reply(ctx: Context, costs: dict[str, int]) -> list[Outgoing]:
    items = [ctx.t("plurk.battle.cost_item", action=action_label(ctx, k), cost=v)
             for k, v in costs.items()]
    return [ctx.reply(ctx.t("plurk.battle.costs", items=sep(ctx).join(items)),
                      {"kind": "plurk.bp_costs", "costs": costs})]


async def bp_cost(ctx: Context, rest: list[str]) -> list[Outgoing]:
    """Costs are GM configuration: they apply to the running battle and the next ones."""
    stored, battle = await load_battle(ctx)
    setup = await load_setup(ctx)
    configured = {**plurk.BP_DEFAULT_COSTS, **setup.costs}
    if not rest:
        return costs_reply(ctx, battle.costs if battle is not None else configured)
    require_gm_if_any(ctx)
    if len(rest) != 2:
        raise CommandError("plurk.error.battle.bp_usage")
    cost = number(rest[1], usage="plurk.error.battle.bp_usage")
    # the rules canonicalise the action name (攻擊 → attack) on a battle-less table
    setup.costs = dict(plurk.set_bp_cost(Battle((), costs=configured), rest[0], cost).costs)
    save_setup(ctx, setup)
    if battle is None:
        return costs_reply(ctx, setup.costs)
    battle = plurk.set_bp_cost(battle, rest[0], cost)
    save_battle(ctx, stored, battle)
    return costs_reply(ctx, battle.costs)


async def bp_max(ctx: Context, rest: list[str]) -> list[Outgoing]:
    """GM: one combatant's BP max for the rest of this battle."""
    stored, battle, name = await gm_target(ctx, rest, 2, "plurk.error.battle.bp_usage")
    value = number(rest[1], usage="plurk.error.battle.bp_usage")
    battle = plurk.update_combatant(battle, name, bp_max=value)
    save_battle(ctx, stored, battle)
    c = battle.get(name)
    return [ctx.reply(ctx.t("plurk.battle.bp_max_set", name=c.name, bp=c.bp, bp_max=c.bp_max),
                      battle_data("bp_max", battle))]
