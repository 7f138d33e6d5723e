"""The words of a `coc7` sheet (CO-9): attributes, resources and the skill table with
the rulebook's base values, in 繁 (the stored name), 简 and English aliases.

The first Latin alias of each entry is the name English readers see (the catalog
swaps it in); the other aliases are what players type. A skill a sheet does not name
is read at its base value — a number, or half an attribute (閃避 = DEX/2), or an
attribute itself (母語 = EDU).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.kits.game_system import GameSystem, Stat

STR, CON, SIZ, DEX, APP, INT, POW, EDU, LUCK = (
    "力量", "體質", "體型", "敏捷", "外貌", "智力", "意志", "教育", "幸運")
HP, MP, SAN = "生命", "魔法", "理智"

ATTRIBUTES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    (STR, "STR", ("strength",)),
    (CON, "CON", ("体质", "constitution")),
    (SIZ, "SIZ", ("体型", "size")),
    (DEX, "DEX", ("dexterity",)),
    (APP, "APP", ("appearance",)),
    (INT, "INT", ("灵感", "靈感", "intelligence", "idea")),
    (POW, "POW", ("power",)),
    (EDU, "EDU", ("知识", "知識", "education")),
    (LUCK, "LUCK", ("幸运", "运气", "運氣", "luck")),
)
"""Attribute, its English name, other spellings. The order is the rulebook's, which
creation (CO-8) rolls in."""

RESOURCES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    (HP, "HP", ("生命值", "體力", "体力", "hitpoints")),
    (MP, "MP", ("魔法值", "magicpoints")),
    (SAN, "SAN", ("理智值", "san值", "sanity")),
)


@dataclass(frozen=True, slots=True)
class Base:
    """A skill's base value: ``value``, or ``attribute`` ÷ ``divisor`` (rounded down)."""

    value: int = 0
    attribute: str | None = None
    divisor: int = 1


