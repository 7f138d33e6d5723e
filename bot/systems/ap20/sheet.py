"""`.st` on an ap20 sheet's 生命 (issue 24, decision 17): within 0 … the maximum, and in
a fight the GM's.

A fighter's HP in a fight changes by the rules (an attack, `.dmg`) or by whoever may
`.init set` it — a GM; at a table without GMs its player. A player at a table with a GM
who types `.st 生命 18` in a fight is refused, naming `.init set`. Everywhere 生命 stays
within 0 … the maximum: the fight's for a fighter, else the sheet's 生命上限 (no cap
when the sheet has none), and the reply says so.
"""

from __future__ import annotations

from bot.context import Context
from bot.errors import CommandError
from bot.names import fold
from bot.systems.ap20.state import load, save, sheet_value
from bot.unit_of_work import Sheet
from rules.systems import ap20

HP, HP_MAX = "生命", "生命上限"


async def hp_on_the_sheet(ctx: Context, character: Sheet, name: str, old: int | None,
                          new: int) -> list[str] | None:
    """``bot.systems.SheetGuard`` for ap20: None lets `.st` write ``new``; a line when
    the value written is the bound instead (the guard wrote it)."""
    if fold(name) not in (fold(HP), fold(HP_MAX)):
        return None
    combat = await load(ctx)
    fighter = None if combat is None else next(
        (f for f in combat.fighters if f.character_id == character.id), None)
    if fighter is not None and ctx.gm_users and not ctx.is_gm:
        raise CommandError("ap20.error.st_hp_in_fight", name=character.name)
    if fold(name) == fold(HP_MAX):
        if combat is not None and fighter is not None:  # the fight's maximum follows
            save(ctx, ap20.update(combat, fighter.name, hp_max=max(0, new)))
        return None
    top = fighter.hp_max if fighter is not None else sheet_value(dict(character.stats),
                                                                 HP_MAX)
    after = ap20.hp_within(new, top)
    if after == new:
        return None
    character.stats = {**character.stats, name: after}
    note = ctx.t("ap20.sheet.top", top=top) if after != 0 else ctx.t("ap20.sheet.floor")
    change = f"{name}:{old}→{after}" if old is not None else f"{name}:{after}"
    return [ctx.t("core.st.set", pc=character.name, changes=change + note)]
