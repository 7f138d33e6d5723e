"""How `ace` results read in the channel: pools, checks, hits, damage, contests — one
line each, in the reader's words — and the structured data for JSON consumers
(``data.kind`` = ``ace.<what>``, the rules' dataclass as plain JSON)."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from bot.context import Context
from bot.messages import Outgoing
from rules.errors import RuleError
from rules.systems.ace import combat, pool

Handler = Callable[[Context], Awaitable[list[Outgoing]]]


def sep(ctx: Context) -> str:
    return ctx.t("ace.sep")


def joined(ctx: Context, items: Iterable[str]) -> str:
    return sep(ctx).join(items)


def signed(value: int) -> str:
    return f"{value:+d}"


def dice_text(dice: Iterable[int]) -> str:
    return "[" + ",".join(str(d) for d in dice) + "]"


def plain(value: Any) -> Any:
    """A rules dataclass as JSON-able data (tuples → lists)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        value = dataclasses.asdict(value)
    if isinstance(value, dict):
        return {k: plain(x) for k, x in value.items()}
    if isinstance(value, tuple | list):
        return [plain(x) for x in value]
    return value


def data(kind: str, **fields: Any) -> dict[str, Any]:
    return {"kind": f"ace.{kind}", **{k: plain(x) for k, x in fields.items()}}


def energy_word(ctx: Context, energy: str) -> str:
    """An energy in the reader's words (fire → 火), else as the table wrote it."""
    key = f"ace.energy.{energy}"
    return ctx.t(key) if ctx.has(key) else energy


def word(ctx: Context, group: str, key: str | None) -> str:
    """A rules key in the reader's words (``part`` / ``head`` → 頭部)."""
    return ctx.t(f"ace.{group}.{key}") if key is not None else ""


# --------------------------------------------------------------------------- pools and checks


def pool_text(ctx: Context, rolled: pool.PoolRoll, dp: str | None = None) -> str:
    """``DP4 [8,3,10,1] → 2成功`` (a specialty: ``[…]+專業 → 3成功``; ``dp`` shows
    how the DP was made, ``4+1``)."""
    dice = dice_text(rolled.dice) if rolled.dice else ""
    if rolled.specialty:
        dice += ctx.t("ace.pool.specialty")
    key = "ace.pool.text" if dice else "ace.pool.text_empty"
    return ctx.t(key, dp=dp if dp is not None else rolled.dp, dice=dice,
                 successes=ctx.t("ace.pool.successes", n=rolled.total))


def dp_label(result: pool.CheckResult) -> str | None:
    """``4+1``: the skill's DP and the situational dice, when there are some."""
    return f"{result.base_dp}{signed(result.bonus)}" if result.bonus else None


def outcome(ctx: Context, success: bool) -> str:
    return ctx.t("ace.check.success" if success else "ace.check.failure")


def check_body(ctx: Context, result: pool.CheckResult) -> str:
    """The numbers of one check: substitution, the pool, DC, outcome and margin."""
    parts = []
    sub = result.substitution
    if sub is not None:
        parts.append(ctx.t("ace.check.substitution", raw=sub.raw, attribute=sub.attribute,
                           value=sub.value, dp=sub.dp))
    parts.append(pool_text(ctx, result.pool, dp_label(result)))
    return ctx.t("ace.check.body", detail=ctx.t("ace.check.join").join(parts),
                 cmp="≥" if result.success else "<", dc=result.dc,
                 outcome=outcome(ctx, result.success), margin=signed(result.margin))


def check_line(ctx: Context, who: str, result: pool.CheckResult, reason: str | None) -> str:
    stat = result.stat if result.stat is not None else ctx.t("ace.check.pool")
    key = "ace.check.line_reason" if reason else "ace.check.line"
    return ctx.t(key, who=who, stat=stat, reason=reason, body=check_body(ctx, result))


# --------------------------------------------------------------------------- combat


def term(ctx: Context, key: str, value: int) -> str:
    """One named term of a sum: ``+5敏捷`` / ``+5 (DEX)`` (issue 24: every number named)."""
    return ctx.t("ace.term.fmt", value=signed(value), label=ctx.t(f"ace.term.{key}"))


def mods_text(ctx: Context, pairs: combat.Pairs) -> str:
    return "".join(term(ctx, key, value) for key, value in pairs)


