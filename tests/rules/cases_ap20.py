"""The ap20 system's ops and scenarios for the case runner (tests/rules/data/ap20)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from pydantic import TypeAdapter

from rules.dice.source import ScriptedSource
from rules.kits.advantage import Layer, roll_d20
from rules.kits.encounter import Life
from rules.systems import ap20 as A
from tests.rules.case_kit import Cases, Op, assert_match, expect_error, plain


def _layers(items: list[dict[str, Any]] | None) -> tuple[Layer, ...]:
    return tuple(Layer(int(i["amount"]), str(i.get("reason", "gm"))) for i in items or ())


def op_spend(src: ScriptedSource, i: dict[str, Any]) -> Any:
    kwargs = {k: i[k] for k in ("mp", "stamina", "stamina_base") if k in i}
    return plain(A.spend(i["action"], i["ap"], **kwargs))


def op_defense(src: ScriptedSource, i: dict[str, Any]) -> Any:
    kwargs = {k: i[k] for k in ("ap", "incapacitated", "lost", "armor_only") if k in i}
    return plain(A.defense_level(i["parts"], i.get("mods"), **kwargs))


def op_d20(src: ScriptedSource, i: dict[str, Any]) -> Any:
    result = roll_d20(src, _layers(i.get("layers")))
    return {**plain(result), "net": result.net, "mode": result.mode}


def op_attack_check(src: ScriptedSource, i: dict[str, Any]) -> Any:
    kwargs = {k: i[k] for k in ("mods", "crit_strength", "toughness", "sneak", "seen") if k in i}
    return plain(A.attack_check(src, hit=i["hit"], pen=i["pen"], defense=i["defense"],
                                layers=_layers(i.get("layers")), **kwargs))


def op_attack(src: ScriptedSource, i: dict[str, Any]) -> Any:
    spec = dict(i)
    spec["layers"] = _layers(spec.get("layers"))
    spec["lost"] = frozenset(spec.get("lost", ()))
    return plain(A.resolve_attack(src, A.AttackSpec(**spec)))


def op_save(src: ScriptedSource, i: dict[str, Any]) -> Any:
    dc = i["dc"] if "dc" in i else A.save_dc(i["dc_modifier"],
                                              *([i["dc_mods"]] if "dc_mods" in i else []))
    kwargs = {k: i[k] for k in ("mods", "tier") if k in i}
    return plain(A.saving_throw(src, modifier=i["modifier"], dc=dc,
                                layers=_layers(i.get("layers")), **kwargs))


def op_check(src: ScriptedSource, i: dict[str, Any]) -> Any:
    kwargs = {k: i[k] for k in ("modifier", "mods", "tier", "dc") if k in i}
    return plain(A.check(src, layers=_layers(i.get("layers")), **kwargs))


def op_modifier(src: ScriptedSource, i: dict[str, Any]) -> Any:
    return {"modifier": A.modifier(i["score"])}


def op_monster_hp(src: ScriptedSource, i: dict[str, Any]) -> Any:
    return {"hp": A.monster_hp(i["con"], i["tier"])}


def op_life(src: ScriptedSource, i: dict[str, Any]) -> Any:
    """Issue 24: a fighter's life state from its flags and its HP."""
    return {"life": A.life(_fighter(i["fighter"]), i.get("hp")).value}


def op_hp_within(src: ScriptedSource, i: dict[str, Any]) -> Any:
    return {"hp": A.hp_within(i["value"], i.get("maximum"))}


def op_after_attack(src: ScriptedSource, i: dict[str, Any]) -> Any:
    return {"flags": list(A.after_attack(_fighter(i["fighter"])).flags)}


def op_damage(src: ScriptedSource, i: dict[str, Any]) -> Any:
    kind = A.damage_type(i["type"]) if "type" in i else None
    if "type" in i and kind is None:
        return {"unknown_type": i["type"]}
    kwargs = {k: v for k, v in (("kind", kind), ("resistances", i.get("resist")),
                                ("crit", i.get("crit"))) if v is not None}
    if "amount" in i:
        return plain(A.fixed_damage(i["amount"], **kwargs))
    return plain(A.roll_damage(src, i["expression"], **kwargs))


