"""The v6 system's ops and scenarios for the case runner (tests/rules/data/v6)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from pydantic import TypeAdapter

from rules.dice.source import ScriptedSource
from rules.kits.grid import parse_cell
from rules.systems import v6 as V
from tests.rules.case_kit import Cases, Op, assert_match, expect_error, plain

STORED_FIELD = TypeAdapter(V.Field)
"""How the bot stores the field (``bot.systems.v6.documents.FIELD``): a JSON round trip
gives the same field."""


def _cell(text: str) -> tuple[int, int]:
    cell = parse_cell(text)
    assert cell is not None, text
    return cell


def _field(units: list[dict[str, Any]], width: int = V.DEFAULT_SIZE,
           height: int = V.DEFAULT_SIZE) -> V.Field:
    f = V.Field(width, height)
    for u in units:
        unit = V.Unit(u["name"], _cell(u["cell"]) if "cell" in u else None,
                      u.get("facing", 0), u.get("posture", "stand"), u.get("size", "medium"),
                      u.get("sense", "normal"), u.get("fatigue", 0), u.get("stats", {}))
        f = f.put(unit)
    return f


def _tactics(t: Any) -> dict[str, Any]:
    return {"layers": [plain(x) for x in t.layers], "net": sum(x.amount for x in t.layers),
            "lost_defense": sorted(t.lost_defense), "undefendable": t.undefendable,
            "sneak": t.sneak, "facts": dict(t.facts)}


def op_sector(src: ScriptedSource, i: dict[str, Any]) -> Any:
    toward = V.bearing(_cell(i["at"]), _cell(i["from"]))
    return {"bearing": round(toward, 3), "sector": V.sector(i["facing"], toward,
                                                             i.get("sense", "normal"))}


def op_direction(src: ScriptedSource, i: dict[str, Any]) -> Any:
    return {"degrees": V.direction(i["text"])}


def op_tactics(src: ScriptedSource, i: dict[str, Any]) -> Any:
    f = _field(i["units"])
    return _tactics(V.tactics(f, i["attacker"], i["target"], i["kind"], i.get("allies", ())))


def op_layers(src: ScriptedSource, i: dict[str, Any]) -> Any:
    return {"layers": [plain(x) for x in V.attack_layers(i["attacker"], i["target"], i["kind"])]}


def op_stride(src: ScriptedSource, i: dict[str, Any]) -> Any:
    return {"stride": V.stride(i["base"], V.posture(i["posture"]))}


def op_change(src: ScriptedSource, i: dict[str, Any]) -> Any:
    return plain(V.change("x", V.posture(i["before"]), V.posture(i["after"])))


def op_move_cost(src: ScriptedSource, i: dict[str, Any]) -> Any:
    return plain(V.move_cost(**i))


def op_gap(src: ScriptedSource, i: dict[str, Any]) -> Any:
    found = V.gap(_cell(i["a"]), i.get("size_a", "medium"), _cell(i["b"]),
                  i.get("size_b", "medium"))
    return {**plain(found), "centres": round(found.centres, 3), "edge": round(found.edge, 3)}


# --------------------------------------------------------------------------- the field


def _snapshot(f: V.Field) -> dict[str, Any]:
    from rules.kits.grid import cell_name

    return {u.name: {"cell": cell_name(*u.cell) if u.cell else None, "facing": u.facing,
                     "posture": u.posture, "fatigue": u.fatigue, "size": u.size,
                     "sense": u.sense, "stats": u.stats}
            for u in f.units}


def _moved(f: V.Field, event: V.Move) -> tuple[V.Field, dict[str, Any]]:
    """A move's numbers, its exact length to 3 places."""
    return f, {**plain(event), "length": round(event.length, 3)}


def _step(f: V.Field, do: str, a: dict[str, Any]) -> tuple[V.Field, Any]:
    if do == "place":
        kwargs = {k: a[k] for k in ("facing", "size", "sense", "stats") if k in a}
        return V.place(f, a["name"], _cell(a["cell"]), **kwargs)
    if do == "face":
        facing = a["facing"] if "facing" in a else V.facing_toward(f, a["name"], a["toward"])
        return V.face(f, a["name"], facing)
    if do == "pose":
        return V.pose(f, a["name"], V.posture(a["posture"]))
    if do == "move":
        kwargs = {k: a[k] for k in ("base_stride", "agility", "might", "mode", "vaults",
                                    "leaps", "climb", "partner_stride") if k in a}
        return _moved(*V.move(f, a["name"], [_cell(c) for c in a["path"]], **kwargs))
    if do == "forced":
        return _moved(*V.forced_move(f, a["name"], _cell(a["to"])))
    if do == "rest":
        return V.rest(f, a["name"], a["fatigue"]), None
    if do == "keep":
        kept = f.keep(a["names"])
        return kept, {"units": [u.name for u in kept.units]}
    if do == "turn":  # decision 12: what the turn has done, and what a move would cost
        f = f.on_turn(a["turn"])
        f = replace(f, moved=f.moved or a.get("moved", False),
                    acted=f.acted or a.get("acted", False))
        action = V.move_action(f)
        return f, {"moved": f.moved, "acted": f.acted,
                   "move_action": list(action) if action else None}
    if do == "drop":
        dropped = f.drop(a["name"])
        return dropped, {"units": [u.name for u in dropped.units]}
    if do == "resize":
        resized = V.resize(f, a["width"], a["height"])
        return resized, {"width": resized.width, "height": resized.height}
    if do == "tactics":
        return f, _tactics(V.tactics(f, a["attacker"], a["target"], a["kind"],
                                     a.get("allies", ())))
    if do == "roundtrip":
        again = STORED_FIELD.validate_json(STORED_FIELD.dump_json(f))
        assert again == f
        return again, None
    raise AssertionError(f"unknown field step {do!r}")


def run_field(case: dict[str, Any], src: ScriptedSource) -> None:
    f = _field(case.get("input", {}).get("units", []))
    for n, step in enumerate(case["steps"]):
        args = step.get("args", {})
        if "error" in step:
            before = f
            expect_error(step, lambda g=f, s=step, a=args: _step(g, s["do"], a))
            assert f == before, "a refused step must not change the field"
        else:
            f, event = _step(f, step["do"], args)
            if "expect" in step:
                assert_match(step["expect"], event if isinstance(event, dict) else plain(event),
                             f"step {n} ({step['do']})")
        if "state" in step:
            assert_match(step["state"], _snapshot(f), f"step {n} state")


V6_OPS: dict[str, Op] = {
    "sector": op_sector,
    "direction": op_direction,
    "tactics": op_tactics,
    "layers": op_layers,
    "stride": op_stride,
    "change": op_change,
    "move_cost": op_move_cost,
    "gap": op_gap,
}

CASES = Cases(
    ops=V6_OPS,
    scenarios={"field": run_field},
    rules=frozenset(f"V6-{n}" for n in range(1, 5)),
)
