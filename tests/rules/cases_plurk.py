"""The plurk system's ops and scenarios for the case runner (tests/rules/data/plurk)."""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter

from rules.dice.source import ScriptedSource
from rules.systems import plurk_trpg as P
from tests.rules.case_kit import Cases, Op, assert_match, expect_error, plain, source

STORED_POOL = TypeAdapter(P.ApPool)
STORED_BATTLE = TypeAdapter(P.Battle)
"""How the bot stores the AP pool and the battle (``bot.systems.plurk_trpg.documents``):
a JSON round trip gives the same value."""

# --------------------------------------------------------------------------- simple ops


def _check_kwargs(spec: dict[str, Any]) -> dict[str, Any]:
    return {k: spec[k] for k in ("modifier", "bonus", "threshold", "stat", "mode") if k in spec}


def op_check(src: ScriptedSource, i: dict[str, Any]) -> Any:
    result = P.check(src, **_check_kwargs(i))
    return {**plain(result), "margin": result.margin}


def op_push(src: ScriptedSource, i: dict[str, Any]) -> Any:
    original = P.check(src, **_check_kwargs(i["original"]))
    return {**plain(P.push(original, src)), "original": plain(original)}


def op_fate(src: ScriptedSource, i: dict[str, Any]) -> Any:
    original = P.check(src, **_check_kwargs(i["original"]))
    kwargs = {"threshold": i["threshold"]} if "threshold" in i else {}
    return {**plain(P.fate_check(original, src, **kwargs)), "original": plain(original)}


def op_secret(src: ScriptedSource, i: dict[str, Any]) -> Any:
    """PL-7: the same dice give the same numbers whether the bot routes them privately."""
    dice = list(i["dice_again"])
    secret = P.check(src, **_check_kwargs(i))
    public = P.check(source(dice), **_check_kwargs(i))
    notice = P.secret_notice(secret, i["investigator"])
    return {**plain(secret), "same_as_public": secret == public, "notice": plain(notice)}


def op_sanity(src: ScriptedSource, i: dict[str, Any]) -> Any:
    return plain(P.sanity_check(src, i["san"], i["loss"]))


def op_loss(src: ScriptedSource, i: dict[str, Any]) -> Any:
    return plain(P.apply_loss(i["current"], i["loss"]))


def op_intervene(src: ScriptedSource, i: dict[str, Any]) -> Any:
    return plain(P.intervene(i["cp"], **({"cost": i["cost"]} if "cost" in i else {})))


def _side(spec: dict[str, Any]) -> P.OpposedSide:
    return P.OpposedSide(**spec)


def op_opposed(src: ScriptedSource, i: dict[str, Any]) -> Any:
    kwargs = {k: i[k] for k in ("mode", "max_rerolls") if k in i}
    result = P.opposed(src, _side(i["a"]), _side(i["b"]), **kwargs)
    return {**plain(result), "winner_label": result.winner_label}


def op_surprise(src: ScriptedSource, i: dict[str, Any]) -> Any:
    kwargs = {"mode": i["mode"]} if "mode" in i else {}
    return plain(P.surprise_check(src, _side(i["stealth"]), _side(i["perception"]), **kwargs))


def op_merged(src: ScriptedSource, i: dict[str, Any]) -> Any:
    items = [P.CheckItem(**item) for item in i["items"]]
    result = P.merged_check(src, items, **({"mode": i["mode"]} if "mode" in i else {}))
    return {**plain(result), "all_success": result.all_success}


def op_compound(src: ScriptedSource, i: dict[str, Any]) -> Any:
    items = [P.StatRef(**item) for item in i["items"]]
    kwargs = {k: i[k] for k in ("bonus", "threshold", "mode") if k in i}
    return plain(P.compound_check(src, items, **kwargs))


def op_collective(src: ScriptedSource, i: dict[str, Any]) -> Any:
    members = [P.Member(**m) for m in i["members"]]
    kwargs = {k: i[k] for k in ("threshold", "mode") if k in i}
    return plain(P.collective_check(src, i["stat"], members, **kwargs))


def op_armor(src: ScriptedSource, i: dict[str, Any]) -> Any:
    kwargs = {k: i[k] for k in ("penetration", "damage_type") if k in i}
    return {
        "taken": P.damage_after_armor(i["raw"], i["armor"], **kwargs),
        "effective_armor": P.effective_armor(i["armor"], **kwargs),
    }


def op_damage_roll(src: ScriptedSource, i: dict[str, Any]) -> Any:
    kwargs = {k: i[k] for k in ("impale", "kind") if k in i}
    return plain(P.roll_damage(src, i["expr"], **kwargs))


def op_dice(src: ScriptedSource, i: dict[str, Any]) -> Any:
    return plain(P.roll_dice(src, i["expr"]))


def op_attack_kind(src: ScriptedSource, i: dict[str, Any]) -> Any:
    kwargs = {k: i[k] for k in ("edged", "heavy") if k in i}
    return {"kind": P.attack_kind(i["skill"], **kwargs)}


def op_knockout(src: ScriptedSource, i: dict[str, Any]) -> Any:
    kwargs = {k: i[k] for k in ("human_like", "con_bonus") if k in i}
    return plain(
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
        again = STORED_POOL.validate_json(STORED_POOL.dump_json(pool))
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
            again = STORED_BATTLE.validate_json(STORED_BATTLE.dump_json(b))
            assert again == b
            self.battle = again
        else:
            raise AssertionError(f"unknown battle step {do!r}")
        return event


def run_plurk_scenario(case: dict[str, Any], src: ScriptedSource) -> None:
    if case["op"] == "ap":
        pool = STORED_POOL.validate_python(case.get("input", {}).get("pool", {}))
        for n, step in enumerate(case["steps"]):
            src.push(step.get("dice", []))
            args = step.get("args", {})
            if "error" in step:
                expect_error(step, lambda p=pool, s=step, a=args: _ap_step(p, s["do"], a))
                continue
            pool, event = _ap_step(pool, step["do"], args)
            if "expect" in step:
                assert_match(step["expect"], plain(event), f"step {n} ({step['do']})")
            if "state" in step:
                assert_match(step["state"], _ap_snapshot(pool), f"step {n} state")
    else:
        run = _BattleRun()
        for n, step in enumerate(case["steps"]):
            src.push(step.get("dice", []))
            args = step.get("args", {})
            if "error" in step:
                before = run.battle
                expect_error(step, lambda s=step, a=args: run.step(src, s["do"], a))
                assert run.battle == before, "a refused step must not change the state"
            else:
                event = run.step(src, step["do"], args)
                if "expect" in step:
                    assert_match(step["expect"], plain(event), f"step {n} ({step['do']})")
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




CASES = Cases(
    ops=PLURK_OPS,
    scenarios={"ap": run_plurk_scenario, "battle": run_plurk_scenario},
    rules=frozenset(f"PL-{n}" for n in range(1, 19)),
)
