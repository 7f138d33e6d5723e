"""The coc7 system's ops for the case runner (tests/rules/data/coc7).

Dice are scripted as faces: a d10 face f is the die showing f − 1, so a d100 of 23
is ``[4, 3]`` (units 3, then tens 2) and 100 is ``[1, 1]``.

An optional argument is passed only when the case names it, so a case without it
runs the function's own default (a default is behaviour too)."""

from __future__ import annotations

from typing import Any

from rules.dice import Limits
from rules.dice.source import ScriptedSource
from rules.systems import coc7 as C
from tests.rules.case_kit import Cases, Op, plain


def _rule(i: dict[str, Any]) -> C.HouseRule:
    return C.house_rule(int(i.get("rule", 0)))


def _given(i: dict[str, Any], *keys: str) -> dict[str, Any]:
    """The optional arguments among ``keys`` that the case's input names."""
    return {key: i[key] for key in keys if key in i}


def op_level(src: ScriptedSource, i: dict[str, Any]) -> Any:
    return {"level": C.level(i["roll"], i["skill"], _rule(i))}


def op_check(src: ScriptedSource, i: dict[str, Any]) -> Any:
    result = C.check(src, i["skill"], **_given(i, "bonus", "difficulty"), rule=_rule(i))
    return plain(result)


def op_opposed(src: ScriptedSource, i: dict[str, Any]) -> Any:
    return plain(C.opposed(src, i["a"], i["b"], **_given(i, "a_bonus", "b_bonus"),
                           rule=_rule(i)))


def op_meets(src: ScriptedSource, i: dict[str, Any]) -> Any:
    return {"success": C.meets(i["level"], **_given(i, "difficulty"))}


def op_sanity(src: ScriptedSource, i: dict[str, Any]) -> Any:
    limits = {"limits": Limits(max_rolls=i["max_rolls"])} if "max_rolls" in i else {}
    result = C.sanity_check(src, i["san"], C.parse_loss(i["loss"]), rule=_rule(i), **limits)
    return {**plain(result), "value": result.roll.value}


def op_growth(src: ScriptedSource, i: dict[str, Any]) -> Any:
    result = C.improve(src, i["skill"], i.get("name"))
    return {**plain(result), "value": result.roll.value}


def op_create(src: ScriptedSource, i: dict[str, Any]) -> Any:
    found = C.create(src, **_given(i, "count"))
    return [{"values": x.values, "total": x.total, "total_with_luck": x.total_with_luck}
            for x in found]


def op_bout(src: ScriptedSource, i: dict[str, Any]) -> Any:
    return plain(C.bout(src, i["kind"]))


def op_value(src: ScriptedSource, i: dict[str, Any]) -> Any:
    found, on_sheet = C.value(i["name"], i.get("stats", {}))
    return {"value": found, "on_sheet": on_sheet}


def op_derived(src: ScriptedSource, i: dict[str, Any]) -> Any:
    return {"hp": C.hit_points(i["con"], i["siz"]), "mp": C.magic_points(i["pow"])}


def op_house_rule(src: ScriptedSource, i: dict[str, Any]) -> Any:
    return plain(C.house_rule(i["rule"]))


OPS: dict[str, Op] = {
    "level": op_level, "meets": op_meets, "check": op_check, "opposed": op_opposed,
    "sanity": op_sanity, "growth": op_growth, "create": op_create, "bout": op_bout,
    "value": op_value, "derived": op_derived, "house_rule": op_house_rule,
}

CASES = Cases(ops=OPS, rules=frozenset(f"CO-{n}" for n in range(1, 11)))