SKILLS: tuple[tuple[str, Base, str, tuple[str, ...]], ...] = (
    ("會計", Base(5), "Accounting", ("会计",)),
    ("人類學", Base(1), "Anthropology", ("人类学",)),
    ("估價", Base(5), "Appraise", ("估价",)),
    ("考古學", Base(1), "Archaeology", ("考古学",)),
    ("技藝", Base(5), "Art/Craft", ("技艺", "藝術", "艺术", "手藝", "手艺", "art", "craft")),
    ("魅惑", Base(15), "Charm", ("取悅", "取悦")),
    ("攀爬", Base(20), "Climb", ("攀登",)),
    ("信用評級", Base(0), "Credit Rating", ("信用评级", "信用", "信譽", "信誉",
                                         "creditrating", "cr")),
    ("克蘇魯神話", Base(0), "Cthulhu Mythos", ("克苏鲁神话", "克蘇魯", "克苏鲁",
                                           "cthulhumythos", "cm")),
    ("喬裝", Base(5), "Disguise", ("乔装", "偽裝", "伪装")),
    ("閃避", Base(attribute=DEX, divisor=2), "Dodge", ("闪避",)),
    ("汽車駕駛", Base(20), "Drive Auto", ("汽车驾驶", "駕駛", "驾驶", "driveauto", "drive")),
    ("電氣維修", Base(10), "Electrical Repair", ("电气维修", "elecrepair")),
    ("電子學", Base(1), "Electronics", ("电子学",)),
    ("話術", Base(5), "Fast Talk", ("话术", "fasttalk")),
    ("鬥毆", Base(25), "Brawl", ("斗殴", "格鬥", "格斗", "fighting")),
    ("手槍", Base(20), "Handgun", ("手枪",)),
    ("步槍", Base(25), "Rifle/Shotgun", ("步枪", "霰彈槍", "霰弹枪", "步霰", "rifle",
                                     "shotgun")),
    ("急救", Base(30), "First Aid", ("firstaid",)),
    ("歷史", Base(5), "History", ("历史",)),
    ("恐嚇", Base(15), "Intimidate", ("恐吓",)),
    ("跳躍", Base(20), "Jump", ("跳跃",)),
    ("外語", Base(1), "Other Language", ("外语", "其他語言", "其他语言", "otherlanguage")),
    ("母語", Base(attribute=EDU), "Own Language", ("母语", "ownlanguage")),
    ("法律", Base(5), "Law", ()),
    ("圖書館使用", Base(20), "Library Use", ("图书馆使用", "圖書館", "图书馆", "libraryuse",
                                         "library")),
    ("聆聽", Base(20), "Listen", ("聆听",)),
    ("鎖匠", Base(1), "Locksmith", ("锁匠", "開鎖", "开锁", "撬鎖", "撬锁")),
    ("機械維修", Base(10), "Mechanical Repair", ("机械维修", "mechrepair")),
    ("醫學", Base(1), "Medicine", ("医学",)),
    ("博物學", Base(10), "Natural World", ("博物学", "自然學", "自然学", "naturalworld")),
    ("導航", Base(10), "Navigate", ("导航", "領航", "领航")),
    ("神秘學", Base(5), "Occult", ("神秘学",)),
    ("操作重型機械", Base(1), "Operate Heavy Machinery", ("操作重型机械", "重型機械",
                                                       "重型机械", "heavymachinery")),
    ("說服", Base(10), "Persuade", ("说服",)),
    ("精神分析", Base(1), "Psychoanalysis", ()),
    ("心理學", Base(10), "Psychology", ("心理学",)),
    ("騎術", Base(5), "Ride", ("骑术", "騎乘", "骑乘")),
    ("科學", Base(1), "Science", ("科学",)),
    ("妙手", Base(10), "Sleight of Hand", ("sleightofhand",)),
    ("偵查", Base(25), "Spot Hidden", ("侦查", "偵察", "侦察", "spothidden", "spot")),
    ("潛行", Base(20), "Stealth", ("潜行",)),
    ("生存", Base(10), "Survival", ()),
    ("游泳", Base(20), "Swim", ()),
    ("投擲", Base(20), "Throw", ("投掷",)),
    ("追蹤", Base(10), "Track", ("追踪",)),
    ("馴獸", Base(5), "Animal Handling", ("驯兽", "animalhandling")),
    ("潛水", Base(1), "Diving", ("潜水",)),
)
"""Skill, base value (the rulebook's, for an investigator of the 1920s), English name,
other spellings."""

NO_GROWTH = frozenset({"克蘇魯神話", "信用評級"})
"""Skills that do not grow by experience (CO-7): the Mythos is learned by encounters,
credit by money."""
COMBAT = frozenset({"鬥毆", "手槍", "步槍", "投擲", "閃避"})

BASES: dict[str, Base] = {name: base for name, base, _en, _aliases in SKILLS}
ATTRIBUTE_NAMES: tuple[str, ...] = tuple(name for name, _en, _aliases in ATTRIBUTES)
ENGLISH: dict[str, str] = {
    **{name: en for name, en, _a in ATTRIBUTES}, **{name: en for name, en, _a in RESOURCES},
    **{name: en for name, _b, en, _a in SKILLS}}
"""Each entry's English name: what a data consumer reads (``STR`` … ``LUCK``)."""

SYSTEM = GameSystem(
    id="coc7",
    names=("克蘇魯的呼喚第七版", "Call of Cthulhu 7e"),
    stats=(
        *(Stat(name, "attribute", (en, *aliases)) for name, en, aliases in ATTRIBUTES),
        *(Stat(name, "resource", (en, *aliases)) for name, en, aliases in RESOURCES),
        *(Stat(name, "skill", (en, *aliases), combat=name in COMBAT)
          for name, _base, en, aliases in SKILLS),
    ),
    default_die="d100",
)
