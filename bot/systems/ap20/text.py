"""How the fight reads in the channel: labels in the reader's words, the order, turns,
and a GM-run fighter's numbers — the GMs' until revealed (issue 24)."""

from __future__ import annotations

from typing import Any

from bot.context import Context
from bot.kits.encounter import band_text, life_text
from bot.systems.ap20.documents import COMBAT
from bot.systems.ap20.state import life_of, numbers, numbers_hidden
from rules.kits.encounter import Band, Life, band
from rules.systems import ap20
from rules.systems.ap20 import Combat, Fighter, Turn


def label(ctx: Context, group: str, key: str) -> str:
    """``ap20.<group>.<key>`` in the reader's words, else the key as the rules wrote it."""
    full = f"ap20.{group}.{key}"
    return ctx.t(full) if ctx.has(full) else key


def signed(value: int) -> str:
    return f"{value:+d}"


def comparison(hit: bool, total: int, bar: int) -> str:
    """The sign between a total and what it is held against — never ``≥`` beside a
    miss (a raw 1) nor ``<`` beside a hit (a raw 20): those read ``vs``."""
    if total >= bar:
        return "≥" if hit else "vs"
    return "vs" if hit else "<"


def ordinal(ctx: Context, n: int) -> str:
    """A place in the order in the reader's words (English 1st, 2nd, 3rd, 4th, 11th)."""
    last = "other" if n % 100 in (11, 12, 13) else {1: "first", 2: "second",
                                                     3: "third"}.get(n % 10, "other")
    return ctx.t(f"ap20.ordinal.{last}", n=n)


def term(ctx: Context, name: str, value: int) -> str:
    """One named addend of a labelled sum: `` + 敏捷 3`` / `` − 敏捷 1``."""
    return ctx.t("ap20.sum.plus" if value >= 0 else "ap20.sum.minus", name=name,
                 value=abs(value))


def flags_text(ctx: Context, fighter: Fighter, hp: int | None = None) -> str:
    """The states the life state does not already say: 死亡 never, 失能 not beside the
    倒下 of a fighter at 0 HP."""
    down = hp is not None and hp <= 0
    shown = [f for f in fighter.flags if f != "dead" and not (down and f == "incapacitated")]
    if not shown:
        return ""
    return ctx.t("ap20.fight.flags", flags=ctx.t("ap20.sep").join(
        label(ctx, "flag", f) for f in shown))


async def band_of(ctx: Context, fighter: Fighter) -> str:
    """A fighter's health band in the reader's words (what the channel sees of a
    fighter whose numbers are the GMs')."""
    hp = (await numbers(ctx, fighter)).get("hp")
    return band_text(ctx, band_for(fighter, hp, await life_of(ctx, fighter)))


def band_for(fighter: Fighter, hp: int | None, life: Life) -> Band:
    """A fighter's health band: its HP against its maximum (without HP, unhurt)."""
    return band(hp if hp is not None else 1, fighter.hp_max or hp or 1, life)


async def health_parts(ctx: Context, fighter: Fighter, *, secret: bool = False
                       ) -> list[str]:
    """``生命 12`` (and the life state when fallen) — or, for a fighter whose numbers
    are the GMs', only its health band; ``secret`` shows the numbers."""
    hp = (await numbers(ctx, fighter)).get("hp")
    life = await life_of(ctx, fighter)
    if numbers_hidden(ctx, fighter) and not secret:
        return [] if hp is None and life is Life.ACTIVE else [await band_of(ctx, fighter)]
    parts = [ctx.t("ap20.fight.hp", hp=hp)] if hp is not None else []
    return parts + ([life_text(ctx, life)] if life is not Life.ACTIVE else [])


async def health_text(ctx: Context, fighter: Fighter, *, secret: bool = False) -> str:
    return "".join(ctx.t("ap20.fight.state", state=part)
                   for part in await health_parts(ctx, fighter, secret=secret))


async def fighter_line(ctx: Context, combat: Combat, index: int, *,
                       secret: bool = False) -> str:
    """One fighter of the order: its action points unless it is dead, and its states —
    neither when its numbers are the GMs' (an unrevealed enemy's, unless ``secret``),
    whose health band says what the channel may know."""
    fighter = combat.fighters[index]
    mark = "▶" if combat.started and index == combat.current else "  "
    dead = await life_of(ctx, fighter) is Life.DEAD
    ap = "" if dead or (numbers_hidden(ctx, fighter) and not secret) else ctx.t(
        "ap20.fight.ap_part", ap=fighter.ap, ap_max=fighter.ap_max)
    flags = "" if numbers_hidden(ctx, fighter) and not secret else flags_text(
        ctx, fighter, (await numbers(ctx, fighter)).get("hp"))
    return ctx.t("ap20.fight.line", mark=mark, n=index + 1, name=fighter.name,
                 init=fighter.initiative, ap=ap,
                 hp=await health_text(ctx, fighter, secret=secret),
                 side=label(ctx, "side", fighter.side), flags=flags)


