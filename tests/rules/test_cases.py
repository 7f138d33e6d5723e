"""The BCDice-style case runner for every rule system: tests/rules/data/<system>/*.toml.

One folder per system (its id), one file per rule id or area. Each ``[[case]]``
names its rule id (``rule = "PL-17"``), a ``name``, an operation (``op``: a
function of the system, or a scenario), the scripted dice (``dice``, used in
order; any die beyond them fails the test, and every scripted die must be used),
its ``input``, and the expected numbers (``expect``: a subset of the result,
nested tables compared as subsets, lists element by element) or a refusal
(``error`` = code, optional ``error_params``). TOML has no null, so the string
``"null"`` in an expectation means None.

Scenario ops (plurk: ``ap``, ``battle``) run ``[[case.steps]]`` in order on one
state; a step has ``do``, ``args``, its own ``dice``, and ``expect`` (the step's
event), ``state`` (a snapshot of the state after the step) or ``error``.

A system plugs in with one ``Cases`` entry in ``SYSTEMS`` below: its simple ops
(``(source, input) -> result``), its scenario runner and the rule ids that must
each have at least one case. Test ids read ``<rule>-<system>/<file>-<case name>``.
"""

from __future__ import annotations

import dataclasses
import json
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from rules.dice.source import ScriptedSource
from rules.errors import RuleError
from rules.systems import plurk as P

DATA = Path(__file__).parent / "data"
NULL = "null"

Op = Callable[[ScriptedSource, dict[str, Any]], Any]
Scenario = Callable[[dict[str, Any], ScriptedSource], None]


class _NoMoreDice:
    """Fallback source: a case that rolls more dice than it scripted is a wrong case."""

    def roll(self, faces: int) -> int:
        raise AssertionError(f"unscripted d{faces} rolled")


def _source(dice: list[int] | None = None) -> ScriptedSource:
    return ScriptedSource(dice or [], fallback=_NoMoreDice())


