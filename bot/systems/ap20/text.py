"""How the fight reads in the channel: labels in the reader's words, the order, turns."""

from __future__ import annotations

from typing import Any

from bot.context import Context
from bot.systems.ap20.documents import COMBAT
from bot.systems.ap20.state import numbers
from rules.systems.ap20 import Combat, Fighter, Turn


def label(ctx: Context, group: str, key: str) -> str:
    """``ap20.<group>.<key>`` in the reader's words, else the key as the rules wrote it."""
    full = f"ap20.{group}.{key}"
    return ctx.t(full) if ctx.has(full) else key


def signed(value: int) -> str:
    return f"{value:+d}"


def flags_text(ctx: Context, fighter: Fighter) -> str:
    if not fighter.flags:
        return ""
    return ctx.t("ap20.fight.flags", flags=ctx.t("ap20.sep").join(
        label(ctx, "flag", f) for f in fighter.flags))


async def fighter_line(ctx: Context, combat: Combat, index: int) -> str:
    fighter = combat.fighters[index]
    hp = (await numbers(ctx, fighter)).get("hp")
    mark = "▶" if combat.started and index == combat.current else "  "
    return ctx.t("ap20.fight.line", mark=mark, n=index + 1, name=fighter.name,
                 init=fighter.initiative, ap=fighter.ap, ap_max=fighter.ap_max,
                 hp=ctx.t("ap20.fight.hp", hp=hp) if hp is not None else "",
                 side=label(ctx, "side", fighter.side), flags=flags_text(ctx, fighter))


async def fight_text(ctx: Context, combat: Combat) -> str:
    actor = combat.actor
    head = (ctx.t("ap20.fight.head", round=combat.round, actor=actor.name)
            if actor is not None else ctx.t("ap20.fight.head_ready"))
    lines = [await fighter_line(ctx, combat, i) for i in range(len(combat.fighters))]
    return "\n".join([head, *lines])


def turn_text(ctx: Context, turn: Turn, combat: Combat) -> str:
    fighter = combat.get(turn.current)
    key = "ap20.fight.new_round" if turn.new_round else "ap20.fight.turn"
    return ctx.t(key, round=turn.round, name=turn.current, ap=turn.ap_after,
                 ap_max=fighter.ap_max)


def fight_data(combat: Combat | None, event: str, **extra: Any) -> dict[str, Any]:
    return {"kind": "ap20.fight", "event": event,
            "fight": COMBAT.dump(combat) if combat is not None else None, **extra}
