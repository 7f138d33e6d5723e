"""The ap20 vocabulary: ``SYSTEM`` (id, names, the sheet entries with their aliases) and
the attribute modifier (decision 1 of the package docstring)."""

from __future__ import annotations

from rules.kits.game_system import GameSystem, Stat

SYSTEM = GameSystem(
    id="ap20",
    names=("規則書·戰鬥篇", "戰鬥篇（行動力 d20）", "AP d20"),
    stats=(
        # attributes: scores, a check adds their modifier (decision 1)
        Stat("力量", "attribute", ("STR",)),
        Stat("敏捷", "attribute", ("DEX",)),
        Stat("體質", "attribute", ("体质", "CON")),
        Stat("智力", "attribute", ("INT",)),
        Stat("感知", "attribute", ("WIS",)),
        Stat("魅力", "attribute", ("CHA",)),
        # attack and defence levels (AP-2, AP-3, AP-4)
        Stat("命中", "skill", ("Hit",), combat=True),
        Stat("破甲", "skill", ("Pen",), combat=True),
        Stat("重擊強度", "skill", ("重击强度", "CritStr"), combat=True),
        Stat("護甲", "skill", ("护甲", "Armor"), combat=True),
        Stat("閃避", "skill", ("闪避", "Dodge"), combat=True),
        Stat("格擋", "skill", ("格挡", "Block"), combat=True),
        Stat("招架", "skill", ("Parry",), combat=True),
        Stat("韌性", "skill", ("韧性", "Toughness"), combat=True),
        # pools (AP-1) and the monster tier (AP-8)
        Stat("生命", "resource", ("HP",)),
        Stat("精神力", "resource", ("MP",)),
        Stat("耐力", "resource", ("Stamina",)),
        Stat("行動力", "resource", ("行动力", "AP")),
        Stat("等階", "resource", ("等阶", "Tier")),
    ),
    default_die="d20",
)

ATTRIBUTES = tuple(s.name for s in SYSTEM.stats if s.kind == "attribute")
"""力量 敏捷 體質 智力 感知 魅力: the names a save or an attribute check takes."""

KEYS = {
    "armor": "護甲", "dodge": "閃避", "block": "格擋", "parry": "招架",
    "hit": "命中", "pen": "破甲", "crit": "重擊強度", "toughness": "韌性",
    "hp": "生命", "mp": "精神力", "stamina": "耐力", "ap": "行動力", "tier": "等階",
    "con": "體質", "dex": "敏捷",
}
"""The rules' keys of a combatant's numbers → the sheet names they are read from."""

DEFAULT_AP = 6
"""AP-1: action points when the sheet names no 行動力."""


def modifier(score: int) -> int:
    """Decision 1: an attribute score's modifier (調整值), as in the d20 games the seed
    borrows from: (score − 10) ÷ 2 rounded down (10 → 0, 15 → +2, 7 → −2)."""
    return (score - 10) // 2