def _plain(value: Any) -> Any:
    """Dataclasses → dicts, tuples → lists, so results compare with TOML data."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        value = dataclasses.asdict(value)
    return json.loads(json.dumps(value, ensure_ascii=False))


def assert_match(expected: Any, actual: Any, path: str = "") -> None:
    """Subset match: dict keys present in ``expected`` only, lists element-wise."""
    if expected == NULL:
        assert actual is None, f"{path}: expected None, got {actual!r}"
    elif isinstance(expected, dict):
        assert isinstance(actual, dict), f"{path}: expected a table, got {actual!r}"
        for key, value in expected.items():
            assert key in actual, f"{path}.{key}: missing in {sorted(actual)}"
            assert_match(value, actual[key], f"{path}.{key}")
    elif isinstance(expected, list):
        assert isinstance(actual, list), f"{path}: expected a list, got {actual!r}"
        assert len(expected) == len(actual), f"{path}: expected {expected!r}, got {actual!r}"
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            assert_match(e, a, f"{path}[{i}]")
    else:
        assert actual == expected, f"{path}: expected {expected!r}, got {actual!r}"


def _expect_error(spec: dict[str, Any], run: Callable[[], Any]) -> None:
    with pytest.raises(RuleError) as caught:
        run()
    assert caught.value.code == spec["error"]
    if "error_params" in spec:
        assert_match(spec["error_params"], _plain(caught.value.params), "error_params")


# =========================================================================== plurk

# --------------------------------------------------------------------------- simple ops


def _check_kwargs(spec: dict[str, Any]) -> dict[str, Any]:
    return {k: spec[k] for k in ("modifier", "bonus", "threshold", "stat", "mode") if k in spec}


def op_check(src: ScriptedSource, i: dict[str, Any]) -> Any:
    result = P.check(src, **_check_kwargs(i))
    return {**_plain(result), "margin": result.margin}


def op_push(src: ScriptedSource, i: dict[str, Any]) -> Any:
    original = P.check(src, **_check_kwargs(i["original"]))
    return {**_plain(P.push(original, src)), "original": _plain(original)}


def op_fate(src: ScriptedSource, i: dict[str, Any]) -> Any:
    original = P.check(src, **_check_kwargs(i["original"]))
    kwargs = {"threshold": i["threshold"]} if "threshold" in i else {}
    return {**_plain(P.fate_check(original, src, **kwargs)), "original": _plain(original)}


def op_secret(src: ScriptedSource, i: dict[str, Any]) -> Any:
    """PL-7: the same dice give the same numbers whether the bot routes them privately."""
    dice = list(i["dice_again"])
    secret = P.check(src, **_check_kwargs(i))
    public = P.check(_source(dice), **_check_kwargs(i))
    notice = P.secret_notice(secret, i["investigator"])
    return {**_plain(secret), "same_as_public": secret == public, "notice": _plain(notice)}


def op_sanity(src: ScriptedSource, i: dict[str, Any]) -> Any:
    return _plain(P.sanity_check(src, i["san"], i["loss"]))


def op_loss(src: ScriptedSource, i: dict[str, Any]) -> Any:
    return _plain(P.apply_loss(i["current"], i["loss"]))


def op_intervene(src: ScriptedSource, i: dict[str, Any]) -> Any:
    return _plain(P.intervene(i["cp"], **({"cost": i["cost"]} if "cost" in i else {})))


def _side(spec: dict[str, Any]) -> P.OpposedSide:
    return P.OpposedSide(**spec)


def op_opposed(src: ScriptedSource, i: dict[str, Any]) -> Any:
    kwargs = {k: i[k] for k in ("mode", "max_rerolls") if k in i}
    result = P.opposed(src, _side(i["a"]), _side(i["b"]), **kwargs)
    return {**_plain(result), "winner_label": result.winner_label}


def op_surprise(src: ScriptedSource, i: dict[str, Any]) -> Any:
    kwargs = {"mode": i["mode"]} if "mode" in i else {}
    return _plain(P.surprise_check(src, _side(i["stealth"]), _side(i["perception"]), **kwargs))


def op_merged(src: ScriptedSource, i: dict[str, Any]) -> Any:
    items = [P.CheckItem(**item) for item in i["items"]]
    result = P.merged_check(src, items, **({"mode": i["mode"]} if "mode" in i else {}))
    return {**_plain(result), "all_success": result.all_success}


def op_compound(src: ScriptedSource, i: dict[str, Any]) -> Any:
    items = [P.StatRef(**item) for item in i["items"]]
    kwargs = {k: i[k] for k in ("bonus", "threshold", "mode") if k in i}
    return _plain(P.compound_check(src, items, **kwargs))


def op_collective(src: ScriptedSource, i: dict[str, Any]) -> Any:
    members = [P.Member(**m) for m in i["members"]]
    kwargs = {k: i[k] for k in ("threshold", "mode") if k in i}
    return _plain(P.collective_check(src, i["stat"], members, **kwargs))


def op_armor(src: ScriptedSource, i: dict[str, Any]) -> Any:
    kwargs = {k: i[k] for k in ("penetration", "damage_type") if k in i}
    return {
        "taken": P.damage_after_armor(i["raw"], i["armor"], **kwargs),
        "effective_armor": P.effective_armor(i["armor"], **kwargs),
    }


def op_damage_roll(src: ScriptedSource, i: dict[str, Any]) -> Any:
    kwargs = {k: i[k] for k in ("impale", "kind") if k in i}
    return _plain(P.roll_damage(src, i["expr"], **kwargs))


def op_dice(src: ScriptedSource, i: dict[str, Any]) -> Any:
    return _plain(P.roll_dice(src, i["expr"]))


def op_attack_kind(src: ScriptedSource, i: dict[str, Any]) -> Any:
    kwargs = {k: i[k] for k in ("edged", "heavy") if k in i}
    return {"kind": P.attack_kind(i["skill"], **kwargs)}


def op_knockout(src: ScriptedSource, i: dict[str, Any]) -> Any:
    kwargs = {k: i[k] for k in ("human_like", "con_bonus") if k in i}
    return _plain(
        P.knock_out_roll(src, i["raw_damage"], i["hp"], i["con"], kind=i["kind"], **kwargs)
    )


def op_stat(src: ScriptedSource, i: dict[str, Any]) -> Any:
    stat = P.resolve_stat(i["spelling"])
    return {
        "label": P.stat_label(i["spelling"]),
        "kind": P.stat_kind(i["spelling"]),
        "combat": P.is_combat_skill(i["spelling"]),
        "declared": stat is not None,
    }


# --------------------------------------------------------------------------- scenarios


def _ap_snapshot(pool: P.ApPool) -> dict[str, Any]:
    return {"points": pool.points, "costs": dict(pool.costs)}


def _ap_step(pool: P.ApPool, do: str, args: dict[str, Any]) -> tuple[P.ApPool, Any]:
    if do == "grant":
        return P.grant_ap(pool, args["amount"])
    if do == "set":
        return P.set_ap(pool, args["points"])
    if do == "spend":
        return P.spend_ap(
            pool, args["action"], **({"cost": args["cost"]} if "cost" in args else {})
        )
    if do == "cost":
        return P.set_ap_cost(pool, args["action"], args["cost"]), None
    if do == "roundtrip":
        again = P.ApPool.from_dict(json.loads(json.dumps(pool.to_dict())))
        assert again == pool
        return again, None
    raise AssertionError(f"unknown AP step {do!r}")


def _battle_snapshot(battle: P.Battle) -> dict[str, Any]:
    cs = battle.combatants
    return {
        "round": battle.round,
        "current": battle.actor.name,
        "order": list(battle.order),
        "bp": {c.name: c.bp for c in cs},
        "bp_max": {c.name: c.bp_max for c in cs},
        "hp": {c.name: c.hp for c in cs},
        "position": {c.name: c.position for c in cs},
        "unconscious": {c.name: c.unconscious for c in cs},
        "durability": {c.name: c.weapon_durability for c in cs},
        "parry": {c.name: c.parry_against for c in cs},
        "initiative": {c.name: c.initiative for c in cs},
        "initiative_rolls": {c.name: list(c.initiative_rolls) for c in cs},
        "human_like": {c.name: c.human_like for c in cs},
        "costs": dict(battle.costs),
        "field": [battle.width, battle.height],
        "ended": battle.ended,
        "board": P.render_board(battle),
    }


class _BattleRun:
    """Holds the state of one battle scenario between its steps."""

    def __init__(self) -> None:
        self.battle: P.Battle | None = None
        self.last_damage: P.DamageResult | None = None

    def step(self, src: ScriptedSource, do: str, args: dict[str, Any]) -> Any:
        b = self.battle
        if do == "start":
            entrants = [P.Entrant(**e) for e in args["entrants"]]
            options = {k: v for k, v in args.items() if k != "entrants"}
            self.battle = P.start_battle(src, entrants, **options)
            return None
        assert b is not None, "start the battle first"
        event: Any = None
        if do == "spend":
            self.battle, event = P.spend_bp(b, **args)
        elif do == "pass":
            self.battle, event = P.pass_turn(b, **args)
        elif do == "skip":
            self.battle, event = P.skip_turn(b)
        elif do == "move":
            self.battle, event = P.move(b, **args)
        elif do == "place":
            self.battle = P.place(b, args["name"], args.get("cell"))
        elif do == "parry":
            self.battle, event = P.declare_parry(b, **args)
        elif do == "damage":
            self.battle, event = P.apply_damage(b, **args)
            self.last_damage = event
        elif do == "knockout":
            self.battle, event = P.knock_out(b, src, **args)
            self.last_damage = event.damage
        elif do == "cancel":
            assert self.last_damage is not None
            self.battle = P.cancel_damage(b, self.last_damage)
        elif do == "wake":
            self.battle = P.wake(b, args["name"])
        elif do == "add":
            entrant = P.Entrant(**args["entrant"])
            kwargs = {"initiative": args["initiative"]} if "initiative" in args else {}
            self.battle = P.add_combatant(b, entrant, src, **kwargs)
        elif do == "remove":
            self.battle, event = P.remove_combatant(b, args["name"])
        elif do == "update":
            self.battle = P.update_combatant(b, args["name"], **args["changes"])
        elif do == "cost":
            self.battle = P.set_bp_cost(b, args["action"], args["cost"])
        elif do == "field":
            self.battle = P.set_field(b, args["width"], args["height"])
        elif do == "end":
            self.battle = P.end_battle(b)
        elif do == "roundtrip":
            again = P.Battle.from_dict(json.loads(json.dumps(b.to_dict())))
            assert again == b
            self.battle = again
        else:
            raise AssertionError(f"unknown battle step {do!r}")
        return event


def run_plurk_scenario(case: dict[str, Any], src: ScriptedSource) -> None:
    if case["op"] == "ap":
        pool = P.ApPool.from_dict(case.get("input", {}).get("pool", {}))
        for n, step in enumerate(case["steps"]):
            src.push(step.get("dice", []))
            args = step.get("args", {})
            if "error" in step:
                _expect_error(step, lambda p=pool, s=step, a=args: _ap_step(p, s["do"], a))
                continue
            pool, event = _ap_step(pool, step["do"], args)
            if "expect" in step:
                assert_match(step["expect"], _plain(event), f"step {n} ({step['do']})")
            if "state" in step:
                assert_match(step["state"], _ap_snapshot(pool), f"step {n} state")
    else:
        run = _BattleRun()
        for n, step in enumerate(case["steps"]):
            src.push(step.get("dice", []))
            args = step.get("args", {})
            if "error" in step:
                before = run.battle
                _expect_error(step, lambda s=step, a=args: run.step(src, s["do"], a))
                assert run.battle == before, "a refused step must not change the state"
            else:
                event = run.step(src, step["do"], args)
                if "expect" in step:
                    assert_match(step["expect"], _plain(event), f"step {n} ({step['do']})")
            if "state" in step:
                assert run.battle is not None
                assert_match(step["state"], _battle_snapshot(run.battle), f"step {n} state")
            assert src.remaining == 0, f"step {n}: {src.remaining} scripted dice unused"


PLURK_OPS: dict[str, Op] = {
    "check": op_check,
    "push": op_push,
    "fate": op_fate,
    "secret": op_secret,
    "sanity": op_sanity,
    "loss": op_loss,
    "intervene": op_intervene,
    "opposed": op_opposed,
    "surprise": op_surprise,
    "merged": op_merged,
    "compound": op_compound,
    "collective": op_collective,
    "armor": op_armor,
    "damage_roll": op_damage_roll,
    "dice": op_dice,
    "attack_kind": op_attack_kind,
    "knockout": op_knockout,
    "stat": op_stat,
}


# =========================================================================== the runner


@dataclass(frozen=True)
class Cases:
    """How the runner drives one system's case tables."""

    ops: dict[str, Op]
    scenarios: dict[str, Scenario] = field(default_factory=dict)
    rules: frozenset[str] = frozenset()  # rule ids that must each have a case


