"""The `.map` picture (issue 24 item 9): the v6 field as the neutral
:class:`~bot.kits.field_picture.FieldView` the shared renderer draws (plurk's `.field
png` is drawn by the same kit).

Each combatant shows its letter (the one the text board uses), its side, facing,
posture (站立 upright; 蹲伏, 騎坐 low; 匍匐, 躺倒 prone), base size (V6-4: a cell is a
step, a large base 1.4 steps across, a huge one 2.4) and whether it can fight (the
base's roster: one that cannot is down). The legend's note names posture, size and
fatigue (an enemy's not: the GMs'); no HP is shown — the numbers are the base's, and
an enemy's are the GM's.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.context import Context
from bot.kits.encounter import life_words
from bot.kits.layers import Member, Roster
from bot.messages import Attachment
from bot.systems.v6.state import label, numbers_hidden, sense_text
from rules.kits.encounter import Life
from rules.systems import v6
from rules.systems.v6 import Field, Unit

if TYPE_CHECKING:  # the kit imports Pillow: loaded on the first picture, not at start
    from bot.kits.field_picture import FieldPiece, FieldView

PICTURE_NAME = "map.png"
POSTURES = {"stand": "upright", "crouch": "low", "sit": "low", "crawl": "prone",
            "lie": "prone"}
"""V6-2's postures as the picture draws them."""


def note(ctx: Context, unit: Unit, *, hidden: bool = False) -> str:
    """Posture, base size when not medium, sense when not the usual (食草 / 震感, as the
    text legend), fatigue — not when ``hidden`` (an enemy's, the GMs')."""
    size = ctx.t("v6.map.size", size=label(ctx, "size", unit.size)) \
        if unit.size != "medium" else ""
    sense = sense_text(ctx, unit)
    fatigue = "" if hidden else ctx.t("v6.map.fatigue", fatigue=unit.fatigue)
    return ctx.t("v6.map.note", posture=label(ctx, "posture", unit.posture), size=size,
                 sense=sense, fatigue=fatigue)


def life_of(member: Member | None) -> Life:
    """The life state the base reports (dead stays dead); a member that cannot fight
    without one is down; someone not in the fight is drawn as active."""
    if member is None:
        return Life.ACTIVE
    if member.life is not Life.ACTIVE:
        return member.life
    return Life.ACTIVE if member.able else Life.DOWN


def piece(ctx: Context, roster: Roster | None, unit: Unit, mark: str) -> FieldPiece:
    from bot.kits.field_picture import FieldPiece

    member = roster.find(unit.name) if roster is not None else None
    side = member.side if member is not None else "party"
    return FieldPiece(
        name=unit.name, mark=mark, cell=unit.cell, side="enemy" if side == "foe" else side,
        facing=float(unit.facing), life=life_of(member),
        posture=POSTURES.get(unit.posture, "upright"), size=v6.SIZES.get(unit.size, 1.0),
        note=note(ctx, unit, hidden=numbers_hidden(ctx, member)))


def map_view(ctx: Context, f: Field, roster: Roster | None, placed: Sequence[Unit],
             unplaced: Sequence[str]) -> FieldView:
    """The field as the picture shows it: the placed combatants lettered as on the text
    board (``a``, ``b``, …), then those not on the field."""
    from bot.kits.field_picture import FieldView

    pieces = [piece(ctx, roster, u, chr(ord("a") + i) if i < 26 else "?")
              for i, u in enumerate(placed)]
    pieces += [piece(ctx, roster, f.unit(name), "") for name in unplaced]
    return FieldView(f.width, f.height, tuple(pieces),
                     current=roster.current if roster is not None else None,
                     title=ctx.t("v6.map.title", width=f.width, height=f.height),
                     lang=ctx.locale, life_words=life_words(ctx), hp=False)


async def map_picture(ctx: Context, f: Field, roster: Roster | None, placed: Sequence[Unit],
                      unplaced: Sequence[str]) -> Attachment:
    """The PNG sent with `.map`'s text (drawn in a thread: other channels' commands go
    on meanwhile). The text stays the full answer where a picture cannot be sent."""
    from bot.kits.field_picture import render_field

    picture = await asyncio.to_thread(render_field,
                                      map_view(ctx, f, roster, placed, unplaced))
    return Attachment(PICTURE_NAME, picture.png, "picture")
