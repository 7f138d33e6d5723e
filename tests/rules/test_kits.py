"""The system-free parts the rule systems share: flat dice sums (``rules.dice.flat``)
and the kits (``rules.kits``: turn order with hooks, grid, cost tables)."""

from __future__ import annotations

import pytest

from rules.dice.source import ScriptedSource
from rules.errors import RuleError


def src(*values: int) -> ScriptedSource:
    return ScriptedSource(list(values))


@pytest.mark.parametrize(
    ("text", "params"),
    [
        ("1d6+-2", {"position": 4, "found": "-"}),
        ("--5", {"position": 1, "found": "-"}),
        ("4d6kh3", {"position": 3, "found": "kh"}),
        ("d%", {"position": 0, "found": "d%"}),
        ("(1d6)", {"position": 0, "found": "("}),
        ("1d20 adv", {"position": 5, "found": "adv"}),
    ],
)
def test_parse_flat_refuses_what_is_not_a_flat_sum(text: str, params: dict) -> None:
    from rules.dice import parse_flat

    with pytest.raises(RuleError) as caught:
        parse_flat(text)
    assert (caught.value.code, caught.value.params) == ("dice.unexpected", params)


def test_roll_flat_passes_and_limits() -> None:
    from rules.dice import FlatTerm, Limits, parse_flat, roll_flat

    assert parse_flat("-1d4+3") == (FlatTerm(-1, 1, 4), FlatTerm(1, 3, 0))
    rolled = roll_flat("1d6+2", src(3, 5), passes=2)
    assert (rolled.dice, rolled.modifier, rolled.total, rolled.passes) == ((3, 5), 2, 10, 2)
    limits = Limits(max_rolls=4)
    assert parse_flat("2d6", limits, passes=2) == (FlatTerm(1, 2, 6),)
    with pytest.raises(RuleError) as caught:
        parse_flat("2d6+1d4", limits, passes=2)
    assert (caught.value.code, caught.value.params) == ("dice.too_many_rolls",
                                                        {"rolls": 6, "max": 4})


def test_turn_kit_hooks_and_index_keeping() -> None:
    from rules.kits import turns

    order = turns.TurnOrder(("a", "b", "c", "d"), current=1)

    def skip_c(member: str) -> turns.Skip[str] | None:
        return turns.Skip(member.upper()) if member == "c" else None

    new, change = turns.advance(order, on_turn_end=lambda m: m + "!",
                                on_turn_start=lambda m: m + "*", skips=skip_c)
    assert new == turns.TurnOrder(("a", "b!", "C", "d*"), 3, 0)
    assert (change.previous, change.current, change.skipped, change.new_round) == (
        "b!", "d*", ("C",), False)
    wrapped, change = turns.advance(new)
    assert (wrapped.current, wrapped.round, change.new_round) == (0, 1, True)
    everyone = turns.advance(order, skips=lambda m: turns.Skip(m))[0]
    assert (everyone.current, everyone.round) == (1, 1)  # a full lap: back to b
    assert turns.insert(order, 1, "x") == turns.TurnOrder(("a", "x", "b", "c", "d"), 2, 0)
    assert turns.insert(order, 2, "x").current == 1
    assert turns.remove(order, 0) == turns.TurnOrder(("b", "c", "d"), 0, 0)
    assert turns.remove(order, 1) == turns.TurnOrder(("a", "c", "d"), 1, 0)
    assert turns.remove(turns.TurnOrder(("a", "b"), 1), 1).current == 0
    with pytest.raises(ValueError):
        turns.remove(turns.TurnOrder(("a",)), 0)


def test_grid_and_cost_kits() -> None:
    from rules.kits import costs, grid

    assert grid.parse_cell(" b 12 ") == (1, 11)
    assert grid.parse_cell("AA1") is None
    assert not grid.contains((8, 0), 8, 8)
    assert (grid.chebyshev((0, 0), (3, 1)), grid.manhattan((0, 0), (3, 1))) == (3, 4)
    assert grid.render(2, 2, {(1, 0): "X"}) == ["   A B", " 1 . X", " 2 . ."]
    table = costs.CostTable({"attack": 2}, costs.alias_table({"attack": ("攻擊",)}))
    assert table.resolve(" 攻擊 ", {"attack": 2}) == "attack"
    assert table.resolve("Sing", {"attack": 2, "sing": 1}) == "sing"
    assert table.resolve("dance", {"attack": 2}) is None
    assert table.merged({"攻擊": 3, "吟唱": 4}) == {"attack": 3, "吟唱": 4}
    assert table.with_cost({"attack": 2}, "ATTACK", 5) == {"attack": 5}


def test_the_last_member_of_a_turn_order_says_why_it_stays() -> None:
    from rules.kits import turns

    with pytest.raises(ValueError, match=r"^cannot remove the last member of a turn order$"):
        turns.remove(turns.TurnOrder(("a",)), 0)


def test_grid_distances_use_both_coordinates_of_both_cells() -> None:
    from rules.kits import grid

    assert grid.chebyshev((2, 0), (5, 1)) == 3
    assert grid.manhattan((2, 1), (5, 4)) == 6


def test_cost_tables_name_every_canonical_action_and_keep_custom_spellings() -> None:
    from rules.kits import costs

    aliases = costs.alias_table({"attack": ("攻擊",)})
    assert aliases == {"attack": "attack", "攻擊": "attack"}
    table = costs.CostTable({"attack": 2}, aliases)
    assert table.resolve("攻擊", {"sing": 1}) is None  # an alias of an action not in play
    assert table.with_cost({"Sing": 1}, "sing", 3) == {"Sing": 3}


class _Faces:
    """A dice source that answers 7 and records the faces of every die asked."""

    def __init__(self) -> None:
        self.faces: list[int] = []

    def roll(self, faces: int) -> int:
        self.faces.append(faces)
        return 7


def test_advantage_layers_add_up_cancel_and_always_roll_d20s() -> None:
    """The advantage kit (ap20 AP-6, v6 layers): ``net`` sums the layers; one die at a net
    of 0, two d20s otherwise."""
    from rules.kits.advantage import Layer, net, roll_d20

    layers = (Layer(2, "high"), Layer(-1, "low"))
    assert net(layers) == 1
    for given, dice in ((layers, [20, 20]), ((Layer(1, "a"), Layer(-1, "b")), [20])):
        source = _Faces()
        roll_d20(source, given)  # type: ignore[arg-type]
        assert source.faces == dice


def test_layer_verdicts_merge_into_one() -> None:
    """Every layer's say about an attack counts: layers, lost parts and facts add up; a
    sneak or an undefendable attack from any layer holds."""
    from rules.kits.advantage import AttackTactics, Layer, merge

    first = AttackTactics((Layer(1, "a"),), frozenset({"parry"}), True, False, (("x", 1),))
    second = AttackTactics((Layer(-2, "b"),), frozenset({"dodge"}), False, True, (("y", 2),))
    assert merge([first, second]) == AttackTactics(
        (Layer(1, "a"), Layer(-2, "b")), frozenset({"parry", "dodge"}), True, True,
        (("x", 1), ("y", 2)))
    assert merge([]) == AttackTactics()
    assert merge([AttackTactics(), AttackTactics()]) == AttackTactics()
