"""V6-1 facing and sectors, V6-4 base sizes, distances and adjacency — on the cells of the
``rules.kits.grid`` kit, one cell = one step (步, 0.5 m).

A combatant stands on a cell (its base's centre). Facing is a bearing in whole degrees:
0 = north (up the board, towards row 1), 90 = east, clockwise.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from rules.kits.grid import Coord

DIRECTIONS: dict[str, int] = {
    "n": 0, "north": 0, "北": 0, "上": 0,
    "ne": 45, "northeast": 45, "東北": 45, "东北": 45,
    "e": 90, "east": 90, "東": 90, "东": 90, "右": 90,
    "se": 135, "southeast": 135, "東南": 135, "东南": 135,
    "s": 180, "south": 180, "南": 180, "下": 180,
    "sw": 225, "southwest": 225, "西南": 225,
    "w": 270, "west": 270, "西": 270, "左": 270,
    "nw": 315, "northwest": 315, "西北": 315,
}
"""The eight directions players type (and 上下左右 as on the board), in degrees."""

SIZES: dict[str, float] = {"medium": 1.0, "large": 1.4, "huge": 2.4}
"""V6-4: base diameters in steps — medium 0.5 m, large 0.7 m, huge 1.2 m."""

SIZE_ALIASES = {"medium": "medium", "m": "medium", "中型": "medium", "中": "medium",
                "large": "large", "l": "large", "大型": "large", "大": "large",
                "huge": "huge", "h": "huge", "巨型": "huge", "巨": "huge"}

SENSES = ("normal", "herbivore", "tremor")
"""V6-1: a humanoid's front is 120°; a herbivore's 240° (no back); a creature that senses
by tremor has only a front."""

SENSE_ALIASES = {"normal": "normal", "人形": "normal", "herbivore": "herbivore",
                 "食草": "herbivore", "食草動物": "herbivore", "食草动物": "herbivore",
                 "tremor": "tremor", "震感": "tremor"}

EPSILON = 1e-9


def direction(text: str) -> int | None:
    """``北`` / ``NE`` / ``135`` → degrees (0…359), else None."""
    key = text.strip().casefold()
    if key in DIRECTIONS:
        return DIRECTIONS[key]
    digits = key.removesuffix("°").removesuffix("度")
    if digits.isdigit() and len(digits) <= 3:
        return int(digits) % 360
    return None


def bearing(origin: Coord, to: Coord) -> float:
    """The bearing from ``origin`` to ``to`` in degrees (0 = north, clockwise)."""
    dx, dy = to[0] - origin[0], to[1] - origin[1]
    return math.degrees(math.atan2(dx, -dy)) % 360


def off_facing(facing: float, toward: float) -> float:
    """How far (0…180°) a bearing lies off a facing."""
    return abs((toward - facing + 180) % 360 - 180)


def sector(facing: float, toward: float, sense: str = "normal") -> str:
    """V6-1: ``front``, ``side`` or ``back`` of a combatant facing ``facing`` for what lies
    at bearing ``toward``. Decision 2: a line exactly on a border belongs to the sector
    nearer the front (60° is front, 120° is side) — the defender's benefit."""
    if sense == "tremor":
        return "front"
    angle = off_facing(facing, toward)
    front = 120 if sense == "herbivore" else 60
    if angle <= front + EPSILON:
        return "front"
    if sense == "herbivore" or angle <= 120 + EPSILON:
        return "side"
    return "back"


def centre_distance(a: Coord, b: Coord) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def steps(length: float) -> int:
    """V6: a distance in whole steps — fractions of a step are dropped."""
    return max(0, math.floor(length + EPSILON))


@dataclass(frozen=True, slots=True)
class Gap:
    """V6-4: two bases — the centres' distance, the space between the edges, that space
    in whole steps, whether they overlap and whether they are adjacent."""

    centres: float
    edge: float
    steps: int
    overlap: bool
    adjacent: bool


def gap(a: Coord, size_a: str, b: Coord, size_b: str) -> Gap:
    """V6-4: bases never overlap; adjacent = the space between them is within 1 step
    (fractions dropped, so a space under 2 steps) — the bot knows no walls (decision 6)."""
    centres = centre_distance(a, b)
    edge = centres - (SIZES[size_a] + SIZES[size_b]) / 2
    whole = steps(edge)
    return Gap(centres, edge, whole, edge < -EPSILON, edge >= -EPSILON and whole <= 1)
