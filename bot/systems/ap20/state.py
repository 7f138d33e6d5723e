"""The stored fight and the sheets behind it.

The fight is the table's document ``COMBAT`` (``ctx.uow.load`` / ``save``); a player's
fighter links its sheet by the sheet's id and reads its numbers there on every command
(命中, 護甲, 生命 …, the names ``rules.systems.ap20.KEYS`` lists); a GM-run fighter keeps
them in the fight. Hits on a player's fighter are written to its sheet's 生命.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from bot.context import Context
from bot.errors import CommandError
from bot.kits import layers
from bot.names import fold
from bot.systems.ap20.args import ECHO, may_speak_for, require_speaker
from bot.systems.ap20.documents import COMBAT
from bot.unit_of_work import Sheet
from rules.errors import RuleError
from rules.kits.encounter import Life, require_active
from rules.systems import ap20
from rules.systems.ap20 import Combat, Fighter


def require_ap20(ctx: Context) -> None:
    if ctx.system.id != ap20.SYSTEM.id:
        raise CommandError("ap20.error.wrong_system", system=ctx.channel.system)


async def load(ctx: Context) -> Combat | None:
    """The table's fight, None when there is none."""
    require_ap20(ctx)
    combat = await ctx.uow.load(COMBAT)
    return combat if combat.fighters else None


async def running(ctx: Context) -> Combat:
    combat = await load(ctx)
    if combat is None:
        raise CommandError("ap20.error.no_fight")
    return combat


def save(ctx: Context, combat: Combat | None) -> None:
    """Keep the fight (None: it ended) when the command commits."""
    ctx.uow.save(COMBAT, combat if combat is not None else Combat())


# --------------------------------------------------------------------------- sheets


def sheet_value(stats: dict[str, Any], name: str) -> int | None:
    """A sheet entry by its declared name or any spelling of it (繁/简, alias)."""
    declared = ap20.SYSTEM.stat(name)
    spellings = {fold(s) for s in (name, *(declared.aliases if declared else ()))}
    for key, value in stats.items():
        if fold(key) in spellings:
            return int(value)
    return None


async def sheet_of(ctx: Context, fighter: Fighter) -> Sheet | None:
    """A player's fighter's sheet at this table (None for a GM-run fighter)."""
    if fighter.character_id is None:
        return None
    return await ctx.uow.sheet(fighter.character_id)


async def numbers(ctx: Context, fighter: Fighter) -> dict[str, int]:
    """A fighter's numbers under the rules' keys (``armor``, ``hit``, ``hp`` …, and each
    attribute under its sheet name): a player's from the sheet, a GM-run one's stored."""
    character = await sheet_of(ctx, fighter)
    if character is None:
        return dict(fighter.stats)
    stats = dict(character.stats or {})
    found: dict[str, int] = {}
    for key, name in ap20.KEYS.items():
        value = sheet_value(stats, name)
        if value is not None:
            found[key] = value
    for name in ap20.ATTRIBUTES:
        value = sheet_value(stats, name)
        if value is not None:
            found[name] = value
    if "hp" in found:  # issue 24: a sheet's 生命 counts up to the fighter's maximum
        found["hp"] = ap20.hp_within(found["hp"], fighter.hp_max)
    return found


def attribute(values: dict[str, int], name: str) -> int | None:
    """An attribute score from a fighter's numbers (敏捷 also as ``dex``, 體質 ``con``)."""
    if name in values:
        return values[name]
    return values.get({"敏捷": "dex", "體質": "con"}.get(name, ""))


async def life_of(ctx: Context, fighter: Fighter) -> Life:
    """The fighter's life state (decisions 12, 14): its HP read where it lives."""
    return ap20.life(fighter, (await numbers(ctx, fighter)).get("hp"))


async def require_able(ctx: Context, fighter: Fighter) -> None:
    """Refuse an action by (or for) a fighter that is down or dead (issue 24)."""
    require_active(fighter.name, await life_of(ctx, fighter))


def numbers_hidden(ctx: Context, fighter: Fighter) -> bool:
    """A GM-run fighter's numbers are the GMs' (issue 24) until a GM reveals them; a
    channel without GMs keeps nothing from anyone."""
    return fighter.owner is None and not fighter.revealed and bool(ctx.gm_users)


SHORT_OF = {"ap20.ap_insufficient": "ap", "ap20.mp_insufficient": "mp",
            "ap20.stamina_insufficient": "stamina"}
"""The rules' refusals for want of points, and the pool each names."""


@contextmanager
def points_kept(ctx: Context, fighter: Fighter) -> Iterator[None]:
    """A refusal for want of points, for a fighter whose numbers are the GMs', names the
    pool, not what is left (issue 24: a refusal is read in the channel)."""
    try:
        yield
    except RuleError as exc:
        pool = SHORT_OF.get(exc.code)
        if pool is None or not numbers_hidden(ctx, fighter):
            raise
        raise CommandError("ap20.error.short_hidden", name=fighter.name,
                           pool=ctx.t(f"ap20.stat.{pool}")) from exc


