"""The plurk system's vocabulary: ``SYSTEM`` (id, names, stats with aliases) and the
stat helpers every rule uses (``resolve_stat``, ``stat_label``, ``stat_kind``,
``is_combat_skill``). Decisions 1 and 2 of the package docstring.
"""

from __future__ import annotations

import re

from rules.kits.game_system import GameSystem, Stat, StatKind

SYSTEM = GameSystem(
    id="plurk",
    names=("噗浪式TRPG", "噗浪式 TRPG", "Plurk TRPG"),
    stats=(
        # attributes (decision 1)
        Stat("力量", "attribute", ("STR",)),
        Stat("靈巧", "attribute", ("灵巧", "DEX")),
        Stat("體質", "attribute", ("体质", "CON")),
        Stat("智力", "attribute", ("INT",)),
        Stat("感知", "attribute", ("WIS",)),
        Stat("魅力", "attribute", ("CHA",)),
        # skills named by the seed (decision 2)
        Stat("觀察", "skill", ("观察", "Observe", "Spot")),
        Stat("盲覺", "skill", ("盲觉", "Blindsense")),
        Stat("潛行", "skill", ("潜行", "Stealth")),
        Stat("心理學", "skill", ("心理学", "Psychology")),
        Stat("交涉", "skill", ("Negotiation",)),
        Stat("知識", "skill", ("知识", "Knowledge")),
        Stat("醫療", "skill", ("医疗", "Medicine")),
        # combat skills
        Stat("普通攻擊", "skill", ("普通攻击", "Attack"), combat=True),
        Stat("武器", "skill", ("Weapon", "Melee"), combat=True),
        Stat("擒拿", "skill", ("Grapple",), combat=True),
        Stat("武術", "skill", ("武术", "MartialArts"), combat=True),
        Stat("弓術", "skill", ("弓术", "Archery", "Bow"), combat=True),
        Stat("槍炮", "skill", ("槍砲", "枪炮", "枪砲", "Firearms", "Gun"), combat=True),
        Stat("投擲", "skill", ("投掷", "Throw"), combat=True),
        # resources
        Stat("體力", "resource", ("体力", "HP")),
        Stat("理智", "resource", ("SAN",)),
        Stat("因果點數", "resource", ("因果点数", "CP")),
    ),
    default_die="d20",
)


_SPEC_SPLIT = re.compile(r"[:：]")


def resolve_stat(spelling: str) -> Stat | None:
    """The declared stat a spelling names, also for ``知識：醫學``-style specialisations."""
    text = spelling.strip()
    stat = SYSTEM.stat(text)
    if stat is None:
        base = _SPEC_SPLIT.split(text, maxsplit=1)[0].strip()
        if base and base != text:
            stat = SYSTEM.stat(base)
    return stat


def stat_label(spelling: str) -> str:
    """Canonical spelling of a stat name (``DEX`` → ``靈巧``, ``知识：医学`` → ``知識：医学``).

    Unknown names come back stripped but unchanged: the bot stores sheet entries
    the system does not declare and must still find them again.
    """
    text = spelling.strip()
    exact = SYSTEM.stat(text)
    if exact is not None:
        return exact.name
    parts = _SPEC_SPLIT.split(text, maxsplit=1)
    if len(parts) == 2:
        base = SYSTEM.stat(parts[0].strip())
        if base is not None:
            return f"{base.name}：{parts[1].strip()}"
    return text


def stat_kind(spelling: str | None) -> StatKind | None:
    """Kind of a stat for the kind-sensitive rules (decision 2: unknown name = skill)."""
    if spelling is None:
        return None
    stat = resolve_stat(spelling)
    return stat.kind if stat is not None else "skill"


def is_combat_skill(spelling: str | None) -> bool:
    """Whether a stat name is a combat skill (no push, no collective check)."""
    if spelling is None:
        return False
    stat = resolve_stat(spelling)
    return stat is not None and stat.combat
