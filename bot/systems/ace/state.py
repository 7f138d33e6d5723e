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
from bot.systems.ace.documents import ENEMIES, Enemy
from bot.systems.ace.sheet import fighter, hp_of
from bot.unit_of_work import Sheet
from rules.systems.ace import combat, grapple
from rules.systems.ace import vocabulary as v
from rules.systems.ace.fight import Fight

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

    @property
    def owner(self) -> str | None:
        return self.character.owner if self.character is not None else None

    @property
    def is_enemy(self) -> bool:
        return self.character is None

    @property
    def hp(self) -> int:
        if self.character is None:
            return int(self.hp_enemy if self.hp_enemy is not None else hp_of(self.stats))
        return hp_of(self.stats)

    def fighter(self) -> combat.Fighter:
        return fighter(self.name, self.stats)


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
        return Someone(enemy, dict(record.stats), None, record.hp)
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
    """Write current HP back: a character's sheet (生命), an enemy's record."""
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


async def down_names(ctx: Context, fight: Fight) -> list[str]:
    """Fighters a turn passes over: HP 0, or unconscious / asleep / petrified, or
    精神力 < 2."""
    enemies = (await ctx.uow.load(ENEMIES)).enemies
    out = []
    for member in fight.members:
        posture = fight.posture(member.name)
        if posture.condition in combat.CONDITIONS:
            out.append(member.name)
            continue
        enemy = find_enemy(enemies, member.name)
        if enemy is not None:
            stats, hp = enemies[enemy].stats, enemies[enemy].hp
        else:
            try:
                character = await find_character(ctx, member.name)
            except CommandError:
                character = None
            if character is None:
                continue
            stats = dict(character.stats or {})
            hp = hp_of(stats)
        if hp <= 0 or int(stats.get(v.SPI, 2) or 0) < 2:
            out.append(member.name)
    return out