async def set_hp(ctx: Context, fighter: Fighter, combat: Combat, value: int
                 ) -> tuple[Combat, int | None, int]:
    """A fighter's HP to ``value`` within 0 … its maximum (issue 24): its sheet's 生命
    for a player, the fight's number for a GM-run one; the fight and HP before, after."""
    after = ap20.hp_within(value, fighter.hp_max)
    character = await sheet_of(ctx, fighter)
    if character is None:
        return (ap20.update(combat, fighter.name, stats={**fighter.stats, "hp": after}),
                fighter.hp, after)
    stats = dict(character.stats or {})
    name = next((k for k in stats if fold(k) in {fold("生命"), fold("HP")}), "生命")
    before = int(stats[name]) if name in stats else None
    stats[name] = after
    character.stats = stats
    return combat, before, after


async def write_hp(ctx: Context, fighter: Fighter, combat: Combat, taken: int
                   ) -> tuple[Combat, int | None, int | None]:
    """Take ``taken`` HP off a fighter (never below 0). (None, None) when it has no HP
    to show."""
    hp = (await numbers(ctx, fighter)).get("hp")
    if hp is None:
        return combat, None, None
    combat, _, after = await set_hp(ctx, fighter, combat, hp - taken)
    return combat, hp, after


# --------------------------------------------------------------------------- who


def find(combat: Combat, typed: str) -> Fighter:
    """A fighter by name: as written, case-insensitively, then 繁/简-folded."""
    found = combat.find(typed)
    if found is None:
        key = fold(typed)
        found = next((f for f in combat.fighters if fold(f.name) == key), None)
    if found is None:
        raise CommandError("ap20.error.unknown_fighter", name=typed.strip()[:ECHO],
                           known=" / ".join(f.name for f in combat.fighters))
    return found


async def own_fighter(ctx: Context, combat: Combat) -> Fighter | None:
    """The speaker's fighter: their active character's, else the one they run."""
    character = await ctx.uow.active_sheet(ctx.user)
    if character is not None:
        mine = next((f for f in combat.fighters if f.character_id == character.id), None)
        if mine is not None:
            return mine
    return next((f for f in combat.fighters if f.owner == ctx.user), None)


async def actor(ctx: Context, combat: Combat, named: str | None) -> Fighter:
    """Who acts: the fighter named (the speaker's own, or anyone's for a GM), else the
    speaker's own fighter, else — for a GM — the fighter whose turn it is."""
    if named:
        fighter = find(combat, named)
        require_speaker(ctx, fighter.name, fighter.owner)
        return fighter
    mine = await own_fighter(ctx, combat)
    if mine is not None:
        return mine
    current = combat.actor
    if current is not None and current.owner is None and may_speak_for(ctx, None):
        return current  # the GM plays the GM-run fighter whose turn it is
    if current is not None and may_speak_for(ctx, current.owner):
        # a player's fighter is never the GM's by default: name it
        raise CommandError("ap20.error.name_actor", actor=current.name)
    raise CommandError("ap20.error.no_fighter")


# --------------------------------------------------------------------------- layer hooks


async def roster_hook(ctx: Context) -> layers.Roster | None:
    """``bot.kits.layers.ROSTER``: the fight as a roster for a tactical layer."""
    combat = await load(ctx)
    if combat is None:
        return None
    lives = [await life_of(ctx, f) for f in combat.fighters]
    members = tuple(layers.Member(f.name, f.side, f.owner, f.character_id,
                                  life is Life.ACTIVE, life)
                    for f, life in zip(combat.fighters, lives, strict=True))
    actor_ = combat.actor
    return layers.Roster(members, actor_.name if actor_ else None, combat.round)


LAYER_ACTIONS = {"instant": "reaction", "tactical": "standard"}
"""v6 decision 1: an instant action costs what a reaction (瞬發) does, 1 AP; a tactical
action what a standard action does, 3 AP — and, like one, only on one's own turn."""


async def charge_hook(ctx: Context, name: str, kind: str, count: int) -> layers.Charge:
    """``bot.kits.layers.CHARGE``: a layer's actions paid in action points (AP-1)."""
    combat = await running(ctx)
    fighter = find(combat, name)
    await require_able(ctx, fighter)
    action = LAYER_ACTIONS[kind]
    cost = ap20.ACTIONS[action][0] * count
    what = ctx.t(f"ap20.layer_action.{kind}", count=count)
    try:
        ap20.check_turn(combat, fighter.name, action)
    except RuleError as exc:
        raise CommandError("ap20.error.charge_turn", action=what,
                           actor=exc.params["actor"]) from exc
    if fighter.ap - cost < 0 and numbers_hidden(ctx, fighter):  # say no number
        raise CommandError("ap20.error.short_hidden", name=fighter.name,
                           pool=ctx.t("ap20.stat.ap"))
    if fighter.ap - cost < 0:
        raise CommandError("ap20.error.charge_ap", action=what, cost=cost, points=fighter.ap)
    combat = ap20.update(combat, fighter.name, ap=fighter.ap - cost)
    save(ctx, combat)
    return layers.Charge(fighter.name, kind, count, "ap", cost, fighter.ap, fighter.ap - cost)


def refreshed(fighter: Fighter, values: dict[str, int]) -> Fighter:
    """A player's fighter with its AP max from the sheet (行動力, default 6)."""
    ap_max = values.get("ap", fighter.ap_max)
    return replace(fighter, ap_max=max(0, ap_max))
