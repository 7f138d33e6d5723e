"""Who fights: enemy definitions as the GM writes them, and newcomers entering a
running battle (`.battle join`, `.battle add`, `.enemy add`) the same way."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from bot.context import Context
from bot.errors import CommandError
from bot.messages import Outgoing
from bot.names import fold, visible_name
from bot.systems.plurk_trpg.battle_args import MAX_VALUE
from bot.systems.plurk_trpg.battle_state import ARMOR_SPELLINGS, save_battle, stat_spellings
from bot.systems.plurk_trpg.battle_text import (
    battle_data,
    combatant_line,
    hp_text,
    initiative_line,
    kept_from_channel,
    shows_numbers,
    turn_line,
)
from bot.systems.plurk_trpg.documents import Setup, StoredBattle
from bot.systems.plurk_trpg.system import CON, DEX, HP
from bot.unit_of_work import Sheet
from rules.errors import RuleError
from rules.systems import plurk_trpg as plurk
from rules.systems.plurk_trpg import Battle, Entrant

MAX_NAME = 30
MAX_ENEMIES = 40

# --------------------------------------------------------------------------- enemy definitions

_FIELDS: dict[str, tuple[str, ...]] = {
    "dex": stat_spellings(DEX),
    "con": stat_spellings(CON),
    "hp": stat_spellings(HP),
    "armor": ARMOR_SPELLINGS,
    "bp_max": ("bp", "bpmax", "BP上限"),
    "weapon_durability": ("durability", "dur", "耐久", "耐久度"),
    "position": ("at", "pos", "位置"),
    "perception": ("觀察", "观察", "盲覺", "盲觉", "perception"),
    "stealth": ("潛行", "潜行", "stealth"),
}
_FLAGS: dict[str, tuple[str, Any]] = {
    **{fold(w): ("human_like", True) for w in ("human", "人形", "人類", "humanlike")},
    **{fold(w): ("human_like", False) for w in ("monster", "怪物", "非人")},
    **{fold(w): ("kind", "ally") for w in ("ally", "友方", "盟友")},
    **{fold(w): ("kind", "enemy") for w in ("enemy", "敵方", "敵人")},
}
_OPTION = re.compile(r"^(?P<key>[^\d=:：\s]+)\s*[=:：]?\s*(?P<value>-?\d+|[A-Za-z]\d{1,2})$")
_MINIMUM = {"hp": 1, "armor": 0, "bp_max": 0, "weapon_durability": 0}
"""An enemy starts alive (hp ≥ 1); armor, BP and durability are never negative."""


def field_for(key: str) -> str | None:
    """The `Entrant` field an option names (``靈巧`` / ``dex`` → ``dex``)."""
    folded = fold(key)
    for name, spellings in _FIELDS.items():
        if any(fold(s) == folded for s in spellings):
            return name
    return None


def parse_enemy(text: str) -> dict[str, Any]:
    """`食屍鬼 靈巧=12 hp=20 armor=2 human at=B3` → the fields of an enemy `Entrant`."""
    tokens = text.split()
    if not tokens:
        raise CommandError("plurk.error.battle.enemy_usage")
    name = visible_name(tokens[0])
    if len(name) > MAX_NAME or field_for(name.split("=")[0]) is not None:
        raise CommandError("plurk.error.battle.enemy_usage")
    values: dict[str, Any] = {"name": name, "kind": "enemy"}
    for token in tokens[1:]:
        flag = _FLAGS.get(fold(token))
        if flag is not None:
            values[flag[0]] = flag[1]
            continue
        match = _OPTION.match(token)
        key = field_for(match["key"]) if match else None
        if match is None or key is None:
            raise CommandError("plurk.error.battle.enemy_option", option=token[:30])
        raw = match["value"]
        if key == "position":
            values[key] = raw.upper()
        elif not re.fullmatch(r"-?\d+", raw) or abs(int(raw)) > MAX_VALUE:
            raise CommandError("plurk.error.battle.enemy_option", option=token[:30])
        elif int(raw) < _MINIMUM.get(key, -MAX_VALUE):
            raise CommandError("plurk.error.battle.enemy_value_min", option=token[:30],
                               field=match["key"], minimum=_MINIMUM[key])
        else:
            values[key] = int(raw)
    if "hp" not in values:  # an enemy without HP can be hit by nobody (issue 24)
        raise CommandError("plurk.error.battle.enemy_hp_missing", name=name)
    return values


def enemy_entrant(values: dict[str, Any]) -> Entrant:
    """The `Entrant` of a stored enemy definition."""
    allowed = {f.name for f in dataclasses.fields(Entrant)}
    return Entrant(**{k: v for k, v in values.items() if k in allowed})


def free_name(name: str, taken: list[str]) -> str:
    """``name`` if nobody (folded: 狂信者 = 狂信者) is called so, else ``name2``,
    ``name3`` … — the first number free (issue 12 item 13)."""
    used = {fold(t) for t in taken}
    if fold(name) not in used:
        return name
    number = 2
    while fold(f"{name}{number}") in used:
        number += 1
    return f"{name}{number}"


def remember_enemy(setup: Setup, values: dict[str, Any],
                   battle: Battle | None = None) -> str | None:
    """Keep a definition for the next battle. A name already defined (or fighting)
    is numbered — a second 狂信者 is 狂信者2 — never replacing the first; returns
    the name asked for when it was numbered, else None."""
    if len(setup.enemies) >= MAX_ENEMIES:
        raise CommandError("plurk.error.battle.too_many_enemies", limit=MAX_ENEMIES)
    asked = values["name"]
    taken = [e["name"] for e in setup.enemies]
    taken += [c.name for c in battle.combatants] if battle is not None else []
    values["name"] = free_name(asked, taken)
    if len(values["name"]) > MAX_NAME:
        raise CommandError("plurk.error.battle.enemy_usage")
    setup.enemies.append(values)
    return asked if values["name"] != asked else None


def enemy_line(ctx: Context, e: dict[str, Any], *, item: bool = True) -> str:
    """One enemy definition with its numbers (BP max from 靈巧 unless given): an
    ``item`` of a list (bulleted), or alone (the answer to `.enemy add`)."""
    entrant = enemy_entrant(e)
    human = entrant.human_like if entrant.human_like is not None else entrant.kind != "enemy"
    line = ctx.t(
        "plurk.battle.enemy_line", name=entrant.name, dex=entrant.dex, con=entrant.con,
        hp=hp_text(ctx, entrant.hp), armor=entrant.armor,
        bp=entrant.bp_max if entrant.bp_max is not None else plurk.bp_max_for(entrant.dex),
        kind=ctx.t(f"plurk.battle.kind.{entrant.kind}"),
        human=ctx.t("plurk.battle.human_like") if human else ctx.t("plurk.battle.not_human_like"),
    )
    return ctx.t("plurk.battle.enemy_item", line=line) if item else line


# --------------------------------------------------------------------------- entering


def enter(ctx: Context, stored: StoredBattle, battle: Battle, entrant: Entrant,
          character: Sheet | None = None, *, note: str | None = None) -> list[Outgoing]:
    """Bring a newcomer into the running battle with its own initiative roll (PL-14),
    linking an investigator to its sheet, and say where it stands in the order."""
    if character is not None:
        refuse_second_entry(stored, character)
    battle = plurk.add_combatant(battle, entrant, ctx.dice)
    save_battle(ctx, stored, battle,
                sheets={character.name: character.id} if character else None)
    newcomer = battle.get(entrant.name)
    index = battle.index_of(newcomer.name)

    def text(numbers: bool) -> str:
        lines = [ctx.t("plurk.battle.added", line=initiative_line(ctx, index, newcomer, numbers))]
        if numbers:  # the GMs' copy: the newcomer's place with its BP and HP
            lines.append(combatant_line(ctx, battle, index, True))
        return "\n".join([*([note] if note else []), *lines, turn_line(ctx, battle, numbers)])

    data = battle_data("add", battle)
    if not shows_numbers(ctx, newcomer):
        return kept_from_channel(ctx, text(False), text(True), data)
    return [ctx.reply(text(False), data)]


def refuse_second_entry(stored: StoredBattle, character: Sheet) -> None:
    """A sheet fights once: after a `.pc rename` its combatant keeps the old name, so
    the rules' duplicate-name check alone would let it enter a second time."""
    for name, character_id in stored.sheets.items():
        if character_id == character.id:
            raise RuleError("plurk.battle_duplicate_name", name=name)
