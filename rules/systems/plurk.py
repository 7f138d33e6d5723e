"""`plurk` — 噗浪式 TRPG (DnD + CoC hybrid), seed 003.

Rule ids implemented here: (filled in as they are implemented) PL-1 … PL-18.
"""

from __future__ import annotations

from rules.systems.base import GameSystem, Stat

SYSTEM = GameSystem(
    id="plurk",
    names=("噗浪式TRPG", "噗浪式 TRPG", "Plurk TRPG"),
    stats=(
        Stat("靈巧", "attribute", ("灵巧", "DEX")),
        Stat("體質", "attribute", ("体质", "CON")),
        Stat("觀察", "skill", ("观察",)),
    ),
    default_die="d20",
)
