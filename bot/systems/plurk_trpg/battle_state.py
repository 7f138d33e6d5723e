"""The stored battle: its preparation, the battle itself, and the sheets behind it.

State: the battle in the document ``BATTLE`` (a
:class:`~bot.systems.plurk_trpg.documents.StoredBattle`: the rules' ``Battle`` and the
links the chat side keeps with it; empty when no battle runs) and the preparation
that outlives a battle (who joined, defined enemies, GM costs and field size) in
``BATTLE_SETUP``. Both are written in the command's one transaction, so a restart
continues the battle and a concurrent writer in another process fails instead of
overwriting.

Investigators' sheets are the truth for their HP: :func:`running_battle` reads
it into the battle, :func:`write_sheet_hp` writes a hit back.
"""

from __future__ import annotations

from typing import Any

from bot.context import Context
from bot.errors import CommandError
from bot.kits.references import sheet_by_id, sheet_by_name
from bot.names import fold
from bot.systems.plurk_trpg.documents import BATTLE, BATTLE_SETUP, FatalEvent, Setup, StoredBattle
from bot.systems.plurk_trpg.fatal import pending_fatal
from bot.systems.plurk_trpg.system import CON, DEX, HP, require_plurk
from bot.unit_of_work import Sheet
from rules.kits.encounter import require_active
from rules.systems import plurk_trpg as plurk
from rules.systems.plurk_trpg import Battle, Combatant, Entrant

ARMOR_SPELLINGS = ("護甲", "armor", "防具")
DURABILITY_SPELLINGS = ("武器耐久", "耐久", "耐久度", "durability", "weapon_durability")
"""A sheet's declared weapon durability (PL-16); a weapon entry is ``短刀耐久`` or
``耐久:短刀``."""
PERCEPTION = ("觀察", "盲覺")
STEALTH = "潛行"
MARKS = "abcdefghijklmnopqrstuvwxyz@#$%&*+=?!~^"
"""Board markers (PL-15): lowercase letters, then symbols — never a column letter
(uppercase) nor a row number."""


# --------------------------------------------------------------------------- setup


async def load_setup(ctx: Context) -> Setup:
    require_plurk(ctx)
    return await ctx.uow.load(BATTLE_SETUP)


def save_setup(ctx: Context, setup: Setup) -> None:
    ctx.uow.save(BATTLE_SETUP, setup)


# --------------------------------------------------------------------------- battle


async def load_battle(ctx: Context) -> tuple[StoredBattle, Battle | None]:
    """The channel's battle as stored (None when none runs); see :func:`running_battle`."""
    require_plurk(ctx)
    stored = await ctx.uow.load(BATTLE)
    return stored, stored.battle


async def running_battle(ctx: Context) -> tuple[StoredBattle, Battle]:
    """The channel's battle, its investigators' HP refreshed from their sheets."""
    stored, battle = await load_battle(ctx)
    if battle is None:
        raise CommandError("plurk.error.battle.none")
    return stored, await sync_sheet_hp(ctx, stored, battle)


def save_battle(ctx: Context, stored: StoredBattle, battle: Battle | None, *,
                serial: int | None = None, sheets: dict[str, int] | None = None,
                weapons: dict[str, str] | None = None) -> StoredBattle:
    """Store the battle (nothing once over) beside what ``stored`` kept; returns what
    is stored now. ``serial`` numbers battles in the channel so that a fatal event
    resolved later touches only the battle it happened in (and starts a new battle:
    its sheet links start empty). ``sheets`` links investigators (by combatant name)
    to their sheet's id: a `.pc rename` during the battle does not cut a combatant
    from its sheet. ``weapons`` names the sheet entry an investigator's parrying
    weapon durability was read from. Every combatant gets a board marker once
    (``marks``) and keeps it."""
    if battle is None or battle.ended:
        saved = StoredBattle()
    else:
        new = serial is not None
        names = {c.name for c in battle.combatants}
        links = {**({} if new else stored.sheets), **(sheets or {})}
        arms = {**({} if new else stored.weapons), **(weapons or {})}
        saved = StoredBattle(
            battle, serial if serial is not None else stored.serial,
            sheets={k: v for k, v in links.items() if k in names},
            weapons={k: v for k, v in arms.items() if k in names},
            marks=assign_marks({} if new else stored.marks,
                               [c.name for c in battle.combatants]))
    ctx.uow.save(BATTLE, saved)
    return saved


def assign_marks(marks: dict[str, str], names: list[str]) -> dict[str, str]:
    """PL-15 board markers, given once and kept for the battle (a placement or a
    newcomer never changes anyone's marker): the lowercased ASCII initial when it
    is free, else the next free letter, then symbols. A removed combatant's marker
    is not reused in the same battle."""
    marks = dict(marks)
    new = [n for n in names if n not in marks]
    for name in new:
        initial = name[:1].lower()
        if initial.isascii() and initial.isalpha() and initial not in marks.values() \
                and not any(o[:1].lower() == initial for o in new if o != name):
            marks[name] = initial
    for name in new:
        if name not in marks:
            marks[name] = next((m for m in MARKS if m not in marks.values()), "?")
    return marks


# --------------------------------------------------------------------------- sheets


def sheet_value(stats: dict[str, Any], *spellings: str) -> int | None:
    """A number on a sheet under any of the spellings (folded: 体质 = 體質)."""
    keys = {fold(s) for s in spellings}
    for name, value in stats.items():
        if fold(name) in keys and isinstance(value, int):
            return value
    return None


