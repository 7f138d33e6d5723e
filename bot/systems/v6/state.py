"""The stored field, the base's fight behind it (through ``bot.kits.layers``), the sheets'
movement numbers, and the hook that judges an attack (``bot.kits.layers.ATTACK``)."""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import replace
from typing import Any

from bot.context import Context
from bot.errors import CommandError
from bot.kits import layers
from bot.kits.encounter import life_text
from bot.kits.layers import Member, Roster
from bot.kits.references import may_act_for
from bot.names import fold
from bot.systems.v6.documents import FIELD
from rules.errors import RuleError
from rules.kits.advantage import AttackTactics
from rules.kits.encounter import Life, require_active
from rules.kits.grid import Coord, cell_name, parse_cell
from rules.systems import v6
from rules.systems.v6 import Field, Unit

ECHO = 30
STAT_KEYS = {"stride": "步幅", "agility": "靈巧", "might": "強壯"}
"""The rules' movement numbers → the sheet names they are read from (V6-3)."""


def require_v6(ctx: Context) -> None:
    if not layers.is_on(ctx, "v6"):
        raise CommandError("v6.error.wrong_system", system=ctx.channel.system)


async def load(ctx: Context) -> Field:
    """The field as of now: only the combatants still in the base's fight (one who
    left frees its cell at once), and what was done on an earlier turn forgotten."""
    require_v6(ctx)
    f = await ctx.uow.load(FIELD)
    roster = await layers.roster(ctx)
    if roster is None:
        return f
    return f.keep(m.name for m in roster.members).on_turn(turn_key(roster))


def turn_key(roster: Roster) -> str:
    """The base's round and actor: what the field's turn marks belong to."""
    return f"{roster.round}:{roster.current}" if roster.current is not None else ""


def save(ctx: Context, f: Field) -> None:
    """Keep the field when the command commits."""
    ctx.uow.save(FIELD, f)


async def fight(ctx: Context) -> Roster:
    """The base's fight (v6 places only its combatants)."""
    roster = await layers.roster(ctx)
    if roster is None:
        raise CommandError("v6.error.no_fight")
    return roster


def member(roster: Roster, typed: str) -> Member:
    found = roster.find(typed)
    if found is None:
        raise CommandError("v6.error.not_in_fight", name=typed.strip()[:ECHO],
                           known=" / ".join(m.name for m in roster.members))
    return found


def may_speak_for(ctx: Context, who: Member) -> bool:
    """The player moves their own combatant, a GM anyone; in a channel without GMs
    anyone a GM-run combatant, never another player's (issue 22)."""
    return may_act_for(ctx, who.owner)


def require_speaker(ctx: Context, who: Member) -> None:
    """Refuse a speaker who may not act for ``who``, saying whose it is (a GM-run
    combatant is the GMs')."""
    if not may_speak_for(ctx, who):
        key = "not_yours" if who.owner is not None else "gms_own"
        raise CommandError(f"v6.error.{key}", name=who.name)


async def mover(ctx: Context, roster: Roster, named: str | None) -> Member:
    """Who acts — and can (issue 24: the fallen cannot move, turn or change posture)."""
    who = await _mover(ctx, roster, named)
    require_active(who.name, who.life)
    return who


async def _mover(ctx: Context, roster: Roster, named: str | None) -> Member:
    """Who acts: the one named (own, or anyone for a GM), else the speaker's own
    combatant (their active character's), else for a GM the one whose turn it is."""
    if named:
        who = member(roster, named)
        require_speaker(ctx, who)
        return who
    character = await ctx.uow.active_sheet(ctx.user)
    mine = [m for m in roster.members if m.owner == ctx.user]
    if character is not None:
        mine.sort(key=lambda m: m.character_id != character.id)
    if mine:
        return mine[0]
    if roster.current is not None:
        current = member(roster, roster.current)
        if current.owner is None and may_speak_for(ctx, current):
            return current  # the GM plays the GM-run combatant whose turn it is
        if may_speak_for(ctx, current):
            raise CommandError("v6.error.name_actor", actor=current.name)
    raise CommandError("v6.error.no_combatant")


def own_turn(roster: Roster, who: Member) -> None:
    """V6-1 (facing) and V6-3 (an active move): only on one's own turn, once the fight
    has started."""
    if roster.current is not None and roster.current != who.name:
        raise CommandError("v6.error.not_your_turn", name=who.name, actor=roster.current)


async def movement(ctx: Context, who: Member, unit: Unit) -> dict[str, int]:
    """``stride`` / ``agility`` / ``might``: a player's from the sheet (步幅 靈巧 強壯), a
    GM-run combatant's from the field; the stride defaults to 3 (decision 8)."""
    values = dict(unit.stats)
    if who.character_id is not None:
        character = await ctx.uow.sheet(who.character_id)
        if character is not None:
            for key, name in STAT_KEYS.items():
                declared = v6.SYSTEM.stat(name)
                spellings = {fold(s) for s in (name, *(declared.aliases if declared else ()))}
                for sheet_name, value in (character.stats or {}).items():
                    if fold(sheet_name) in spellings:
                        values[key] = int(value)
    values.setdefault("stride", v6.DEFAULT_STRIDE)
    return values