def hit_text(ctx: Context, hit: combat.HitRoll, bonus: str = "hit_bonus", *,
             hide_bonus: bool = False, hide_evasion: bool = False) -> str:
    """``命中 1d20=14+6敏捷步法 = 20 > 迴避12`` (a crit and a raw 1 say so); ``bonus``
    names the attacker's own term (a grapple's is 力量 + 基本腰力). A veiled enemy's
    side is left out: its bonus and total (``hide_bonus``), its evasion (``hide_evasion``)."""
    if hit.skipped:
        return ctx.t("ace.attack.skipped")
    special = ""
    if hit.crit:
        special = ctx.t("ace.attack.crit")
    elif hit.raw == 1:
        special = ctx.t("ace.attack.fumble")
    above = hit.total is not None and hit.total > hit.evasion
    why = next((k for k, _ in hit.evasion_mods if k in ("helpless", "pinned")), None)
    evasion = f"{hit.evasion}{ctx.t(f'ace.attack.evasion_{why}')}" if why else hit.evasion
    key = "ace.attack.hit"
    if hide_bonus or hide_evasion:
        key = "ace.attack.hit_bare" if hide_bonus and hide_evasion else \
            "ace.attack.hit_no_bonus" if hide_bonus else "ace.attack.hit_no_evasion"
    return ctx.t(key, die=hit.die, raw=hit.raw, special=special,
                 mods=term(ctx, bonus, hit.bonus) + mods_text(ctx, hit.mods), total=hit.total,
                 # a raw 1 above the evasion still misses: no ">" beside a miss
                 cmp=("≤" if not above else ">" if hit.hit else "vs"), evasion=evasion,
                 result=ctx.t("ace.attack.landed" if hit.hit else "ace.attack.missed"))


def damage_text(ctx: Context, damage: combat.DamageRoll, *, hide: bool = False) -> str:
    """``傷害DP 11−6=5 [8,9,2,3,10] 3成功×5 = 15`` with every extra and reduction; the
    total alone (``hide``) when a veiled enemy's attack or defence is in it."""
    if hide:
        return ctx.t("ace.attack.damage_total", total=damage.total)
    if damage.lethal:
        dice = ctx.t("ace.attack.lethal_dice")
    else:
        dice = dice_text(damage.dice) if damage.dice else ctx.t("ace.pool.no_dice")
    terms = [ctx.t("ace.attack.base", successes=damage.successes, mult=damage.multiplier)]
    if damage.dp == 0:
        terms = []
    if damage.part_extra:
        terms.append(ctx.t("ace.attack.part_extra", n=damage.part_extra))
    if damage.strength_bonus:
        terms.append(ctx.t("ace.attack.strength_bonus", n=damage.strength_bonus))
    if damage.con_reduction:
        terms.append(ctx.t("ace.attack.con_reduction", n=damage.con_reduction))
    if damage.resisted:
        terms.append(ctx.t("ace.attack.resisted", n=damage.resisted))
    energy = ctx.t("ace.attack.energy", energy=energy_word(ctx, damage.energy)) \
        if damage.energy else ""
    if damage.dp == 0:
        extra = ctx.t("ace.attack.no_dice_extra", terms="".join(terms).lstrip(" "),
                      total=damage.total) if terms else ""
        return ctx.t("ace.attack.no_dice", attack=damage.attack, defense=damage.defense,
                     extra=extra)
    return ctx.t("ace.attack.damage", attack=damage.attack, defense=damage.defense,
                 dp=damage.dp, dice=dice, terms="".join(terms), total=damage.total,
                 energy=energy)


def contest_text(ctx: Context, contest: combat.Contest, *, hide_a: bool = False,
                 hide_b: bool = False) -> str:
    """``艾莉絲 1d20=12+7力量腰力 = 19 > 狼人 1d20=5+…``; a veiled enemy's side shows
    its die alone, and the two sides read ``vs`` (the play-test read ``23 ≤ 狼人 1d20=15``:
    a total "≤" a bare die looks false); the outcome after it says who won."""
    def side(roll: combat.ContestSide, hide: bool) -> str:
        if hide:
            return ctx.t("ace.contest.side_bare", name=roll.name, raw=roll.raw)
        return ctx.t("ace.contest.side", name=roll.name, raw=roll.raw,
                     mods=mods_text(ctx, roll.parts), total=roll.total)

    return ctx.t("ace.contest.text", a=side(contest.a, hide_a), b=side(contest.b, hide_b),
                 cmp="vs" if hide_a or hide_b else ">" if contest.win else "≤")


def hp_text(ctx: Context, name: str, before: int, after: int) -> str:
    key = "ace.hp.dead" if after <= 0 < before else "ace.hp.change"
    if before <= 0:
        key = "ace.hp.already"
    return ctx.t(key, name=name, before=before, after=after)


# --------------------------------------------------------------------------- refusals

_WORD_PARAMS = {"status": "extended.status", "stance": "stance", "cover": "cover",
                "condition": "condition"}


def readable(handler: Handler) -> Handler:
    """Refusals name statuses, stances … in the reader's words, not the rules' keys."""

    @functools.wraps(handler)
    async def wrapper(ctx: Context) -> list[Outgoing]:
        try:
            return await handler(ctx)
        except RuleError as exc:
            params = dict(exc.params)
            for name, group in _WORD_PARAMS.items():
                value = params.get(name)
                key = f"ace.{group}.{value}"
                if isinstance(value, str) and ctx.has(key):
                    params[name] = ctx.t(key)
            raise RuleError(exc.code, **params) from exc

    return wrapper
