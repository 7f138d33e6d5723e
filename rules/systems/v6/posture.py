"""V6-2 postures: what they do to attacks against you and to your own attacks, to your
stride, and what changing them costs.

Costs are in the seed's two kinds of action: an *instant* action (``ia``) and a
*tactical* action (``ta``); the base system prices them (ap20: decision 1 of the
package docstring).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.errors import RuleError
from rules.kits.advantage import AttackKind, Layer

POSTURES = ("stand", "crouch", "sit", "crawl", "lie")

ALIASES = {
    "stand": "stand", "站立": "stand", "站": "stand", "起身": "stand", "up": "stand",
    "crouch": "crouch", "蹲伏": "crouch", "蹲": "crouch", "跪": "crouch", "kneel": "crouch",
    "sit": "sit", "騎坐": "sit", "骑坐": "sit", "坐": "sit", "mount": "sit",
    "crawl": "crawl", "匍匐": "crawl", "臥倒": "crawl", "卧倒": "crawl", "趴": "crawl",
    "prone": "crawl",
    "lie": "lie", "躺倒": "lie", "倒地": "lie", "躺": "lie", "down": "lie",
}

CHANGE_COSTS: dict[tuple[str, str], tuple[str, int]] = {
    ("stand", "crouch"): ("instant", 1), ("stand", "sit"): ("instant", 1),
    ("stand", "crawl"): ("tactical", 1), ("stand", "lie"): ("tactical", 1),
    **{("crouch", p): ("instant", 1) for p in ("stand", "sit", "crawl", "lie")},
    **{("sit", p): ("instant", 1) for p in ("stand", "crouch", "crawl", "lie")},
    ("crawl", "crouch"): ("tactical", 1), ("crawl", "sit"): ("tactical", 1),
    ("crawl", "lie"): ("tactical", 1), ("crawl", "stand"): ("tactical", 2),
    ("lie", "crawl"): ("instant", 1), ("lie", "sit"): ("tactical", 2),
    ("lie", "crouch"): ("tactical", 2), ("lie", "stand"): ("tactical", 2),
}
"""V6-2, as in the seed: (from, to) → (kind of action, how many)."""

ROLL_COST = ("tactical", 1)
"""V6-2: lying, one may only roll 1 step to an adjacent place, for one tactical action."""


def posture(name: str) -> str:
    """The key of a posture in any spelling; ``v6.unknown_posture`` otherwise."""
    key = ALIASES.get(name.strip().casefold())
    if key is None:
        raise RuleError("v6.unknown_posture", posture=name.strip())
    return key


@dataclass(frozen=True, slots=True)
class PostureChange:
    """A posture change: before, after, and its cost (``kind`` × ``count``)."""

    name: str
    before: str
    after: str
    kind: str
    count: int


def change(name: str, before: str, after: str) -> PostureChange:
    """V6-2: what changing from ``before`` to ``after`` costs (same posture refused)."""
    if before == after:
        raise RuleError("v6.same_posture", name=name, posture=after)
    kind, count = CHANGE_COSTS[(before, after)]
    return PostureChange(name, before, after, kind, count)


def stride(base: int, current: str) -> int:
    """V6-2: the stride in a posture — stand full, crouch ½, crawl ⅓ (fractions dropped,
    at least 1 when the full stride is above 0), sit and lie 0 (no own movement; lying,
    only a 1-step roll)."""
    if current == "stand":
        return base
    if current in ("sit", "lie") or base <= 0:
        return 0
    return max(1, base // (2 if current == "crouch" else 3))


def attack_layers(attacker: str, target: str, kind: AttackKind) -> tuple[Layer, ...]:
    """V6-2: the advantage layers postures give one weapon attack of ``kind``.

    Attacker: crouch — a shot +1, other weapon attacks −1; sit — all but a shot −1;
    crawl — only a shot (others refused: ``v6.crawl_attack``); lie — all −2.
    Target: crouch or sit — ranged attacks (shot, throw) −1; crawl or lie — every
    weapon attack −2."""
    layers: list[Layer] = []
    ranged = kind in ("shot", "throw")
    if attacker == "crouch":
        layers.append(Layer(1, "crouch_shot") if kind == "shot" else Layer(-1, "crouch_attack"))
    elif attacker == "sit" and kind != "shot":
        layers.append(Layer(-1, "sit_attack"))
    elif attacker == "crawl" and kind != "shot":
        raise RuleError("v6.crawl_attack", kind=kind)
    elif attacker == "lie":
        layers.append(Layer(-2, "lie_attack"))
    if target in ("crouch", "sit") and ranged:
        layers.append(Layer(-1, f"{target}_target"))
    elif target in ("crawl", "lie"):
        layers.append(Layer(-2, f"{target}_target"))
    return tuple(layers)


CRAWL_LOST_DEFENSE = frozenset({"parry"})
"""Decision 3: V6-2's "parry 2 dis" while crawling has no roll to fall on in a d20 game
whose defence is a level (ap20 AP-2): a crawling target's parry level counts 0."""