async def fight_text(ctx: Context, combat: Combat, *, secret: bool = False) -> str:
    actor = combat.actor
    head = (ctx.t("ap20.fight.head", round=combat.round, actor=actor.name)
            if actor is not None else ctx.t("ap20.fight.head_ready"))
    lines = [await fighter_line(ctx, combat, i, secret=secret)
             for i in range(len(combat.fighters))]
    return "\n".join([head, *lines])


def stat_block(ctx: Context, fighter: Fighter) -> str:
    """A GM-run fighter's numbers, each named: 生命 20/20、護甲 3 …、抗性 火焰 2、等階 2."""
    items = []
    for key, value in sorted(fighter.stats.items(), key=lambda kv: kv[0] != "hp"):
        if key == "hp":
            top = f"/{fighter.hp_max}" if fighter.hp_max is not None else ""
            items.append(ctx.t("ap20.block.item", name=label(ctx, "stat", "hp"),
                               value=f"{value}{top}"))
        else:
            items.append(ctx.t("ap20.block.item", name=label(ctx, "stat", key), value=value))
    items += [ctx.t("ap20.block.resist", type=label(ctx, "type", k), value=v)
              for k, v in fighter.resist.items()]
    if fighter.tier > 1:
        items.append(ctx.t("ap20.block.item", name=label(ctx, "stat", "tier"),
                           value=fighter.tier))
    items += [label(ctx, "flag", f) for f in fighter.flags]
    return ctx.t("ap20.block.line", name=fighter.name,
                 items=ctx.t("ap20.sep").join(items) or "—")


def turn_text(ctx: Context, turn: Turn, combat: Combat) -> str:
    """Whose turn it is, with its action points unless they are the GMs'."""
    fighter = combat.get(turn.current)
    key = "ap20.fight.new_round" if turn.new_round else "ap20.fight.turn"
    points = "" if numbers_hidden(ctx, fighter) else ctx.t(
        "ap20.fight.turn_ap", ap=turn.ap_after, ap_max=fighter.ap_max)
    return ctx.t(key, round=turn.round, name=turn.current, points=points)


def initiative_detail(ctx: Context, raw: int, modifier: int, bonus: int,
                      tier_bonus: int) -> str:
    """``d20 8 + 敏捷 3 + 加值 2 + 等階 1``: every addend of an initiative roll named."""
    text = ctx.t("ap20.sum.die", value=raw) + term(ctx, label(ctx, "stat", "dex"), modifier)
    if bonus:
        text += term(ctx, ctx.t("ap20.sum.bonus"), bonus)
    if tier_bonus:
        text += term(ctx, label(ctx, "stat", "tier"), tier_bonus)
    return text


PUBLIC_KEYS = ("name", "side", "owner", "character_id", "initiative", "revealed")
"""What the channel's data keeps of a fighter whose numbers are the GMs' — its place in
the order — beside its health band (issue 24: no action points, tier, states, rolls)."""


def fight_data(ctx: Context, combat: Combat | None, event: str, *, secret: bool = False,
               **extra: Any) -> dict[str, Any]:
    """A fight reply's data: the stored fight, a fighter whose numbers are the GMs'
    reduced to ``PUBLIC_KEYS`` and its ``band`` (unless ``secret``: a reply only GMs
    get)."""
    if combat is None:
        return {"kind": "ap20.fight", "event": event, "fight": None, **extra}
    dumped = COMBAT.dump(combat)
    if not secret:
        dumped["fighters"] = [
            public_fighter(f, stored) if numbers_hidden(ctx, f) else stored
            for f, stored in zip(combat.fighters, dumped["fighters"], strict=True)]
    return {"kind": "ap20.fight", "event": event, "fight": dumped, **extra}


def public_fighter(fighter: Fighter, stored: dict[str, Any]) -> dict[str, Any]:
    """A GM-run fighter as the channel's data shows it: ``PUBLIC_KEYS`` and its health
    band (its numbers are stored in the fight, so read there)."""
    band_ = band_for(fighter, fighter.hp, ap20.life(fighter, fighter.hp))
    return {**{k: stored[k] for k in PUBLIC_KEYS}, "band": band_.value}


def turn_data(ctx: Context, turn: Turn, combat: Combat) -> dict[str, Any]:
    """A turn's data; the action points of a fighter whose numbers are the GMs' left out."""
    data: dict[str, Any] = {
        "previous": turn.previous, "current": turn.current, "round": turn.round,
        "new_round": turn.new_round, "ap_before": turn.ap_before,
        "ap_after": turn.ap_after, "skipped": list(turn.skipped)}
    if numbers_hidden(ctx, combat.get(turn.current)):
        del data["ap_before"], data["ap_after"]
    return data
