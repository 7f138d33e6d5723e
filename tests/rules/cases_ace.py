"""The ace system's ops and scenarios for the case runner (tests/rules/data/ace)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from pydantic import TypeAdapter

from rules.dice.source import ScriptedSource
from rules.kits.encounter import Life
from rules.systems import ace
from rules.systems.ace import combat, extended, fight, grapple, life, mark, pool, stealth
from tests.rules.case_kit import Cases, Op, assert_match, expect_error, plain

STORED_EXTENDED = TypeAdapter(extended.Extended)
STORED_MARK = TypeAdapter(mark.Mark)
STORED_FIGHT = TypeAdapter(fight.Fight)
"""How the bot stores an extended action, a mark and the fight
(``bot.systems.ace.documents``): a JSON round trip gives the same value."""

# --------------------------------------------------------------------------- simple ops


def op_attributes(src: ScriptedSource, i: dict[str, Any]) -> Any:
    return {"hp": ace.hp_max(i["con"]), "load_kg": ace.load_kg(i["str"]),
            "unconscious": ace.unconscious(i["spi"]),
            "attribute": ace.is_attribute(i.get("spelling", "力量"))}


def op_pool(src: ScriptedSource, i: dict[str, Any]) -> Any:
    return plain(pool.roll(src, i["dp"], **{k: i[k] for k in ("specialty",) if k in i}))


def op_check(src: ScriptedSource, i: dict[str, Any]) -> Any:
    kwargs = {k: i[k] for k in ("stat", "attribute", "bonus", "specialty", "dc") if k in i}
    return plain(pool.check(src, *([i["dp"]] if "dp" in i else []), **kwargs))


def _fighter(spec: dict[str, Any]) -> combat.Fighter:
    data = dict(spec)
    data["resist"] = tuple(tuple(pair) for pair in data.get("resist", ()))
    return combat.Fighter(**data)


def op_attack(src: ScriptedSource, i: dict[str, Any]) -> Any:
    result = combat.attack(src, _fighter(i["attacker"]), _fighter(i["target"]),
                           combat.AttackSpec(**i.get("spec", {})),
                           **{k: i[k] for k in ("supernatural",) if k in i})
    return {**plain(result), "total": result.total}


def op_area(src: ScriptedSource, i: dict[str, Any]) -> Any:
    kwargs = {k: i[k] for k in ("energy", "supernatural") if k in i}
    return plain(combat.area(src, i["area"], _fighter(i["target"]), **kwargs))


def op_harm(src: ScriptedSource, i: dict[str, Any]) -> Any:
    kwargs = {k: i[k] for k in ("energy", "supernatural") if k in i}
    return plain(combat.harm(i["amount"], _fighter(i["target"]), **kwargs))


def op_hp(src: ScriptedSource, i: dict[str, Any]) -> Any:
    return plain(combat.apply_hp(i["hp"], i["damage"]))


def op_life(src: ScriptedSource, i: dict[str, Any]) -> Any:
    return {"life": life.life_of(i["hp"], i.get("spi", 5), i.get("condition")).value,
            "bounded": life.bounded(i["hp"], i.get("con", 5))}


def op_revive(src: ScriptedSource, i: dict[str, Any]) -> Any:
    life.check_revive(i["before"], i["after"], by_gm=i["by_gm"])
    return {"after": i["after"]}


def op_sneak(src: ScriptedSource, i: dict[str, Any]) -> Any:
    result = stealth.sneak(src, stealth.Sneaker(**i["hider"]),
                           [stealth.Watcher(**w) for w in i["watchers"]],
                           **{k: i[k] for k in ("penalty", "exposed") if k in i})
    return {**plain(result), "unseen": result.unseen}


# --------------------------------------------------------------------------- scenarios


class _Run:
    """The state of one scenario between its steps."""

    def __init__(self, case: dict[str, Any]) -> None:
        inputs = case.get("input", {})
        self.fighters = {name: _fighter({"name": name, **spec})
                         for name, spec in inputs.get("fighters", {}).items()}
        self.action: extended.Extended | None = None
        self.holds: tuple[grapple.Hold, ...] = ()
        self.hidden: tuple[stealth.Hidden, ...] = ()
        self.mark = STORED_MARK.validate_python(inputs.get("mark", {}))
        self.fight = fight.Fight()

    # every "do" of every scenario kind
    def step(self, src: ScriptedSource, do: str, a: dict[str, Any]) -> Any:
        handler: Callable[[ScriptedSource, dict[str, Any]], Any] = getattr(self, f"do_{do}")
        return handler(src, a)

    def do_start_extended(self, src: ScriptedSource, a: dict[str, Any]) -> Any:
        self.action = extended.start(a["name"], a["dc"], **{
            k: a[k] for k in ("deadline", "mishap") if k in a})
        return self.action

    def do_roll(self, src: ScriptedSource, a: dict[str, Any]) -> Any:
        assert self.action is not None
        self.action, event = extended.roll_period(src, self.action, a["dp"], **{
            k: a[k] for k in ("specialty",) if k in a})
        return event

    def do_restart(self, src: ScriptedSource, a: dict[str, Any]) -> Any:
        assert self.action is not None
        self.action = extended.restart(self.action)
        return self.action

    def do_roundtrip(self, src: ScriptedSource, a: dict[str, Any]) -> Any:
        if self.action is not None:
            again = STORED_EXTENDED.validate_json(STORED_EXTENDED.dump_json(self.action))
            assert again == self.action
        again_mark = STORED_MARK.validate_json(STORED_MARK.dump_json(self.mark))
        assert again_mark == self.mark
        again_fight = STORED_FIGHT.validate_json(STORED_FIGHT.dump_json(self.fight))
        assert again_fight == self.fight
        return None

    def _f(self, name: str) -> combat.Fighter:
        fighter = self.fighters[name]
        penalty, pinned = grapple.penalty_of(self.holds, name)
        posture = self.fight.posture(name)
        return replace(fighter, held_penalty=penalty, pinned=pinned,
                       stance=posture.stance, charge=posture.charge, cover=posture.cover,
                       condition=posture.condition)

    def _keep_holds(self, holds: tuple[grapple.Hold, ...]) -> None:
        """The holds live in the fight, as the bot keeps them."""
        self.holds = holds
        self.fight = fight.with_holds(self.fight, holds)

    def do_grab(self, src: ScriptedSource, a: dict[str, Any]) -> Any:
        options = ("round", "choice", "hit_mod", "supernatural")
        holds, result = grapple.grab(src, self.holds, self._f(a["grappler"]),
                                     self._f(a["target"]), **{k: a[k] for k in options if k in a})
        self._keep_holds(holds)
        return result

    def do_break_free(self, src: ScriptedSource, a: dict[str, Any]) -> Any:
        holds, result = grapple.break_free(src, self.holds, self._f(a["held"]),
                                           self._f(a["grappler"]),
                                           **({"choice": a["choice"]} if "choice" in a else {}))
        self._keep_holds(holds)
        return result

    def do_release(self, src: ScriptedSource, a: dict[str, Any]) -> Any:
        self._keep_holds(grapple.release(self.holds, a["grappler"], a["target"]))
        return None

    def do_attack(self, src: ScriptedSource, a: dict[str, Any]) -> Any:
        spec = combat.AttackSpec(**a.get("spec", {}))
        if spec.assassinate:
            stealth.check_assassination(self.fight.hidden or self.hidden, a["attacker"],
                                        a["target"])
        if spec.reflex is not None:
            self.fight = fight.spend_reflex(self.fight, a["target"])
        result = combat.attack(src, self._f(a["attacker"]), self._f(a["target"]), spec)
        self.fight = fight.with_hidden(self.fight, stealth.reveal(self.fight.hidden,
                                                                  a["attacker"]))
        return {**plain(result), "total": result.total}

    def do_sneak(self, src: ScriptedSource, a: dict[str, Any]) -> Any:
        hider = stealth.Sneaker(**a["hider"])
        result = stealth.sneak(src, hider, [stealth.Watcher(**w) for w in a["watchers"]],
                               **{k: a[k] for k in ("penalty", "exposed") if k in a})
        self.fight = fight.with_hidden(self.fight, stealth.record(self.fight.hidden, result))
        return {**plain(result), "unseen": result.unseen}

    def do_store(self, src: ScriptedSource, a: dict[str, Any]) -> Any:
        self.mark, event = mark.store(self.mark, a["item"], **{
            k: a[k] for k in ("count", "per_slot", "span") if k in a})
        return event

    def do_take(self, src: ScriptedSource, a: dict[str, Any]) -> Any:
        self.mark, event = mark.take(self.mark, a["item"], *([a["count"]] if "count" in a else []))
        return event

    def do_level(self, src: ScriptedSource, a: dict[str, Any]) -> Any:
        self.mark = mark.set_level(self.mark, a["level"])
        return None

    def do_kills(self, src: ScriptedSource, a: dict[str, Any]) -> Any:
        self.mark = mark.add_kills(self.mark, a["amount"])
        return None

    def do_join(self, src: ScriptedSource, a: dict[str, Any]) -> Any:
        fight.check_join(self.fight, a["name"])
        member = fight.roll_initiative(src, a["name"], a["dex"], **{
            k: a[k] for k in ("side", "owner", "supernatural") if k in a})
        self.fight = fight.join(self.fight, member)
        return member

    def do_start(self, src: ScriptedSource, a: dict[str, Any]) -> Any:
        self.fight = fight.start(self.fight)
        return None

    def do_next(self, src: ScriptedSource, a: dict[str, Any]) -> Any:
        self.fight, event = fight.next_turn(
            self.fight, {name: Life.DOWN for name in a.get("down", ())})
        return event

    def do_remove(self, src: ScriptedSource, a: dict[str, Any]) -> Any:
        self.fight = fight.remove(self.fight, a["name"])
        self.holds = self.fight.holds
        return None

    def do_stance(self, src: ScriptedSource, a: dict[str, Any]) -> Any:
        self.fight = fight.set_stance(self.fight, a["name"], a["stance"], **{
            k: a[k] for k in ("metres", "strength") if k in a})
        return None

    def do_acted(self, src: ScriptedSource, a: dict[str, Any]) -> Any:
        self.fight = fight.mark_acted(self.fight, a["name"])
        return None

    def do_cover(self, src: ScriptedSource, a: dict[str, Any]) -> Any:
        self.fight = fight.set_cover(self.fight, a["name"], a["cover"])
        return None

    def do_condition(self, src: ScriptedSource, a: dict[str, Any]) -> Any:
        condition = a.get("condition")
        self.fight = fight.set_condition(self.fight, a["name"],
                                         None if condition == "null" else condition)
        return None

    def do_reflex(self, src: ScriptedSource, a: dict[str, Any]) -> Any:
        self.fight = fight.spend_reflex(self.fight, a["name"])
        return None

    def snapshot(self) -> dict[str, Any]:
        f = self.fight
        return {
            "action": plain(self.action) if self.action else None,
            "holds": [plain(h) for h in self.holds],
            "mark": {"level": self.mark.level, "used": self.mark.used,
                     "capacity": self.mark.capacity, "free": self.mark.free,
                     "kills": self.mark.kills,
                     "items": {s.item: s.count for s in self.mark.stacks}},
            "order": [m.name for m in f.members],
            "initiative": {m.name: m.initiative for m in f.members},
            "ambush": {m.name: m.ambush for m in f.members},
            "round": f.round,
            "current": f.actor.name if f.actor else None,
            "postures": {n: plain(p) for n, p in f.postures.items()},
            "postured": list(f.postures),
            "hidden": {h.hider: plain(h) for h in f.hidden},
            "hiders": [h.hider for h in f.hidden],
        }


def run_scenario(case: dict[str, Any], src: ScriptedSource) -> None:
    run = _Run(case)
    for n, step in enumerate(case["steps"]):
        src.push(step.get("dice", []))
        args = step.get("args", {})
        if "error" in step:
            before = run.snapshot()
            expect_error(step, lambda s=step, a=args: run.step(src, s["do"], a))
            assert run.snapshot() == before, "a refused step must not change the state"
        else:
            event = run.step(src, step["do"], args)
            if "expect" in step:
                assert_match(step["expect"], plain(event), f"step {n} ({step['do']})")
        if "state" in step:
            assert_match(step["state"], run.snapshot(), f"step {n} state")
        assert src.remaining == 0, f"step {n}: {src.remaining} scripted dice unused"


ACE_OPS: dict[str, Op] = {
    "attributes": op_attributes,
    "pool": op_pool,
    "check": op_check,
    "attack": op_attack,
    "area": op_area,
    "harm": op_harm,
    "hp": op_hp,
    "life": op_life,
    "revive": op_revive,
    "sneak": op_sneak,
}

CASES = Cases(
    ops=ACE_OPS,
    scenarios={name: run_scenario for name in
               ("extended", "grapple", "mark", "fight", "stealth")},
    rules=frozenset(f"AE-{n}" for n in range(1, 15)),
)
