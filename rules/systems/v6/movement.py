"""V6-3 movement priced in fatigue: stride, climbing, vaulting, leaping, dragging and
supporting, forced moves.

Each fatigue point buys up to ``stride`` steps (2 fatigue for 4…6 steps at stride 3).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from rules.errors import RuleError
from rules.systems.v6.posture import stride as posture_stride

MODES = ("walk", "drag", "support")
MODE_ALIASES = {"walk": "walk", "drag": "drag", "push": "drag", "拖拽": "drag", "拖曳": "drag",
                "推移": "drag", "拖": "drag", "support": "support", "攙扶": "support",
                "搀扶": "support", "扶": "support"}


@dataclass(frozen=True, slots=True)
class MoveCost:
    """Every number of one active move.

    ``walked``: steps along the ground (fractions dropped); ``obstacles``: steps the
    vaulted obstacles and (supporting) the leapt gaps add; ``stride``: steps per
    fatigue after posture and mode; ``climbed`` steps at ``climb_rate`` per fatigue;
    ``fatigue`` = ``walk_fatigue`` + ``climb_fatigue``."""

    mode: str
    posture: str
    walked: int
    obstacles: int
    stride: int
    walk_fatigue: int
    climbed: int
    climb_rate: int
    climb_fatigue: int
    fatigue: int


def _half(value: int) -> int | float:
    """``value`` ÷ 2 as the rule states it: 4 → 2, 5 → 2.5."""
    return value // 2 if value % 2 == 0 else value / 2


def _per_fatigue(distance: int, rate: int) -> int:
    return math.ceil(distance / rate) if distance > 0 else 0


def move_cost(*, walked: int, base_stride: int, posture: str = "stand", mode: str = "walk",
              vaults: Sequence[int] = (), leaps: Sequence[int] = (), climb: int = 0,
              agility: int | None = None, might: int | None = None,
              partner_stride: int | None = None) -> MoveCost:
    """V6-3: the fatigue of a move of ``walked`` steps.

    - posture stride (V6-2): sit cannot move (``v6.sit_no_move``), lying only rolls
      (``v6.lie_no_move``);
    - drag / support: stride ÷ 2 (decision 4: at least 1); supporting takes the higher
      stride of the two; dragging leaps no gap (``v6.drag_leap``);
    - vault an obstacle of height ``h`` only if h < 灵巧 ÷ 2 (``v6.vault_too_high``);
      it adds 2h steps (up and down);
    - leap a gap of width ``w`` ≤ 强壮 ÷ 2 (``v6.leap_too_wide``), already part of
      ``walked``; supporting, it counts double (decision 5: + w);
    - climb ``climb`` steps at 灵巧 ÷ 2 steps per fatigue (``v6.cannot_climb`` at 0),
      walking only (``v6.climb_mode``).
    """
    if mode not in MODES:
        raise RuleError("v6.unknown_mode", mode=mode)
    if min(walked, climb, base_stride, *vaults, *leaps) < 0:
        raise RuleError("v6.negative")
    if posture == "sit" and (walked or climb):
        raise RuleError("v6.sit_no_move")
    if posture == "lie" and (walked or climb):
        raise RuleError("v6.lie_no_move")
    rate = posture_stride(base_stride, posture)
    if mode != "walk":
        if mode == "support" and partner_stride is not None:
            rate = max(rate, posture_stride(partner_stride, posture))
        rate = max(1, rate // 2) if rate > 0 else 0
    if mode == "drag" and leaps:
        raise RuleError("v6.drag_leap")
    obstacles = 0
    for height in vaults:
        if agility is None:
            raise RuleError("v6.needs_stat", stat="agility")
        if not 2 * height < agility:
            raise RuleError("v6.vault_too_high", height=height, limit=_half(agility))
        obstacles += 2 * height
    for width in leaps:
        if might is None:
            raise RuleError("v6.needs_stat", stat="might")
        if not 2 * width <= might:
            raise RuleError("v6.leap_too_wide", width=width, limit=_half(might))
        if mode == "support":
            obstacles += width
    climb_rate = 0
    if climb:
        if mode != "walk":
            raise RuleError("v6.climb_mode", mode=mode)
        if agility is None:
            raise RuleError("v6.needs_stat", stat="agility")
        climb_rate = agility // 2
        if climb_rate <= 0:
            raise RuleError("v6.cannot_climb", agility=agility)
    ground = walked + obstacles
    if ground and rate <= 0:
        raise RuleError("v6.no_stride", stride=base_stride)
    walk_fatigue = _per_fatigue(ground, rate)
    climb_fatigue = _per_fatigue(climb, climb_rate)
    return MoveCost(mode, posture, walked, obstacles, rate, walk_fatigue, climb, climb_rate,
                    climb_fatigue, walk_fatigue + climb_fatigue)
