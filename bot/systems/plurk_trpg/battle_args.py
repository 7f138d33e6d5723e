"""What battle commands read from their arguments: command words in any script,
bounded numbers, combatant names as players type them — and whose turn the
speaker may play."""

from __future__ import annotations

import re

from bot.context import Context
from bot.errors import CommandError
from bot.kits.references import may_act_for
from bot.names import fold
from bot.permissions import require_gm_if_any
from bot.systems.plurk_trpg.battle_state import running_battle
from bot.systems.plurk_trpg.documents import StoredBattle
from rules.systems.plurk_trpg import Battle, Combatant

MAX_VALUE = 100_000
"""The largest number a battle command takes (BP, costs, damage, enemy stats)."""



def number(text: str, *, usage: str) -> int:
    """A non-negative integer argument, bounded so nothing huge reaches the state."""
    if not re.fullmatch(r"\d{1,6}", text.strip()):
        raise CommandError(usage)
    value = int(text)
    if value > MAX_VALUE:
        raise CommandError("plurk.error.battle.value_too_big", limit=MAX_VALUE)
    return value


def find_name(battle: Battle, typed: str) -> str:
    """The stored name a player means: as written, else case-insensitively, else
    traditional/simplified-folded (食尸鬼 = 食屍鬼). When a fold matches several
    (艾莉絲 and 艾莉丝 both fight) the name is refused with the candidates rather
    than guessed; unknown names pass through so that the rules refuse them."""
    text = typed.strip()
    if any(c.name == text for c in battle.combatants):
        return text
    found = battle.find(text)
    if found is not None:
        return found.name
    key = fold(text)
    matches = [c.name for c in battle.combatants if fold(c.name) == key]
    if len(matches) > 1:
        raise CommandError("plurk.error.battle.ambiguous_name", name=text,
                           candidates=" / ".join(matches))
    return matches[0] if matches else typed


def current_actor(ctx: Context, battle: Battle) -> Combatant:
    """The actor whose BP the speaker is about to spend — only theirs to spend.

    The owner acts for an investigator; GMs act for anyone (enemies, absent
    players); in a channel without GMs anyone acts for GM-run combatants."""
    actor = battle.actor
    if not may_act_for(ctx, actor.owner):  # an enemy's turn is its GMs'
        raise CommandError("plurk.error.battle.not_yours" if actor.owner
                           else "plurk.error.battle.not_yours_gm", actor=actor.name)
    return actor


async def gm_target(ctx: Context, args: list[str], count: int, usage: str
                    ) -> tuple[StoredBattle, Battle, str]:
    """For a GM command about one combatant (`.battle remove 食屍鬼`, `.bp max 食屍鬼 8`):
    the running battle and the stored name of the combatant its first of ``count``
    arguments names. In a channel without GMs a player's investigator is still only
    its player's to change (:func:`may_act_for`); GM-run ones are everyone's there."""
    require_gm_if_any(ctx)
    if len(args) != count:
        raise CommandError(usage)
    stored, battle = await running_battle(ctx)
    name = find_name(battle, args[0])
    if not may_act_for(ctx, battle.get(name).owner):
        raise CommandError("core.error.not_yours")
    return stored, battle, name
