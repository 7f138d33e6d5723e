"""The `ace` system's vocabulary: ``SYSTEM`` (id, names, stats with aliases) and the
attribute arithmetic of AE-1.

Canonical names are traditional Chinese (the bot renders them simplified for
简体 channels and by their Latin alias for English ones); every simplified
spelling and the Latin alias are aliases. Gear and body values a sheet carries
for combat (武器 weapon, 防具 armor, 子彈 ammo, 體型 size, 生命 current HP) are
declared as resources, so ``.st show`` groups them apart from skills.
"""

from __future__ import annotations

from rules.kits.game_system import GameSystem, Stat

STR, DEX, CON, SPI = "力量", "敏捷", "體質", "精神力"
ATTRIBUTES: tuple[str, ...] = (STR, DEX, CON, SPI)
"""AE-1: the four attributes, in the seed's order."""

FOOTWORK, MELEE, RANGED, SHOOTING = "基本步法", "基本近戰", "基本遠戰", "基本射擊"
GRAPPLE, WAIST = "基本擒拿", "基本腰力"
HIDE, SURVIVAL, INVESTIGATE, ATHLETICS = "隱藏", "生存", "調查", "運動"
WEAPON, ARMOR, AMMO, SIZE, HP = "武器", "防具", "子彈", "體型", "生命"

SYSTEM = GameSystem(
    id="ace",
    names=("王牌進化", "王牌进化", "Ace Evolution"),
    stats=(
        Stat(STR, "attribute", ("STR",)),
        Stat(DEX, "attribute", ("DEX",)),
        Stat(CON, "attribute", ("体质", "CON")),
        Stat(SPI, "attribute", ("SPI",)),
        # basic combat skills (基本技能, "usually 0")
        Stat(FOOTWORK, "skill", ("Footwork",), combat=True),
        Stat(MELEE, "skill", ("基本近战", "Melee"), combat=True),
        Stat(RANGED, "skill", ("基本远战", "Ranged"), combat=True),
        Stat(SHOOTING, "skill", ("基本射击", "Shooting"), combat=True),
        Stat(GRAPPLE, "skill", ("Grappling",), combat=True),
        Stat(WAIST, "skill", ("Core",), combat=True),
        # general skills the seed names (AE-13; 運動 in its example of an action)
        Stat(HIDE, "skill", ("隐藏", "Hide")),
        Stat(SURVIVAL, "skill", ("Survival",)),
        Stat(INVESTIGATE, "skill", ("调查", "Investigate")),
        Stat(ATHLETICS, "skill", ("运动", "Athletics")),  # the seed's example skill
        # gear, body and the current HP
        Stat(WEAPON, "resource", ("Weapon",)),
        Stat(ARMOR, "resource", ("Armor",)),
        Stat(AMMO, "resource", ("子弹", "Ammo")),
        Stat(SIZE, "resource", ("体型", "Size")),
        Stat(HP, "resource", ("HP", "生命值")),
    ),
    default_die="d20",
)

HP_PER_CON = 10
LOAD_KG_PER_STR = 10
CONSCIOUS_SPI = 2
NORMAL_MINIMUM = 2
ADULT_AVERAGE = 5


def hp_max(con: int) -> int:
    """AE-1: HP = 體質 × 10."""
    return con * HP_PER_CON


def load_kg(strength: int) -> int:
    """AE-1: load = 力量 × 10 kg."""
    return strength * LOAD_KG_PER_STR


def unconscious(spi: int) -> bool:
    """AE-1: 精神力 below 2 → unconscious."""
    return spi < CONSCIOUS_SPI


def is_attribute(spelling: str) -> bool:
    """Whether a spelling names one of the four attributes (any alias)."""
    stat = SYSTEM.stat(spelling.strip())
    return stat is not None and stat.kind == "attribute"
