"""How `coc7` results read: one line a check (``艾莉絲 的 偵查 檢定：D100=23/70
困難成功``), in the reader's words, and the structured data other tools read
(``data.kind`` = ``coc7.<what>``, the keys of issue 26 item 7)."""

from __future__ import annotations

from typing import Any

from bot.context import Context
from rules.dice.percentile import Percentile
from rules.systems.coc7 import Check


def dice_text(ctx: Context, roll: Percentile, target: int | None) -> str:
    """``D100=23/70`` (``D100=23`` without a target)."""
    shown = f"{roll.value}/{target}" if target is not None else str(roll.value)
    return ctx.t("coc7.dice.plain", roll=shown)


def extra_text(ctx: Context, roll: Percentile) -> str:
    """``（獎勵骰×2，十位 7/2/0）``: every tens die of a roll with bonus or penalty dice,
    nothing for a plain one."""
    if not roll.bonus:
        return ""
    key = "coc7.dice.bonus" if roll.bonus > 0 else "coc7.dice.penalty"
    return ctx.t(key, n=abs(roll.bonus), tens="/".join(map(str, roll.tens)))


def outcome(ctx: Context, result: Check) -> str:
    """The level reached; a difficulty missed by a lesser success says both."""
    reached = ctx.t(f"coc7.level.{result.level}")
    if result.success or result.level in ("failure", "fumble"):
        return reached
    return ctx.t("coc7.level.short_of", level=reached,
                 difficulty=ctx.t(f"coc7.difficulty.{result.difficulty}"))


def check_text(ctx: Context, who: str, stat: str | None, result: Check) -> str:
    body = (f"{dice_text(ctx, result.roll, result.skill)} {outcome(ctx, result)}"
            f"{extra_text(ctx, result.roll)}")
    if stat is None:
        return ctx.t("coc7.check.bare", who=who, body=body)
    if result.difficulty == "regular":
        return ctx.t("coc7.check.line", who=who, stat=stat, body=body)
    return ctx.t("coc7.check.difficult", who=who, stat=stat, body=body,
                 difficulty=ctx.t(f"coc7.difficulty.{result.difficulty}"))


def roll_data(roll: Percentile) -> dict[str, Any]:
    return {"roll": roll.value, "tens": list(roll.tens), "units": roll.units,
            "bonus": roll.bonus}


def check_data(who: str, user: str, stat: str | None, result: Check,
               **extra: Any) -> dict[str, Any]:
    """Issue 26 item 7: ``coc7.check`` with roll, target, level, tens, units, bonus."""
    return {"kind": "coc7.check", "who": who, "user": user, "stat": stat,
            **roll_data(result.roll), "target": result.skill, "level": result.level,
            "difficulty": result.difficulty, "success": result.success, **extra}