def cell(text: str) -> Coord:
    found = parse_cell(text)
    if found is None:
        raise CommandError("v6.error.bad_cell", cell=text[:ECHO])
    return found


def looks_like_cell(text: str) -> bool:
    return re.fullmatch(r"[A-Za-z]\d{1,2}", text.strip()) is not None


def label(ctx: Context, group: str, key: str) -> str:
    full = f"v6.{group}.{key}"
    return ctx.t(full) if ctx.has(full) else key


ARROWS = "↑↗→↘↓↙←↖"


def arrow(facing: int) -> str:
    return ARROWS[round(facing / 45) % 8]


def unit_text(ctx: Context, unit: Unit, life: Life = Life.ACTIVE, *,
              sized: bool = False, hidden: bool = False) -> str:
    """A combatant on the field: cell, facing, posture, its base size when ``sized`` and
    not medium (the map's legend, as the picture's), sense (食草 / 震感 when not the
    usual), fatigue (not when ``hidden``: an enemy's, the GMs'), and its life state
    when fallen."""
    size = ctx.t("v6.map.size", size=label(ctx, "size", unit.size)) \
        if sized and unit.size != "medium" else ""
    where = cell_name(*unit.cell) if unit.cell else ctx.t("v6.field.offboard")
    sense = sense_text(ctx, unit)
    fallen = ctx.t("v6.field.fallen", life=life_text(ctx, life)) \
        if life is not Life.ACTIVE else ""
    fatigue = "" if hidden else ctx.t("v6.field.fatigue", fatigue=unit.fatigue)
    return ctx.t("v6.field.unit", name=unit.name, cell=where, arrow=arrow(unit.facing),
                 facing=unit.facing, posture=label(ctx, "posture", unit.posture),
                 fatigue=fatigue, sense=sense, size=size) + fallen


def sense_text(ctx: Context, unit: Unit) -> str:
    """A sense that is not the usual (食草 / 震感, V6-1), else nothing."""
    return ctx.t("v6.field.sense", sense=label(ctx, "sense", unit.sense)) \
        if unit.sense != "normal" else ""


def numbers_hidden(ctx: Context, who: Member | None) -> bool:
    """A GM-run combatant's movement numbers — fatigue, stride, agility, might and the
    action points it pays — are the GMs' at a table with GMs (issue 24), as the base
    keeps its other numbers. The layer cannot tell whether the base revealed them: a
    revealed enemy's fatigue stays the GMs' too (`.fatigue` tells them)."""
    return who is not None and who.owner is None and bool(ctx.gm_users)


def hidden_names(ctx: Context, roster: Roster | None) -> frozenset[str]:
    """The combatants whose movement numbers the channel does not read."""
    members = roster.members if roster is not None else ()
    return frozenset(m.name for m in members if numbers_hidden(ctx, m))


PUBLIC_UNIT = ("name", "cell", "facing", "posture", "size", "sense")
"""What the channel's data keeps of a combatant in ``hidden_names``: what anyone sees."""


def field_data(f: Field, event: str, *, hidden: Collection[str] = (),
               **extra: Any) -> dict[str, Any]:
    """A field reply's data: the stored field, the combatants in ``hidden`` without
    their fatigue and movement numbers."""
    dumped = FIELD.dump(f)
    dumped["units"] = [{k: u[k] for k in PUBLIC_UNIT} if u["name"] in hidden else u
                       for u in dumped["units"]]
    return {"kind": "v6.field", "event": event, "field": dumped, **extra}


# --------------------------------------------------------------------------- the hook


async def attack_hook(ctx: Context, query: layers.AttackQuery) -> tuple[AttackTactics, str]:
    """``bot.kits.layers.ATTACK``: V6-1 / V6-2 on one attack — and its note. An attack
    by the combatant whose turn it is is its tactical action (decision 12: a move
    after it is a standalone one)."""
    f = await load(ctx)
    if query.roster.current is not None and query.attacker == query.roster.current:
        save(ctx, replace(f, acted=True))
    try:
        verdict = v6.tactics(f, query.attacker, query.target, query.kind,
                             query.roster.allies(query.attacker))
    except RuleError as exc:
        if exc.code == "v6.crawl_attack":
            raise RuleError(exc.code, kind=label(ctx, "kind", str(exc.params["kind"]))) from exc
        raise
    parts = [ctx.t("v6.note.layer", reason=label(ctx, "layer", layer.reason),
                   amount=f"{layer.amount:+d}") for layer in verdict.layers]
    facts = dict(verdict.facts)
    if facts.get("sector") in ("side", "back"):
        parts.append(label(ctx, "sector", str(facts["sector"])))
    if "flank" in facts:
        parts.append(ctx.t("v6.note.flank", ally=facts["flank"]))
    return verdict, ctx.t("v6.note.sep").join(parts)
