"""AP (PL-11): the group's shared investigation points and the GM's cost per action,
on the ``rules.kits.costs`` tables."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from rules.errors import RuleError
from rules.kits.costs import CostTable, alias_table
from rules.systems.plurk_trpg.common import _non_negative, _resolve_action

AP_DEFAULT_COSTS: dict[str, int] = {"observe": 1, "interview": 1, "move": 2, "item": 1}
AP_ACTION_ALIASES: dict[str, str] = alias_table(
    {
        "observe": ("觀察", "观察", "搜索", "搜查", "調查", "调查", "search", "investigate"),
        "interview": ("詢問", "询问", "訪談", "访谈", "問話", "问话", "ask", "talk"),
        "move": ("移動", "移动", "前往", "go"),
        "item": ("道具", "使用道具", "物品", "use"),
    }
)
AP_COSTS = CostTable(AP_DEFAULT_COSTS, AP_ACTION_ALIASES)


@dataclass(frozen=True)
class ApPool:
    """The group's shared AP (PL-11) and the GM's cost per investigation action."""

    points: int = 0
    costs: dict[str, int] = field(default_factory=lambda: dict(AP_DEFAULT_COSTS))

    def resolve(self, action: str) -> str:
        """Canonical key of an action name (``搜索`` → ``observe``)."""
        return _resolve_action(AP_COSTS, action, self.costs, "plurk.ap_unknown_action")


@dataclass(frozen=True, slots=True)
class ApEvent:
    """What a change of the AP pool did. ``exhausted``: a spend reached 0 (劇情強制推進)."""

    op: str  # "spend" | "grant" | "set"
    action: str | None
    cost: int
    before: int
    after: int
    exhausted: bool


def grant_ap(pool: ApPool, amount: int) -> tuple[ApPool, ApEvent]:
    """The GM grants AP to the group."""
    _non_negative(amount, "amount")
    after = pool.points + amount
    return replace(pool, points=after), ApEvent("grant", None, 0, pool.points, after, False)


def set_ap(pool: ApPool, points: int) -> tuple[ApPool, ApEvent]:
    """The GM sets the AP pool to an exact value."""
    _non_negative(points, "points")
    return replace(pool, points=points), ApEvent("set", None, 0, pool.points, points, False)


def spend_ap(pool: ApPool, action: str, *, cost: int | None = None) -> tuple[ApPool, ApEvent]:
    """Spend AP for an action (its configured cost, or ``cost`` given by the GM).

    A spend that would go below 0 is refused; a spend that reaches 0 says so.
    An unknown action is accepted only with an explicit ``cost``.
    """
    if cost is None:
        key = pool.resolve(action)
        amount = pool.costs[key]
    else:
        _non_negative(cost, "cost")
        key = AP_COSTS.key(action, pool.costs)
        amount = cost
    if amount > pool.points:
        raise RuleError("plurk.ap_insufficient", action=key, cost=amount, points=pool.points)
    after = pool.points - amount
    return replace(pool, points=after), ApEvent(
        "spend", key, amount, pool.points, after, after == 0
    )


def set_ap_cost(pool: ApPool, action: str, cost: int) -> ApPool:
    """The GM changes (or adds) an action's AP cost."""
    _non_negative(cost, "cost")
    key = AP_COSTS.key(action, pool.costs)
    return replace(pool, costs={**pool.costs, key: cost})