# --------------------------------------------------------------------------- the fight

STORED_FIGHTER = TypeAdapter(A.Fighter)
STORED_COMBAT = TypeAdapter(A.Combat)
"""How the bot stores a fight (``bot.systems.ap20.documents.COMBAT``): a JSON round
trip gives the same fight."""


def _fighter(data: dict[str, Any]) -> A.Fighter:
    return STORED_FIGHTER.validate_python(data)


def _snapshot(combat: A.Combat | None) -> dict[str, Any]:
    if combat is None:
        return {"empty": True}
    actor = combat.actor
    return {"order": [f.name for f in combat.fighters], "round": combat.round,
            "started": combat.started, "actor": actor.name if actor else None,
            "ap": {f.name: f.ap for f in combat.fighters},
            "hp": {f.name: f.hp for f in combat.fighters if f.hp is not None}}


def _step(combat: A.Combat | None, src: ScriptedSource, do: str, args: dict[str, Any]
          ) -> tuple[A.Combat | None, Any]:
    if do == "join":
        fighter = _fighter(args["fighter"])
        if "roll" in args:
            rolled = A.initiative(src, **args["roll"])
            fighter = replace(fighter, initiative=rolled.total, init_rolls=rolled.rolls)
            return A.join(combat, fighter), rolled
        return A.join(combat, fighter), None
    assert combat is not None
    if do == "next":
        lives = {name: Life(life) for name, life in args.get("lives", {}).items()}
        return A.next_turn(combat, lives)
    if do == "spend":
        return A.spend_action(combat, args["name"], args["action"],
                              **{k: args[k] for k in ("mp", "stamina", "stamina_base")
                                 if k in args})
    if do == "remove":
        return A.remove(combat, args["name"]), None
    if do == "leave":
        lives = {name: Life(life) for name, life in args.get("lives", {}).items()}
        return A.leave(combat, args["name"], lives)
    if do == "set":
        return A.update(combat, args["name"], **args["changes"]), None
    if do == "check_turn":
        return combat, A.check_turn(combat, args["name"], args["action"])
    if do == "flags":
        fighter = combat.get(args["name"])
        flags = A.with_flags(fighter, args.get("add", ()), args.get("drop", ()))
        combat = A.update(combat, fighter.name, flags=flags)
        return combat, {"flags": flags,
                        "has": [f for f in A.FLAGS if combat.get(fighter.name).has(f)]}
    if do == "hurt":
        combat, before, after = A.hurt(combat, args["name"], args["amount"])
        return combat, {"before": before, "after": after}
    if do == "roundtrip":
        again = STORED_COMBAT.validate_json(STORED_COMBAT.dump_json(combat))
        assert again == combat
        return again, None
    raise AssertionError(f"unknown fight step {do!r}")


def run_fight(case: dict[str, Any], src: ScriptedSource) -> None:
    combat: A.Combat | None = None
    for n, step in enumerate(case["steps"]):
        src.push(step.get("dice", []))
        args = step.get("args", {})
        if "error" in step:
            before = combat
            expect_error(step, lambda c=combat, s=step, a=args: _step(c, src, s["do"], a))
            assert combat == before, "a refused step must not change the fight"
        else:
            combat, event = _step(combat, src, step["do"], args)
            if "expect" in step:
                assert_match(step["expect"], plain(event), f"step {n} ({step['do']})")
        if "state" in step:
            assert_match(step["state"], _snapshot(combat), f"step {n} state")
        assert src.remaining == 0, f"step {n}: {src.remaining} scripted dice unused"


AP20_OPS: dict[str, Op] = {
    "spend": op_spend,
    "defense": op_defense,
    "d20": op_d20,
    "attack_check": op_attack_check,
    "attack": op_attack,
    "save": op_save,
    "check": op_check,
    "modifier": op_modifier,
    "monster_hp": op_monster_hp,
    "damage": op_damage,
    "life": op_life,
    "hp_within": op_hp_within,
    "after_attack": op_after_attack,
}

CASES = Cases(
    ops=AP20_OPS,
    scenarios={"fight": run_fight},
    rules=frozenset(f"AP-{n}" for n in range(1, 10)),
)
