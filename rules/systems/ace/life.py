"""Where an `ace` fighter stands (issue 24, the encounter kit's :class:`Life`) and the
bounds of its HP (AE-1).

The seed: HP = 體質 × 10, and HP 0 is death (「當人物的HP為0則人物立即死亡」); AE-8's helpless
states — unconscious (昏迷, also 精神力 < 2, AE-1), asleep, petrified — keep a fighter
alive but out of the fight. So:

- HP 0 or less → ``dead``;
- unconscious / asleep / petrified, or 精神力 < 2 → ``down``;
- else ``active``.

Only an active fighter acts (``rules.kits.encounter.require_active``). HP stays within
``0 … 體質 × 10`` (:func:`bounded`): a heal never passes the maximum, and lowering 體質
lowers the maximum at once (HP is read through :func:`bounded`).
"""

from __future__ import annotations

from rules.errors import RuleError
from rules.kits.encounter import Life, capped
from rules.systems.ace.combat import CONDITIONS
from rules.systems.ace.vocabulary import hp_max, unconscious


def life_of(hp: int, spi: int, condition: str | None = None) -> Life:
    """An ace fighter's life state: HP 0 is death; a helpless state (AE-8) or 精神力 < 2
    (AE-1) is down."""
    if hp <= 0:
        return Life.DEAD
    if condition in CONDITIONS or unconscious(spi):
        return Life.DOWN
    return Life.ACTIVE


def bounded(hp: int, con: int) -> int:
    """HP within 0 … 體質 × 10 (AE-1)."""
    return capped(hp, hp_max(con))


def check_revive(before: int, after: int, *, by_gm: bool) -> None:
    """Bringing the dead (HP 0) back is the GM's (``ace.revive_gm_only``)."""
    if before <= 0 < after and not by_gm:
        raise RuleError("ace.revive_gm_only")
