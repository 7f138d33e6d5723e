"""The words of `ace` commands in every script: attack kinds, called parts (AE-7),
stances and cover (AE-10), conditions (AE-8), reflexes, grapple choices (AE-9) — each
the rules' key → the spellings players type. How they read back is the catalog's
(``ace.part.head`` …)."""

from __future__ import annotations

from collections.abc import Mapping

from bot.names import fold

KINDS: dict[str, tuple[str, ...]] = {
    "melee": ("近戰", "近战", "melee"),
    "firearm": ("槍", "枪", "槍械", "枪械", "射擊", "射击", "遠攻", "远攻", "firearm", "gun",
                "shoot"),
    "thrown": ("投擲", "投掷", "弓", "弓箭", "thrown", "throw", "bow"),
}
PARTS: dict[str, tuple[str, ...]] = {
    "head": ("頭", "头", "頭部", "头部", "head"),
    "eyes": ("眼", "眼睛", "eye", "eyes"),
    "abdomen": ("腹", "腹部", "abdomen", "belly"),
    "ribs": ("肋", "肋骨", "ribs"),
    "nose": ("鼻", "鼻梁", "鼻樑", "nose"),
    "throat": ("喉", "咽喉", "喉嚨", "喉咙", "throat"),
    "temple": ("太陽穴", "太阳穴", "temple"),
    "disarm": ("繳械", "缴械", "擊落", "击落", "擊落武器", "击落武器", "disarm"),
    "sunder": ("擊破", "击破", "擊破武器", "击破武器", "sunder"),
}
STANCES: dict[str, tuple[str, ...]] = {
    "none": ("無", "无", "解除", "none", "off", "clear"),
    "full_attack": ("全力攻擊", "全力攻击", "全攻", "fullattack", "full-attack", "all-out"),
    "charge": ("衝鋒", "冲锋", "charge"),
    "full_defense": ("全防禦", "全防御", "全防", "fulldefense", "full-defense", "defend"),
    "block": ("格擋", "格挡", "block"),
    "prone": ("伏地", "臥倒", "卧倒", "prone"),
}
COVERS: dict[str, tuple[str, ...]] = {
    "none": ("無", "无", "none", "off", "clear"),
    "light": ("少許", "少许", "少許掩護", "少许掩护", "light"),
    "partial": ("部分", "部份", "部分掩護", "部分掩护", "partial"),
    "heavy": ("大量", "大量掩護", "大量掩护", "heavy"),
    "total": ("完全", "完全掩蔽", "total", "full"),
}
CONDITIONS: dict[str, tuple[str, ...]] = {
    "unconscious": ("昏迷", "unconscious", "ko"),
    "asleep": ("睡眠", "睡著", "睡着", "asleep", "sleep", "sleeping"),
    "petrified": ("石化", "petrified"),
}
CLEAR = ("無", "无", "清除", "none", "clear", "off")
REFLEXES: dict[str, tuple[str, ...]] = {
    "guard": ("護住", "护住", "護住要害", "护住要害", "guard"),
    "dodge": ("閃避", "闪避", "避開", "避开", "dodge"),
}
CHOICES: dict[str, tuple[str, ...]] = {
    "break": ("掙脫", "挣脱", "break", "力量"),
    "escape": ("逃脫", "逃脱", "escape", "敏捷"),
}
LETHAL = ("致命", "致命攻擊", "致命攻击", "lethal")
ASSASSINATE = ("暗殺", "暗杀", "assassinate", "assassination")
SPECIALTY = ("專業", "专业", "spec", "specialty", "pro")
ACTIVE = ("警戒", "主動", "主动", "active", "watch", "alert")
EXPOSED = ("開闊", "开阔", "暴露", "exposed", "open")
ON = ("on", "開", "开", "開啟", "开启", "yes", "1", "true")
OFF = ("off", "關", "关", "關閉", "关闭", "no", "0", "false")


def lookup(token: str, table: Mapping[str, tuple[str, ...]]) -> str | None:
    """The rules' key a typed word means in ``table``, or None."""
    key = fold(token)
    for name, spellings in table.items():
        if key == fold(name) or any(key == fold(s) for s in spellings):
            return name
    return None


def any_of(token: str, spellings: tuple[str, ...]) -> bool:
    key = fold(token)
    return any(key == fold(s) for s in spellings)
