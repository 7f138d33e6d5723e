"""Tactical layers on a base system (`.system ap20+v6`): what each side asks the other,
by name, through ``SystemPlugin.hooks`` — so that neither system imports the other.

A channel that plays ``<base>+<layer>`` has the base's commands and the layer's
(``bot.router``); ``bot.systems.get`` gives the base. The two talk through these hooks:

- ``ATTACK`` (a layer offers it): ``async (ctx, AttackQuery) -> (AttackTactics, note)``
  — the layer's verdict on one attack (advantage layers, defence parts lost, a sneak
  attack, or a ``RuleError`` that forbids it) and a few words of it in the reader's
  language (its own catalog's). The base merges every layer's verdict and shows the
  notes with the attack.
- ``ROSTER`` (the base offers it): ``async (ctx) -> Roster | None`` — who fights, on
  which side, who can fight, whose turn it is (None: no fight).
- ``CHARGE`` (the base offers it): ``async (ctx, name, kind, count) -> Charge`` — pay
  for ``count`` actions of a layer's ``kind`` (``instant`` / ``tactical``, the v6 seed's
  words) from the base's own economy (ap20: action points), or refuse.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.names import fold
from rules.kits.advantage import AttackKind, AttackTactics, merge
from rules.kits.encounter import Life

if TYPE_CHECKING:
    from bot.context import Context

ATTACK = "attack"
ROSTER = "roster"
CHARGE = "charge"


@dataclass(frozen=True, slots=True)
class Member:
    """One combatant as the base tells a layer: its name, side, player (None: the GM's),
    sheet, whether it can fight (not down, not incapacitated) and its life state
    (``rules.kits.encounter.Life``: the map marks the fallen)."""

    name: str
    side: str
    owner: str | None = None
    character_id: int | None = None
    able: bool = True
    life: Life = Life.ACTIVE


@dataclass(frozen=True, slots=True)
class Roster:
    members: tuple[Member, ...]
    current: str | None = None
    round: int = 0

    def find(self, typed: str) -> Member | None:
        """A member by name: as written, case-insensitively, then 繁/简-folded."""
        text = typed.strip()
        for match in (lambda m: m.name == text, lambda m: m.name.casefold() == text.casefold(),
                      lambda m: fold(m.name) == fold(text)):
            found = [m for m in self.members if match(m)]
            if found:
                return found[0]
        return None

    def allies(self, name: str) -> tuple[str, ...]:
        """The others of ``name``'s side who can fight."""
        me = self.find(name)
        if me is None:
            return ()
        return tuple(m.name for m in self.members
                     if m.side == me.side and m.name != me.name and m.able)


@dataclass(frozen=True, slots=True)
class AttackQuery:
    attacker: str
    target: str
    kind: AttackKind
    roster: Roster


@dataclass(frozen=True, slots=True)
class Charge:
    """What the base charged: ``cost`` of its ``unit`` (``ap``), ``before`` → ``after``."""

    name: str
    kind: str
    count: int
    unit: str
    cost: int
    before: int
    after: int


def is_on(ctx: Context, layer: str) -> bool:
    """Whether the channel plays ``layer`` on its base."""
    return any(p.id == layer for p in ctx.services.layers_of(ctx.channel.system))


async def attack_tactics(ctx: Context, query: AttackQuery) -> tuple[AttackTactics, list[str]]:
    """Every layer's verdict on one attack, merged, and the layers' notes (no layer:
    nothing changes)."""
    verdicts, notes = [], []
    for plugin in ctx.services.layers_of(ctx.channel.system):
        hook = plugin.hooks.get(ATTACK)
        if hook is not None:
            verdict, note = await hook(ctx, query)
            verdicts.append(verdict)
            if note:
                notes.append(note)
    return merge(verdicts), notes


async def roster(ctx: Context) -> Roster | None:
    """The base's fight as a roster (None: no fight, or a base without one)."""
    base = ctx.services.base_of(ctx.channel.system)
    hook = base.hooks.get(ROSTER) if base is not None else None
    return None if hook is None else await hook(ctx)


async def charge(ctx: Context, name: str, kind: str, count: int) -> Charge | None:
    """Pay for a layer's action from the base's economy (None: the base has none)."""
    base = ctx.services.base_of(ctx.channel.system)
    hook = base.hooks.get(CHARGE) if base is not None else None
    return None if hook is None else await hook(ctx, name, kind, count)
