"""`plurk` field as a picture (issue 16 item 3): the running battle as the neutral
:class:`~bot.kits.field_picture.FieldView` the picture kit draws.

Each combatant shows its board marker (the one the text board uses), its side
(investigators, allies, enemies), its HP and whose turn it is. The system has no
facing, so none is drawn. HP bars need a maximum: an enemy's or ally's is the HP of
its definition (``.enemy add … hp=20``; a numbered copy ``狂信者2`` uses
``狂信者``'s); an investigator's sheet keeps only the current 體力, so the picture
shows that number without a bar.
"""

from __future__ import annotations

import asyncio
import re
from typing import TYPE_CHECKING

from bot.context import Context
from bot.kits.encounter import life_text, life_words
from bot.messages import Attachment
from bot.systems.plurk_trpg.battle_state import assign_marks
from bot.systems.plurk_trpg.battle_text import enemy_band, shows_numbers, turn_line
from bot.systems.plurk_trpg.documents import Setup, StoredBattle
from rules.kits import grid
from rules.kits.encounter import Life
from rules.systems.plurk_trpg import Battle, Combatant

if TYPE_CHECKING:  # the kit imports Pillow: loaded on the first picture, not at start
    from bot.kits.field_picture import FieldView

PICTURE_NAME = "field.png"
_NUMBERED = re.compile(r"^(.*\D)\d+$")
_TAGS = ("parry", "stuck", "unconscious", "down")


def hp_max(setup: Setup, combatant: Combatant) -> int | None:
    """The HP an enemy or ally was defined with (a numbered copy: its original's),
    never below its HP now; None for investigators and undefined combatants."""
    if combatant.kind == "investigator" or combatant.hp is None:
        return None
    if combatant.hp_max is not None:
        return max(combatant.hp_max, combatant.hp)
    definition = setup.enemy(combatant.name)
    numbered = _NUMBERED.match(combatant.name)
    if definition is None and numbered is not None:
        definition = setup.enemy(numbered.group(1))
    defined = definition.get("hp") if definition is not None else None
    if not isinstance(defined, int) or defined <= 0:
        return None
    return max(defined, combatant.hp)


def note(ctx: Context, c: Combatant, life: bool = True) -> str:
    """Parry, stuck weapon, unconsciousness or down, in the reader's words."""
    tags = []
    if c.parry_against is not None:
        durability = ctx.t("plurk.battle.hp_unknown") if c.weapon_durability is None \
            else str(c.weapon_durability)
        tags.append(ctx.t("plurk.battle.tag.parry", enemy=c.parry_against,
                          durability=durability))
    if c.stuck_in is not None:
        tags.append(ctx.t("plurk.battle.tag.stuck", target=c.stuck_in))
    if c.unconscious:
        tags.append(ctx.t("plurk.battle.tag.unconscious", turns=c.unconscious))
    elif c.life is not Life.ACTIVE and life:
        tags.append(ctx.t("plurk.battle.tag.down", life=life_text(ctx, c.life)))
    return " ".join(tag.strip(" ｜|") for tag in tags)


def field_view(ctx: Context, stored: StoredBattle, battle: Battle, setup: Setup) -> FieldView:
    """The running battle as the picture shows it, combatants in initiative order."""
    from bot.kits.field_picture import FieldPiece, FieldView

    marks = assign_marks(stored.marks, [c.name for c in battle.combatants])
    pieces = []
    for c in battle.combatants:
        cell = grid.parse_cell(c.position) if c.position is not None else None
        shown = shows_numbers(ctx, c)  # an enemy's HP is the GMs' (issue 24): its band
        pieces.append(FieldPiece(
            name=c.name, mark=marks.get(c.name, "?"), cell=cell,
            side="enemy" if c.kind == "enemy" else "ally" if c.kind == "ally" else "party",
            hp=c.hp if shown else None, hp_max=hp_max(setup, c) if shown else None,
            note=note(ctx, c) if shown else " ".join(filter(None, [
                enemy_band(ctx, c), note(ctx, c, life=False)])),
            life=c.life))  # down or dead, marked on the picture (issue 24)
    actor = battle.actor
    return FieldView(battle.width, battle.height, tuple(pieces),
                     current=actor.name if actor.can_act else None,
                     title=turn_line(ctx, battle), lang=ctx.locale, life_words=life_words(ctx))


async def field_picture(ctx: Context, stored: StoredBattle, battle: Battle,
                        setup: Setup) -> tuple[Attachment, bool]:
    """The PNG to send with the board, and whether every name is in it (False when
    this host has no font for them: the reply says so, the text board has them).
    Drawn in a thread: other channels' commands go on meanwhile."""
    from bot.kits.field_picture import render_field

    picture = await asyncio.to_thread(render_field, field_view(ctx, stored, battle, setup))
    return Attachment(PICTURE_NAME, picture.png, "picture"), picture.complete
