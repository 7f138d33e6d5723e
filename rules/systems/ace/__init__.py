"""`ace` — 王牌進化 TRPG (夢魘世界), seed 000.

Pure rules: state and an injected :class:`~rules.dice.source.DiceSource` in,
frozen result dataclasses out. No I/O, no chat text; every refusal is a
``RuleError("ace.<code>", **params)`` (codes listed in ``docs/systems/ace.md``).
Pools are rolled with ``rules.dice.roll_pool``; the turn order is
``rules.kits.turns``.

One module per concern (each docstring lists its own decisions):

- ``vocabulary``  AE-1 ``SYSTEM`` (attributes, basic skills, gear) and HP / load /
                  consciousness
- ``pool``        AE-2 success pools and attribute substitution, AE-3 single actions
- ``extended``    AE-4 extended actions (deadline, mishap)
- ``combat``      AE-5 hit, AE-6 damage and area damage, AE-7 called shots and the
                  reflex action, AE-8 lethal attacks, AE-10 stances and cover,
                  AE-11 energy resistance, AE-12 supernatural attributes
- ``grapple``     AE-9 grapple hit, contests, held and pinned
- ``stealth``     AE-13 hide vs perception, the 2 × 精神力 rule, ambush, assassination
- ``mark``        AE-14 the nightmare mark: slots, stacking, long items, kill count
- ``fight``       initiative (DEX, AE-12) and rounds on the turn kit; postures, holds
                  and hiding as one state

Rule ids implemented (``../shared/RULES.md``):

- AE-1  ``hp_max`` (體質 × 10), ``load_kg`` (力量 × 10), ``unconscious`` (精神力 < 2).
- AE-2  ``pool.roll`` (8–10 succeed, specialty +1), ``pool.substitute`` (⌊(1d20 + attr) / 10⌋).
- AE-3  ``pool.check``: successes ≥ DC (1 by default), margin.
- AE-4  ``extended.start`` / ``advance`` / ``restart``.
- AE-5  ``combat.attack`` hit: strict ``>``, raw 1 misses, raw 20 crits.
- AE-6  ``combat.attack`` damage by kind, ``combat.area``; percentages rounded down.
- AE-7  called parts (``PARTS``), d10 hit die with crit on 10 only, reflex guard / dodge.
- AE-8  ``AttackSpec(lethal=True)``: every damage die a success.
- AE-9  ``grapple.grab`` / ``break_free`` / ``release``.
- AE-10 ``fight.set_stance`` / ``set_cover`` and their terms in ``combat``.
- AE-11 ``Fighter.resist`` and ``AttackSpec.energy``; ``combat.harm``.
- AE-12 ``supernatural=True`` in ``combat`` and ``fight.roll_initiative``.
- AE-13 ``stealth.sneak`` / ``record`` / ``check_assassination``; ambush in ``fight.start``.
- AE-14 ``mark.store`` / ``take`` / ``set_level`` / ``add_kills``.
"""

from __future__ import annotations

from rules.systems.ace import combat, extended, fight, grapple, mark, pool, stealth
from rules.systems.ace.vocabulary import (
    ATTRIBUTES,
    SYSTEM,
    hp_max,
    is_attribute,
    load_kg,
    unconscious,
)

__all__ = [
    "ATTRIBUTES",
    "SYSTEM",
    "combat",
    "extended",
    "fight",
    "grapple",
    "hp_max",
    "is_attribute",
    "load_kg",
    "mark",
    "pool",
    "stealth",
    "unconscious",
]
