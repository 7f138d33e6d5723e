"""AP-1: what an action costs in action points (行動力) and 精神力, and the spend.

The cost table sits on the ``rules.kits.costs`` alias helper: every spelling a player
types (戰技 / 战技 / maneuver …) names one canonical action key.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.errors import RuleError
from rules.kits.costs import alias_table

ACTIONS: dict[str, tuple[int, int]] = {
    "maneuver": (5, 0),
    "standard": (3, 0),
    "swift": (2, 0),
    "reaction": (1, 0),
    "cast": (3, 3),
    "swift_cast": (2, 3),
    "instant_cast": (1, 3),
}
"""AP-1: action → (action points, 精神力)."""

ALIASES = alias_table({
    "maneuver": ("戰技", "战技", "戰技動作", "战技动作", "man"),
    "standard": ("標準", "标准", "標準動作", "标准动作", "攻擊", "攻击", "普通攻擊", "普通攻击",
                 "attack", "std"),
    "swift": ("迅捷", "迅捷動作", "迅捷动作", "藉機", "借机", "藉機攻擊", "借机攻击",
              "opportunity", "opp"),
    "reaction": ("反應", "反应", "反應動作", "反应动作", "防禦", "防御", "defend", "defense",
                 "react"),
    "cast": ("施法", "標準施法", "标准施法", "standard_cast"),
    "swift_cast": ("迅捷施法", "swiftcast"),
    "instant_cast": ("瞬發施法", "瞬发施法", "瞬發", "瞬发", "instant", "instantcast"),
})

OWN_TURN_ONLY = frozenset({"maneuver", "standard", "cast"})
"""Decision 3: these are taken on one's own turn; swift actions (an opportunity attack),
reactions (a defence) and swift / instant casts may be taken on anyone's turn."""

STAMINA_FACTOR = 2
"""AP-1: a maneuver costs double stamina (雙倍體力消耗)."""


def action_key(name: str) -> str:
    """The canonical key of an action name; ``ap20.unknown_action`` otherwise."""
    key = ALIASES.get(name.strip().casefold())
    if key is None:
        raise RuleError("ap20.unknown_action", action=name.strip(), known=", ".join(ACTIONS))
    return key


@dataclass(frozen=True, slots=True)
class Spend:
    """One action paid for: its costs and every pool before and after.

    ``mp_*`` are None for an action without 精神力; ``stamina_*`` None unless a
    maneuver named its stamina cost (``stamina_cost`` is already doubled)."""

    action: str
    ap_cost: int
    ap_before: int
    ap_after: int
    mp_cost: int = 0
    mp_before: int | None = None
    mp_after: int | None = None
    stamina_base: int = 0
    stamina_cost: int = 0
    stamina_before: int | None = None
    stamina_after: int | None = None


def spend(action: str, ap: int, *, mp: int | None = None, stamina: int | None = None,
          stamina_base: int = 0) -> Spend:
    """AP-1: pay for ``action`` from ``ap`` action points (and ``mp`` 精神力 for a cast).

    A spend that would take any pool below 0 is refused (``ap20.ap_insufficient``,
    ``ap20.mp_insufficient``, ``ap20.stamina_insufficient``); a cast without a 精神力
    pool is ``ap20.no_mp``. ``stamina_base`` is a maneuver's stamina cost before the
    doubling (decision 4: only a maneuver takes one, ``ap20.stamina_not_maneuver``).
    """
    key = action_key(action)
    ap_cost, mp_cost = ACTIONS[key]
    if stamina_base < 0:
        raise RuleError("ap20.negative", name="stamina", value=stamina_base)
    if ap - ap_cost < 0:
        raise RuleError("ap20.ap_insufficient", action=key, cost=ap_cost, points=ap)
    mp_after = None
    if mp_cost:
        if mp is None:
            raise RuleError("ap20.no_mp", action=key, cost=mp_cost)
        if mp - mp_cost < 0:
            raise RuleError("ap20.mp_insufficient", action=key, cost=mp_cost, points=mp)
        mp_after = mp - mp_cost
    stamina_cost, stamina_after = 0, None
    if stamina_base:
        if key != "maneuver":
            raise RuleError("ap20.stamina_not_maneuver", action=key)
        stamina_cost = stamina_base * STAMINA_FACTOR
        if stamina is None:
            raise RuleError("ap20.no_stamina", cost=stamina_cost)
        if stamina - stamina_cost < 0:
            raise RuleError("ap20.stamina_insufficient", cost=stamina_cost, points=stamina)
        stamina_after = stamina - stamina_cost
    return Spend(key, ap_cost, ap, ap - ap_cost, mp_cost, mp if mp_cost else None, mp_after,
                 stamina_base, stamina_cost, stamina if stamina_base else None, stamina_after)