SYSTEMS: dict[str, Cases] = {
    "plurk": Cases(
        ops=PLURK_OPS,
        scenarios={"ap": run_plurk_scenario, "battle": run_plurk_scenario},
        rules=frozenset(f"PL-{n}" for n in range(1, 19)),
    ),
}


@dataclass(frozen=True)
class Case:
    system: str
    file: str  # the table's stem
    spec: dict[str, Any]

    @property
    def id(self) -> str:
        slug = re.sub(r"[^0-9A-Za-z]+", "-", self.spec["name"]).strip("-").lower()
        return f"{self.spec['rule']}-{self.system}/{self.file}-{slug}"


def load_cases() -> list[Case]:
    """Every case of every table of every system, in folder and file order."""
    cases = []
    for folder in sorted(p for p in DATA.iterdir() if p.is_dir()):
        for path in sorted(folder.glob("*.toml")):
            with path.open("rb") as handle:
                for spec in tomllib.load(handle).get("case", []):
                    cases.append(Case(folder.name, path.stem, spec))
    return cases


CASES = load_cases()


@pytest.mark.parametrize("case", [pytest.param(case, id=case.id) for case in CASES])
def test_case(case: Case) -> None:
    system = SYSTEMS[case.system]
    spec = case.spec
    if spec["op"] in system.scenarios:
        system.scenarios[spec["op"]](spec, _source())
        return
    src = _source(spec.get("dice"))
    inputs = spec.get("input", {})
    run = system.ops[spec["op"]]
    if "error" in spec:
        _expect_error(spec, lambda: run(src, inputs))
    else:
        assert_match(spec["expect"], run(src, inputs), "result")
    assert src.remaining == 0, f"{src.remaining} scripted dice unused"


def test_every_case_folder_is_a_known_system() -> None:
    assert {p.name for p in DATA.iterdir() if p.is_dir()} <= set(SYSTEMS)


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_every_rule_has_a_case(system: str) -> None:
    covered = {case.spec["rule"] for case in CASES if case.system == system}
    assert SYSTEMS[system].rules <= covered


def test_every_case_names_a_known_op() -> None:
    unknown = [case.id for case in CASES
               if case.spec["op"] not in SYSTEMS[case.system].ops
               and case.spec["op"] not in SYSTEMS[case.system].scenarios]
    assert unknown == []


def test_case_ids_are_unique() -> None:
    ids = [case.id for case in CASES]
    assert len(ids) == len(set(ids))