def stat_spellings(canonical: str) -> tuple[str, ...]:
    """The declared name of a stat and its aliases (靈巧, DEX …)."""
    stat = plurk.SYSTEM.stat(canonical)
    return (canonical, *stat.aliases) if stat is not None else (canonical,)


async def sheet_for(ctx: Context, stored: StoredBattle, combatant: Combatant) -> Sheet | None:
    """The sheet of an investigator combatant: by the sheet's id linked when it
    entered (a renamed sheet stays linked), else — a battle stored before links were
    kept — by owner and name. None for enemies, allies and deleted sheets."""
    if combatant.kind != "investigator" or combatant.owner is None:
        return None
    character_id = stored.sheets.get(combatant.name)
    if character_id is None:
        return await sheet_by_name(ctx, combatant.owner, combatant.name)
    return await sheet_by_id(ctx, character_id, combatant.owner)


async def hp_waiting(ctx: Context, character: Sheet) -> list[FatalEvent]:
    """Pending HP fatal events of a sheet (PL-12): until they are settled the sheet's
    體力 is not the battle's."""
    return [e for e in await pending_fatal(ctx) if e.resource == HP and e.is_of(character)]


async def sync_sheet_hp(ctx: Context, stored: StoredBattle, battle: Battle) -> Battle:
    """Investigators' sheets are the truth for HP: a `.st 體力+3` between two
    battle commands counts. Enemies' HP lives only in the battle. An investigator
    with a pending HP fatal event keeps the battle's HP (the sheet waits for
    `.accept` / `.intervene`, PL-12)."""
    for combatant in battle.combatants:
        character = await sheet_for(ctx, stored, combatant)
        if character is None or await hp_waiting(ctx, character):
            continue
        hp = sheet_value(character.stats, *stat_spellings(HP))
        if hp is not None and hp != combatant.hp:
            battle = plurk.update_combatant(battle, combatant.name, hp=hp)
    return battle


async def fighting_as(ctx: Context, character: Sheet | None) -> Combatant | None:
    """The combatant a sheet fights as in the running battle (linked by the sheet's
    id when it entered), or None."""
    if character is None:
        return None
    stored = await ctx.uow.load(BATTLE)
    if stored.battle is None:
        return None
    name = next((n for n, i in stored.sheets.items() if i == character.id), None)
    return stored.battle.find(name) if name is not None else None


async def require_standing(ctx: Context, character: Sheet | None) -> None:
    """A check in a fight is an action: refused for an investigator who is down or
    dead in the running battle (issue 24), with its state."""
    combatant = await fighting_as(ctx, character)
    if combatant is not None:
        require_active(combatant.name, combatant.life)


async def write_sheet_hp(ctx: Context, stored: StoredBattle, combatant: Combatant,
                         hp: int) -> None:
    """Write an investigator's HP back to the sheet under the system's HP name."""
    character = await sheet_for(ctx, stored, combatant)
    if character is None:
        return
    spellings = {fold(s) for s in stat_spellings(HP)}
    stats = {k: v for k, v in character.stats.items() if fold(k) not in spellings}
    stats[HP] = hp
    character.stats = stats


def sheet_durability(stats: dict[str, Any], weapon: str | None = None
                     ) -> tuple[str, int] | None:
    """PL-16: (entry, value) of a weapon's durability on a sheet. With ``weapon``
    (``短刀``): ``短刀耐久`` / ``耐久:短刀`` (``durability:knife`` in English). Without:
    the declared ``武器耐久`` / ``耐久``, else the one weapon entry there is (several:
    None, name one)."""
    def number(key: str) -> tuple[str, int] | None:
        value = stats.get(key)
        return (key, value) if isinstance(value, int) else None

    folded = {fold(k): k for k in stats}
    if weapon is not None:
        w = fold(weapon)
        for wanted in (w + fold("耐久"), fold("耐久:") + w, fold("耐久：") + w,
                       "durability:" + w):
            if wanted in folded:
                return number(folded[wanted])
        return None
    for spelling in DURABILITY_SPELLINGS:
        if fold(spelling) in folded:
            return number(folded[fold(spelling)])
    entries = [k for k in stats if fold(k).endswith(fold("耐久")) or fold(k).startswith(
        (fold("耐久:"), fold("耐久："), "durability:"))]
    return number(entries[0]) if len(entries) == 1 else None


def entrant_from_sheet(owner: str, character: Sheet) -> Entrant:
    """An investigator entering a battle with the numbers on its sheet."""
    stats = character.stats
    durability = sheet_durability(stats)
    perception = [v for s in PERCEPTION
                  if (v := sheet_value(stats, *stat_spellings(s))) is not None]
    return Entrant(
        name=character.name,
        kind="investigator",
        dex=sheet_value(stats, *stat_spellings(DEX)) or 0,
        con=sheet_value(stats, *stat_spellings(CON)) or 0,
        owner=owner,
        hp=sheet_value(stats, *stat_spellings(HP)),
        armor=sheet_value(stats, *ARMOR_SPELLINGS) or 0,
        weapon_durability=durability[1] if durability is not None else None,
        perception=max(perception, default=0),
        stealth=sheet_value(stats, *stat_spellings(STEALTH)) or 0,
    )


async def write_sheet_durability(ctx: Context, stored: StoredBattle, combatant: Combatant,
                                 durability: int | None) -> None:
    """A parry used the weapon (PL-16): the sheet's durability entry follows."""
    character = await sheet_for(ctx, stored, combatant)
    if character is None or durability is None:
        return
    key = stored.weapons.get(combatant.name)
    found = (key, 0) if key is not None and key in character.stats else \
        sheet_durability(character.stats)
    if found is None:
        return
    character.stats = {**character.stats, found[0]: durability}
