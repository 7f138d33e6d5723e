"""Action points (AP-1): `.ap` shows everyone's; `.ap 戰技 [name] [耐力=N]` spends;
`.ap set <name> N` (GM) sets — in a channel without GMs a player sets only their own
fighter's (another player's AP are theirs, issue 22), anyone a GM-run one's."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.context import Context
from bot.errors import CommandError
from bot.kits.args import is_word, key_value
from bot.kits.encounter import for_gms
from bot.messages import Outgoing
from bot.names import fold
from bot.permissions import require_gm_if_any
from bot.systems.ap20.args import integer, require_speaker
from bot.systems.ap20.state import (
    actor,
    find,
    numbers,
    numbers_hidden,
    points_kept,
    require_able,
    running,
    save,
    sheet_of,
)
from bot.systems.ap20.table import command
from bot.systems.ap20.text import label
from rules.systems import ap20
from rules.systems.ap20 import Combat, Fighter, Spend

USAGE = "ap20.error.ap_usage"


def ap_data(combat: Combat, spend: Spend | None = None, *,
            shown: Callable[[Fighter], bool] = lambda f: True,
            **extra: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"kind": "ap20.ap", **extra, "ap": {
        f.name: [f.ap, f.ap_max] for f in combat.fighters if shown(f)}}
    if spend is not None:
        data["spend"] = {"action": spend.action, "ap_cost": spend.ap_cost,
                         "ap_before": spend.ap_before, "ap_after": spend.ap_after,
                         "mp_cost": spend.mp_cost, "mp_before": spend.mp_before,
                         "mp_after": spend.mp_after, "stamina_cost": spend.stamina_cost,
                         "stamina_before": spend.stamina_before,
                         "stamina_after": spend.stamina_after}
    return data


def show_text(ctx: Context, combat: Combat, shown: Callable[[Fighter], bool]) -> str:
    return ctx.t("ap20.ap.show", items=ctx.t("ap20.sep").join(
        ctx.t("ap20.ap.item", name=f.name, ap=f.ap, ap_max=f.ap_max)
        for f in combat.fighters if shown(f)) or "—")


def public(ctx: Context) -> Callable[[Fighter], bool]:
    """Whose action points the channel may read: not an unrevealed enemy's (issue 24)."""
    return lambda f: not numbers_hidden(ctx, f)


def show(ctx: Context, combat: Combat) -> list[Outgoing]:
    """Everyone's action points; an unrevealed enemy's only to the GMs (issue 24)."""
    shown = public(ctx)
    text = show_text(ctx, combat, lambda f: True)
    if all(shown(f) for f in combat.fighters):
        return [ctx.reply(text, ap_data(combat))]
    if not ctx.is_gm:
        return [ctx.reply(show_text(ctx, combat, shown), ap_data(combat, shown=shown))]
    return for_gms(ctx, show_text(ctx, combat, shown), ap_data(combat, shown=shown),
                   text, ap_data(combat))


def told(ctx: Context, fighter: Fighter, text: str, data: dict[str, Any], public_text: str,
         public_data: dict[str, Any]) -> list[Outgoing]:
    """A change of ``fighter``'s action points: in the channel (everyone's points there
    but an unrevealed enemy's), unless they are the GMs' — then the channel reads
    ``public_text`` and the GMs the numbers."""
    if not numbers_hidden(ctx, fighter):
        return [ctx.reply(text, {**data, "ap": public_data["ap"]})]
    return for_gms(ctx, public_text, public_data, text, data)


async def write_pool(ctx: Context, combat: Combat, fighter: Fighter, key: str,
                     value: int | None) -> Combat:
    """Store a spent 精神力 / 耐力: on the sheet for a player, in the fight for the GM's."""
    if value is None:
        return combat
    character = await sheet_of(ctx, fighter)
    if character is None:
        return ap20.update(combat, fighter.name, stats={**fighter.stats, key: value})
    stats = dict(character.stats or {})
    name = ap20.KEYS[key]
    stored = next((k for k in stats if fold(k) == fold(name)), name)
    stats[stored] = value
    character.stats = stats
    return combat


@command("ap", "行動力", "行动力")
async def ap(ctx: Context) -> list[Outgoing]:
    tokens = ctx.args.split()
    combat = await running(ctx)
    if not tokens:
        return show(ctx, combat)
    if is_word(tokens[0], "set", "設", "设", "設定", "设定"):
        require_gm_if_any(ctx)
        if len(tokens) != 3:
            raise CommandError(USAGE)
        fighter = find(combat, tokens[1])
        require_speaker(ctx, fighter.name, fighter.owner)
        value = integer(tokens[2], USAGE)
        combat = ap20.update(combat, fighter.name, ap=value)
        save(ctx, combat)
        return told(ctx, fighter, ctx.t("ap20.ap.set", name=fighter.name, before=fighter.ap,
                                        after=value), ap_data(combat, name=fighter.name),
                    ctx.t("ap20.ap.set_hidden", name=fighter.name),
                    ap_data(combat, shown=public(ctx), name=fighter.name))
    if is_word(tokens[0], "spend", "use", "花", "用"):
        tokens = tokens[1:]
    if not tokens:
        raise CommandError(USAGE)
    action = ap20.action_key(tokens[0])
    named, stamina_base = None, 0
    for token in tokens[1:]:
        pair = key_value(token)
        if pair is not None and is_word(pair[0], "耐力", "stamina", "體力", "体力"):
            stamina_base = integer(pair[1], USAGE)
        elif named is None and pair is None:
            named = token
        else:
            raise CommandError(USAGE)
    fighter = await actor(ctx, combat, named)
    await require_able(ctx, fighter)
    values = await numbers(ctx, fighter)
    with points_kept(ctx, fighter):
        combat, paid = ap20.spend_action(combat, fighter.name, action, mp=values.get("mp"),
                                         stamina=values.get("stamina"),
                                         stamina_base=stamina_base)
    fighter = combat.get(fighter.name)
    combat = await write_pool(ctx, combat, fighter, "mp", paid.mp_after)
    combat = await write_pool(ctx, combat, combat.get(fighter.name), "stamina",
                              paid.stamina_after)
    save(ctx, combat)
    extra = ""
    if paid.mp_cost:
        extra += ctx.t("ap20.ap.mp", cost=paid.mp_cost, before=paid.mp_before,
                       after=paid.mp_after)
    if paid.stamina_cost:
        extra += ctx.t("ap20.ap.stamina", base=paid.stamina_base, cost=paid.stamina_cost,
                       before=paid.stamina_before, after=paid.stamina_after)
    action_word = label(ctx, "action", paid.action)
    text = ctx.t("ap20.ap.spent", name=fighter.name, action=action_word, cost=paid.ap_cost,
                 before=paid.ap_before, after=paid.ap_after, extra=extra)
    return told(ctx, fighter, text, ap_data(combat, paid, name=fighter.name),
                ctx.t("ap20.ap.spent_hidden", name=fighter.name, action=action_word),
                ap_data(combat, shown=public(ctx), name=fighter.name, action=paid.action))
