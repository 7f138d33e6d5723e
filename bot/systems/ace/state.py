"""Who a name at an `ace` table is — a character (a sheet) or one of the GM's enemies —
with its HP, who acts (``by=``) and its fighter as the fight has it.

Enemies and HP are read and written through the command's unit of work
(``ctx.uow``), inside its one transaction, so a restart continues where the table was.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.context import Context
from bot.errors import CommandError
from bot.kits.args import is_word
from bot.kits.references import active_sheet, find_character, require_owner_or_gm
from bot.names import fold
from bot.systems.ace.args import BY_WORDS, echo
from bot.systems.ace.documents import ENEMIES, FIGHT, Enemy
from bot.systems.ace.sheet import fighter, hp_of
from bot.unit_of_work import Sheet
from rules.errors import RuleError
from rules.kits.encounter import Life, require_active
from rules.systems.ace import combat, grapple
from rules.systems.ace import vocabulary as v
from rules.systems.ace.fight import Fight, fallen_dead
from rules.systems.ace.life import bounded, check_revive, life_of

# --------------------------------------------------------------------------- enemies


def find_enemy(enemies: dict[str, Enemy], ref: str) -> str | None:
    """The stored name of an enemy: as written, then folded (狼人 = 狼人, 蝙蝠 = 蝙蝠)."""
    name = ref.strip()
    if name in enemies:
        return name
    return next((k for k in enemies if fold(k) == fold(name)), None)


# --------------------------------------------------------------------------- who


@dataclass
class Someone:
    """A name at the table: a character (``character`` set) or an enemy."""

    name: str
    stats: dict[str, int]
    character: Sheet | None = None
    hp_enemy: int | None = None
    revealed: bool = False  # an enemy whose numbers the GM has shown (`.enemy reveal`)

    @property
    def owner(self) -> str | None:
        return self.character.owner if self.character is not None else None

    @property
    def is_enemy(self) -> bool:
        return self.character is None

    @property
    def hp(self) -> int:
        """Current HP, within 0 … 體質 × 10 (AE-1: a lowered 體質 lowers it at once)."""
        if self.character is None and self.hp_enemy is not None:
            return hp_of({**self.stats, v.HP: self.hp_enemy})
        return hp_of(self.stats)

    @property
    def max_hp(self) -> int:
        return v.hp_max(int(self.stats.get(v.CON, 0) or 0))

    def fighter(self) -> combat.Fighter:
        return fighter(self.name, self.stats)

    def life(self, fight: Fight) -> Life:
        """Where it stands (``rules.systems.ace.life``): HP 0 dead; a helpless state
        or 精神力 < 2 down."""
        spi = self.stats.get(v.SPI)
        known = self.is_enemy or any(isinstance(self.stats.get(k), int) for k in (v.CON, v.HP))
        # a sheet with neither 體質 nor 生命 has no HP to read: alive as far as it says
        return life_of(self.hp if known else 1,
                       spi if isinstance(spi, int) else v.CONSCIOUS_SPI,
                       fight.posture(self.name).condition)

    def require_active(self, fight: Fight) -> None:
        """Refuse an action by (or for) it unless it is active (issue 24)."""
        require_active(self.name, self.life(fight))

    def require_alive(self) -> None:
        """Refuse an attack on the dead (the ace decision of issue 24)."""
        if self.hp <= 0:
            raise RuleError("ace.target_dead", name=self.name)


async def someone(ctx: Context, ref: str) -> Someone:
    """The character or enemy ``ref`` names (``@player``, a character's or an enemy's
    name); a name both could mean is refused rather than guessed."""
    enemies = (await ctx.uow.load(ENEMIES)).enemies
    enemy = find_enemy(enemies, ref)
    character = await find_character(ctx, ref)
    if enemy is not None and character is not None:
        raise CommandError("ace.error.ambiguous_name", name=echo(ref))
    if character is not None:
        return Someone(character.name, dict(character.stats or {}), character)
    if enemy is not None:
        record = enemies[enemy]
        return Someone(enemy, dict(record.stats), None, record.hp, record.revealed)
    raise CommandError("ace.error.unknown_target", name=echo(ref))


async def speaker(ctx: Context, by: str | None) -> Someone:
    """Who acts: ``by=`` (an enemy: a GM's; a character: its player's or a GM's), else
    the speaker's active character."""
    if by is None:
        if ctx.is_gm and await ctx.uow.active_sheet(ctx.user) is None:
            raise CommandError("ace.error.gm_by")
        character = await active_sheet(ctx)
        return Someone(character.name, dict(character.stats or {}), character)
    found = await someone(ctx, by)
    if found.is_enemy:
        if ctx.gm_users and not ctx.is_gm:
            raise CommandError("core.error.gm_only")
    else:
        require_owner_or_gm(ctx, found.owner or "")
    return found


async def actor_or_speaker(ctx: Context, by: str | None, fight: Fight) -> Someone:
    """Without ``by=``: a GM acts for the enemy whose turn it is, a player for their
    active character."""
    if by is None and ctx.is_gm and fight.actor is not None and fight.actor.side == "enemy":
        return await speaker(ctx, fight.actor.name)
    return await speaker(ctx, by)


def pop_by(words: list[str]) -> tuple[list[str], str | None]:
    """``by=狼人`` taken out of a command's words."""
    rest, by = [], None
    for word in words:
        head, sep, value = word.partition("=")
        if sep and value and is_word(head, *BY_WORDS):
            by = value
        else:
            rest.append(word)
    return rest, by


async def set_hp(ctx: Context, who: Someone, hp: int) -> None:
    """Write current HP back: a character's sheet (生命), an enemy's record. At 0 it is
    dead: its holds and its helpless state end (``fallen_dead``)."""
    if hp <= 0 < who.hp:
        ctx.uow.save(FIGHT, fallen_dead(await ctx.uow.load(FIGHT), who.name))
    if who.character is not None:
        who.character.stats = {**(who.character.stats or {}), v.HP: hp}
        who.stats = dict(who.character.stats)
        return
    stored = await ctx.uow.load(ENEMIES)
    stored.enemies[who.name] = replace(stored.enemies[who.name], hp=hp)
    ctx.uow.save(ENEMIES, stored)
    who.hp_enemy = hp


def armed(who: Someone, fight: Fight) -> combat.Fighter:
    """The fighter with its posture (stance, cover, condition) and grapple state."""
    base = who.fighter()
    posture = fight.posture(who.name)
    penalty, pinned = grapple.penalty_of(fight.holds, who.name)
    return replace(base, stance=posture.stance, charge=posture.charge, cover=posture.cover,
                   condition=posture.condition, held_penalty=penalty, pinned=pinned)


async def lives(ctx: Context, fight: Fight) -> dict[str, Life]:
    """Every fighter's life state by name (a name no longer found — a sheet deleted —
    counts as active: the GM removes it)."""
    out: dict[str, Life] = {}
    for member in fight.members:
        try:
            who = await someone(ctx, member.name)
        except CommandError:
            continue
        out[member.name] = who.life(fight)
    return out


async def require_sheet_active(ctx: Context, character: Sheet) -> None:
    """A character acts (a check, an extended period, the mark) only when active."""
    who = Someone(character.name, dict(character.stats or {}), character)
    who.require_active(await ctx.uow.load(FIGHT))


def check_turn(fight: Fight, who: Someone) -> None:
    """In a running fight only the fighter whose turn it is acts (issue 24)."""
    actor = fight.actor
    if actor is not None and actor.name.casefold() != who.name.casefold():
        raise RuleError("ace.out_of_turn", name=who.name, actor=actor.name)


async def acting_fighter(ctx: Context, by: str | None, fight: Fight) -> Someone:
    """Who acts (:func:`actor_or_speaker`), refused unless active and on its turn."""
    who = await actor_or_speaker(ctx, by, fight)
    who.require_active(fight)
    check_turn(fight, who)
    return who


async def hp_within_bounds(ctx: Context, character: Sheet, name: str, old: int | None,
                           new: int) -> list[str] | None:
    """`.st` (the sheet guard) keeps 生命 within 0 … 體質 × 10 (AE-1) and on the sheet:

    - setting 體質 writes the 生命 it gives — full on a sheet without one (the play-test:
      a fresh sheet had no HP to show or heal), lowered to a lowered cap (it read 25 of
      at most 20) — and `.st` lists it with the change;
    - 生命 over the cap is written as the cap, and said (a heal of 45/50 by 10 gives 50);
    - the dead (HP 0) come back only by a GM (`.st 生命+100` on the dead revived them);
    - in a running fight a fighter's HP is the GM's (`.init set`) and the blows' (the
      play-test: a player healed to full between two hits), where the table has GMs.
    """
    stats = dict(character.stats or {})
    if name == v.CON:
        hp = stats.get(v.HP)
        after = bounded(hp, new) if isinstance(hp, int) else v.hp_max(new)
        if after == hp:
            return None
        character.stats = {**stats, v.CON: new, v.HP: after}
        return []
    if name != v.HP:
        return None
    by_gm = ctx.is_gm or not ctx.gm_users
    check_revive(hp_of(stats), new, by_gm=by_gm)
    fight = await ctx.uow.load(FIGHT)
    if not by_gm and fight.started and fight.find(character.name) is not None:
        raise CommandError("ace.error.st_hp_in_fight", name=character.name)
    con = stats.get(v.CON)
    if not isinstance(con, int) or new <= v.hp_max(con):
        return None
    top = v.hp_max(con)
    character.stats = {**stats, v.HP: top}
    change = f"{v.HP}:{old}→{top}" if old is not None else f"{v.HP}:{top}"
    return [ctx.t("core.st.set", pc=character.name, changes=change)
            + ctx.t("ace.sheet.hp_capped", max=top, con=con)]
