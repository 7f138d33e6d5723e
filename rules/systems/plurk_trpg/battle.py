"""Battle (PL-13, 14, and placing and moving on the field of PL-15): initiative, rounds from 0,
BP spent per action and refilled at a turn's end and start, combatants joining and
leaving mid-battle.

The initiative order is a ``rules.kits.turns.TurnOrder``: a turn passes with
``turns.advance`` and plurk's hooks — ``_refill`` at a turn's end, ``_passed_over``
for the unconscious and the fallen, ``_start`` at a turn's start (BP refill, a
parry declaration ends). BP costs are a ``rules.kits.costs.CostTable``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rules.dice.source import DiceSource
from rules.errors import RuleError
from rules.kits import turns
from rules.kits.costs import CostTable, alias_table
from rules.kits.encounter import Life, capped, passes_fallen, require_active
from rules.systems.plurk_trpg.cells import (
    FIELD_DEFAULT,
    _check_size,
    cell_name,
    distance,
    parse_cell,
)
from rules.systems.plurk_trpg.checks import CHECK_DIE
from rules.systems.plurk_trpg.common import (
    MAX_REROLLS,
    _non_negative,
    _replace_combatant,
    _resolve_action,
    _roll,
)

BP_DEFAULT_COSTS: dict[str, int] = {"move": 1, "attack": 2, "skill": 2, "item": 1, "parry": 1}
BP_ACTION_ALIASES: dict[str, str] = alias_table(
    {
        "move": ("移動", "移动"),
        "attack": ("攻擊", "攻击", "atk"),
        "skill": ("技能", "使用技能"),
        "item": ("道具", "使用道具", "物品", "use"),
        "parry": ("招架",),
    }
)
BP_COSTS = CostTable(BP_DEFAULT_COSTS, BP_ACTION_ALIASES)
COMBATANT_KINDS: tuple[str, ...] = ("investigator", "ally", "enemy")


def bp_max_for(dex: int) -> int:
    """PL-13: BP max = 靈巧 ÷ 2 with the fraction dropped (小數捨去: toward zero, so
    靈巧 −3 gives −1, not −2) + 3, never below 0."""
    half = abs(dex) // 2
    return max(0, (half if dex >= 0 else -half) + 3)


@dataclass(frozen=True, slots=True)
class Entrant:
    """A combatant as the GM or a sheet brings it into a battle.

    ``human_like`` defaults to True for investigators and allies, False for
    enemies (PL-17); ``bp_max`` None means the PL-13 formula.
    """

    name: str
    kind: str = "investigator"
    dex: int = 0
    con: int = 0
    owner: str | None = None
    hp: int | None = None
    armor: int = 0
    human_like: bool | None = None
    bp_max: int | None = None
    position: str | None = None
    weapon_durability: int | None = None
    initiative_bonus: int = 0
    perception: int = 0
    stealth: int = 0


@dataclass(frozen=True, slots=True)
class Combatant:
    """One fighter in the turn state. ``position`` is a cell name or None (off board).

    ``unconscious`` counts the own turns still lost to a knock-out;
    ``parry_against`` names the enemy a parry was declared against; ``attacked``
    is set by an attack during the own turn (PL-16: attack or parry, one per
    round); ``stuck_in`` names the target an impaling weapon stayed in (PL-18);
    ``hp_max`` is the HP it entered with (a heal never goes past it, issue 24) and
    ``dead`` is set by an accepted fatal event, a hit on a fallen enemy or the GM
    (:func:`life_of`).
    """

    name: str
    kind: str = "investigator"
    owner: str | None = None
    dex: int = 0
    con: int = 0
    bp_max: int = 3
    bp: int = 3
    hp: int | None = None
    armor: int = 0
    human_like: bool = True
    position: str | None = None
    parry_against: str | None = None
    weapon_durability: int | None = None
    unconscious: int = 0
    initiative: int = 0
    initiative_rolls: tuple[int, ...] = ()
    attacked: bool = False
    stuck_in: str | None = None
    hp_max: int | None = None
    dead: bool = False

    @property
    def side(self) -> str:
        """ "enemy" or "party" (investigators and allies)."""
        return "enemy" if self.kind == "enemy" else "party"

    @property
    def life(self) -> Life:
        return life_of(self)

    @property
    def can_act(self) -> bool:
        return self.life is Life.ACTIVE


def life_of(combatant: Combatant) -> Life:
    """Plurk's words on the encounter kit's life states (issue 24, docs/decisions.md):
    dead once marked so (an accepted fatal event, PL-12; a hit on a fallen enemy; the
    GM); down while knocked out (昏迷, PL-17) or at 0 HP; else active."""
    if combatant.dead:
        return Life.DEAD
    if combatant.unconscious > 0 or (combatant.hp is not None and combatant.hp <= 0):
        return Life.DOWN
    return Life.ACTIVE


def require_target(battle: Battle, name: str) -> Combatant:
    """The combatant an attack or a hit names: a fallen one may still be struck (the
    seed is silent: the GM's table decides what a blow on the helpless does), a dead
    one is no target any more (``plurk.target_dead``: the refusal is about the target,
    not the one acting)."""
    target = battle.get(name)
    if target.dead:
        raise RuleError("plurk.target_dead", name=target.name)
    return target


@dataclass(frozen=True)
class Battle:
    """The battle turn state (PL-13…16): order, round, current actor, costs, field.

    ``combatants`` is kept in initiative order. Immutable: every function
    returns a new ``Battle``. Plain fields only (tuples, a dict of ints), so the bot
    stores it as JSON through a pydantic ``TypeAdapter`` of this dataclass.
    """

    combatants: tuple[Combatant, ...]
    round: int = 0
    current: int = 0
    costs: dict[str, int] = field(default_factory=lambda: dict(BP_DEFAULT_COSTS))
    width: int = FIELD_DEFAULT
    height: int = FIELD_DEFAULT
    first_side: str | None = None
    ended: bool = False

    @property
    def actor(self) -> Combatant:
        """The combatant whose turn it is."""
        return self.combatants[self.current]

    @property
    def order(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.combatants)

    def find(self, name: str) -> Combatant | None:
        """A combatant by name (case-insensitive), or None."""
        key = name.strip().casefold()
        for combatant in self.combatants:
            if combatant.name.casefold() == key:
                return combatant
        return None

    def index_of(self, name: str) -> int:
        """Position in the order of a named combatant; refuses unknown names."""
        key = name.strip().casefold()
        for i, combatant in enumerate(self.combatants):
            if combatant.name.casefold() == key:
                return i
        raise RuleError("plurk.unknown_combatant", name=name)

    def get(self, name: str) -> Combatant:
        return self.combatants[self.index_of(name)]

    def occupant(self, cell: str) -> Combatant | None:
        """Who stands on a cell (cell name in any case)."""
        col, row = parse_cell(cell, self.width, self.height)
        wanted = cell_name(col, row)
        for combatant in self.combatants:
            if combatant.position == wanted:
                return combatant
        return None

    def bp_cost(self, action: str) -> tuple[str, int]:
        """Canonical key and BP cost of an action (``攻擊`` → ("attack", 2))."""
        key = _resolve_action(BP_COSTS, action, self.costs, "plurk.bp_unknown_action")
        return key, self.costs[key]


@dataclass(frozen=True, slots=True)
class TurnEvent:
    """The turn moved on. ``skipped``: passed over (unconscious or HP ≤ 0)."""

    reason: str  # "pass" | "skip" | "bp_exhausted" | "removed" | "fallen"
    previous: str | None
    current: str
    round: int
    new_round: bool
    skipped: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class BpEvent:
    """BP spent by the actor; ``turn`` is set when the BP ran out and the turn passed."""

    actor: str
    action: str
    cost: int
    bp_before: int
    bp_after: int
    turn: TurnEvent | None = None


def _require_active(battle: Battle) -> None:
    if battle.ended:
        raise RuleError("plurk.battle_ended")


def _check_kind(kind: str) -> None:
    if kind not in COMBATANT_KINDS:
        raise RuleError("plurk.bad_combatant_kind", kind=kind, allowed=", ".join(COMBATANT_KINDS))


def _side_rank(side: str, first_side: str | None) -> int:
    """1 for the surprising side (sorted first, descending), 0 otherwise."""
    return 1 if first_side is not None and side == first_side else 0


def _check_first_side(first_side: str | None) -> None:
    if first_side is not None and first_side not in ("party", "enemy"):
        raise RuleError("plurk.bad_side", side=first_side, allowed="party, enemy")


def _combatant_from(entrant: Entrant, initiative: int, rolls: Sequence[int]) -> Combatant:
    _check_kind(entrant.kind)
    bp_max = entrant.bp_max if entrant.bp_max is not None else bp_max_for(entrant.dex)
    _non_negative(bp_max, "bp_max")
    human_like = entrant.human_like if entrant.human_like is not None else entrant.kind != "enemy"
    return Combatant(
        name=entrant.name.strip(),
        kind=entrant.kind,
        owner=entrant.owner,
        dex=entrant.dex,
        con=entrant.con,
        bp_max=bp_max,
        bp=bp_max,
        hp=entrant.hp,
        armor=entrant.armor,
        human_like=human_like,
        position=None,
        weapon_durability=entrant.weapon_durability,
        initiative=initiative,
        initiative_rolls=tuple(rolls),
        hp_max=entrant.hp,
    )


def _merge_costs(costs: Mapping[str, int] | None) -> dict[str, int]:
    """GM costs over the defaults, keys canonicalised (``{"攻擊": 3}`` sets ``attack``)."""
    merged = dict(BP_DEFAULT_COSTS)
    for name, cost in (costs or {}).items():
        _non_negative(cost, "cost")
        merged[BP_COSTS.key(name, merged)] = cost
    return merged


def start_battle(
    source: DiceSource,
    entrants: Sequence[Entrant],
    *,
    costs: Mapping[str, int] | None = None,
    width: int = FIELD_DEFAULT,
    height: int = FIELD_DEFAULT,
    first_side: str | None = None,
    max_rerolls: int = MAX_REROLLS,
) -> Battle:
    """PL-13/14: initiative by 靈巧 checks, highest first, ties rerolled until resolved.

    Every entrant rolls 1d20 + 靈巧 (+ ``initiative_bonus``) in the given order;
    then each tied group (highest value first) rerolls plain d20s, recursively.
    ``first_side`` ("party"/"enemy") puts the side that won surprise first;
    ``costs`` overrides some default BP costs (aliases accepted).
    Starts at round 0 with the first in order acting and everyone at full BP.
    """
    if not entrants:
        raise RuleError("plurk.battle_empty")
    _check_size(width, height)
    _check_first_side(first_side)
    seen: set[str] = set()
    for entrant in entrants:
        _check_kind(entrant.kind)
        key = entrant.name.strip().casefold()
        if not key or key in seen:
            raise RuleError("plurk.battle_duplicate_name", name=entrant.name)
        seen.add(key)
    n = len(entrants)
    rolls: list[list[int]] = []
    keys: list[list[int]] = []
    for entrant in entrants:
        raw = _roll(source, CHECK_DIE)
        rolls.append([raw])
        side = "enemy" if entrant.kind == "enemy" else "party"
        keys.append([_side_rank(side, first_side), raw + entrant.dex + entrant.initiative_bonus])
    budget = [max_rerolls]

    def resolve(group: list[int]) -> None:
        buckets: dict[tuple[int, ...], list[int]] = {}
        for i in group:
            buckets.setdefault(tuple(keys[i]), []).append(i)
        for key in sorted(buckets, reverse=True):
            tied = buckets[key]
            if len(tied) < 2:
                continue
            budget[0] -= 1
            if budget[0] < 0:
                raise RuleError("plurk.reroll_limit", limit=max_rerolls)
            for i in tied:
                raw = _roll(source, CHECK_DIE)
                rolls[i].append(raw)
                keys[i].append(raw)
            resolve(tied)

    resolve(list(range(n)))
    order = sorted(range(n), key=lambda i: keys[i], reverse=True)
    combatants = tuple(_combatant_from(entrants[i], keys[i][1], rolls[i]) for i in order)
    battle = Battle(
        combatants,
        costs=_merge_costs(costs),
        width=width,
        height=height,
        first_side=first_side,
    )
    for i in order:
        if entrants[i].position is not None:
            battle = place(battle, entrants[i].name, entrants[i].position)
    return battle


def _actor_index(battle: Battle, actor: str | None, *, acting: bool = True) -> int:
    """The current actor's index (``actor``, when named, must be it); an action
    (``acting``) by a fallen one is refused with its state (passing is no action)."""
    _require_active(battle)
    index = battle.current
    if actor is not None:
        index = battle.index_of(actor)
        if index != battle.current:
            raise RuleError("plurk.not_current_actor", actor=actor, current=battle.actor.name)
    if acting:
        require_active(battle.actor.name, battle.actor.life)
    return index


def _refill(combatant: Combatant) -> Combatant:
    """Turn end hook (PL-13): the BP of the one whose turn ends refill."""
    return replace(combatant, bp=combatant.bp_max)


def _start(combatant: Combatant) -> Combatant:
    """Turn start hook (PL-13/16): BP refill; a parry declaration ends; a new round
    of its own: it may attack or parry again."""
    return replace(combatant, bp=combatant.bp_max, parry_against=None, attacked=False)


_skips_fallen = passes_fallen(life_of)


def _passed_over(combatant: Combatant) -> turns.Skip[Combatant] | None:
    """Skip hook (decision 12, the kit's ``passes_fallen``): every combatant not
    active is passed over; an unconscious one loses this turn (one fewer to go, its
    parry ends)."""
    skip = _skips_fallen(combatant)
    if skip is not None and combatant.unconscious > 0 and not combatant.dead:
        return turns.Skip(
            replace(combatant, unconscious=combatant.unconscious - 1, parry_against=None)
        )
    return skip


def _order(battle: Battle) -> turns.TurnOrder[Combatant]:
    return turns.TurnOrder(battle.combatants, battle.current, battle.round)


def _advance(battle: Battle, reason: str) -> tuple[Battle, TurnEvent]:
    order, change = turns.advance(
        _order(battle), on_turn_end=_refill, on_turn_start=_start, skips=_passed_over
    )
    new = replace(battle, combatants=order.members, current=order.current, round=order.round)
    skipped = tuple(c.name for c in change.skipped)
    event = TurnEvent(
        reason, change.previous.name, change.current.name, change.round, change.new_round, skipped
    )
    return new, event


def pass_turn(battle: Battle, actor: str | None = None) -> tuple[Battle, TurnEvent]:
    """PL-13: the actor passes; BP refills and the next in order acts (new round on wrap)."""
    _actor_index(battle, actor, acting=False)
    return _advance(battle, "pass")


def pass_fallen(battle: Battle) -> tuple[Battle, TurnEvent | None]:
    """Issue 24: a current actor who fell on their own turn (down, dead) passes it at
    once, named among those passed over; None when the actor stands, or when nobody
    does (the turn would only come back)."""
    if battle.actor.life is Life.ACTIVE or \
            not any(c.life is Life.ACTIVE for c in battle.combatants):
        return battle, None
    new, event = _advance(battle, "fallen")
    return new, replace(event, skipped=(battle.actor.name, *event.skipped))


def skip_turn(battle: Battle) -> tuple[Battle, TurnEvent]:
    """The GM skips the current actor (same as a pass, reported as a skip)."""
    _require_active(battle)
    return _advance(battle, "skip")


def attack_or_parry(combatant: Combatant, action: str) -> None:
    """PL-16 (seed: 同一回合內只能於攻擊及招架中擇一): in one round — one own turn to
    the next — a combatant attacks or parries, not both. Refuses an attack after
    a parry declaration and a parry after an attack."""
    if action == "attack" and combatant.parry_against is not None:
        raise RuleError("plurk.attack_after_parry", name=combatant.name,
                        enemy=combatant.parry_against)
    if action == "parry" and combatant.attacked:
        raise RuleError("plurk.parry_after_attack", name=combatant.name)


def _spend(battle: Battle, index: int, action: str, cost: int) -> tuple[Battle, BpEvent]:
    combatant = battle.combatants[index]
    attack_or_parry(combatant, action)
    if cost > combatant.bp:
        raise RuleError(
            "plurk.bp_insufficient", actor=combatant.name, action=action, cost=cost, bp=combatant.bp
        )
    after = combatant.bp - cost
    combatants = list(battle.combatants)
    combatants[index] = replace(combatant, bp=after,
                                attacked=combatant.attacked or action == "attack")
    battle = replace(battle, combatants=tuple(combatants))
    turn = None
    if after == 0:
        battle, turn = _advance(battle, "bp_exhausted")
    return battle, BpEvent(combatant.name, action, cost, combatant.bp, after, turn)


def spend_bp(
    battle: Battle,
    action: str,
    *,
    actor: str | None = None,
    count: int = 1,
    cost: int | None = None,
) -> tuple[Battle, BpEvent]:
    """PL-13: the current actor spends BP for ``count`` × an action (or a GM ``cost``).

    Refused when BP would go below 0; reaching 0 passes the turn (``event.turn``).
    ``actor`` (optional) must be the current actor; who may act for whom is the bot's.
    """
    index = _actor_index(battle, actor)
    if cost is None:
        if count < 1:
            raise RuleError("plurk.negative_amount", name="count", amount=count)
        key, unit = battle.bp_cost(action)
        total = unit * count
    else:
        _non_negative(cost, "cost")
        key = BP_COSTS.key(action, battle.costs)
        total = cost
    return _spend(battle, index, key, total)


def set_bp_cost(battle: Battle, action: str, cost: int) -> Battle:
    """The GM changes (or adds) an action's BP cost."""
    _non_negative(cost, "cost")
    key = BP_COSTS.key(action, battle.costs)
    return replace(battle, costs={**battle.costs, key: cost})


_UPDATABLE = {
    "owner",
    "dex",
    "con",
    "bp_max",
    "bp",
    "hp",
    "armor",
    "human_like",
    "weapon_durability",
    "unconscious",
    "kind",
    "stuck_in",
    "hp_max",
    "dead",
}
_NON_NEGATIVE = {"bp_max", "bp", "armor", "weapon_durability", "unconscious", "hp_max"}


def update_combatant(battle: Battle, name: str, **changes: Any) -> Battle:
    """GM corrections (hp, armor, bp_max, durability, …). ``bp`` is capped at ``bp_max``,
    ``hp`` within ``0 … hp_max`` (issue 24: a heal never goes past the maximum; a
    lower maximum lowers the HP). Death ends a knock-out and a parry.

    Position and parry have their own functions (they check the board / target).
    """
    index = battle.index_of(name)
    for key, value in changes.items():
        if key not in _UPDATABLE:
            raise RuleError("plurk.bad_field", field=key, allowed=", ".join(sorted(_UPDATABLE)))
        if key in _NON_NEGATIVE and value is not None:
            _non_negative(value, key)
    if "kind" in changes:
        _check_kind(changes["kind"])
    updated = replace(battle.combatants[index], **changes)
    if updated.bp > updated.bp_max:
        updated = replace(updated, bp=updated.bp_max)
    if updated.hp is not None and updated.hp_max is not None:
        updated = replace(updated, hp=capped(updated.hp, updated.hp_max))
    if updated.dead:
        updated = replace(updated, unconscious=0, parry_against=None)
    combatants = list(battle.combatants)
    combatants[index] = updated
    return replace(battle, combatants=tuple(combatants))


def add_combatant(
    battle: Battle,
    entrant: Entrant,
    source: DiceSource | None = None,
    *,
    initiative: int | None = None,
) -> Battle:
    """Add a combatant mid-battle; rolls its 靈巧 initiative unless one is given.

    It goes after everyone with an equal or higher value (no tie reroll, so the
    existing order never changes); inserted before the current actor it first
    acts next round.
    """
    _require_active(battle)
    if battle.find(entrant.name) is not None or not entrant.name.strip():
        raise RuleError("plurk.battle_duplicate_name", name=entrant.name)
    rolls: list[int] = []
    if initiative is None:
        if source is None:
            raise RuleError("plurk.initiative_needed", name=entrant.name)
        raw = _roll(source, CHECK_DIE)
        rolls.append(raw)
        initiative = raw + entrant.dex + entrant.initiative_bonus
    newcomer = _combatant_from(entrant, initiative, rolls)
    new_key = (_side_rank(newcomer.side, battle.first_side), initiative)
    at = len(battle.combatants)
    for i, c in enumerate(battle.combatants):
        if (_side_rank(c.side, battle.first_side), c.initiative) < new_key:
            at = i
            break
    order = turns.insert(_order(battle), at, newcomer)
    battle = replace(battle, combatants=order.members, current=order.current)
    if entrant.position is not None:
        battle = place(battle, newcomer.name, entrant.position)
    return battle


def remove_combatant(battle: Battle, name: str) -> tuple[Battle, TurnEvent | None]:
    """Remove a combatant; removing the current actor passes the turn (reason "removed")."""
    _require_active(battle)
    index = battle.index_of(name)
    if len(battle.combatants) == 1:
        raise RuleError("plurk.battle_last_combatant", name=battle.combatants[0].name)
    removed = battle.combatants[index]
    event: TurnEvent | None = None
    if index == battle.current:
        battle, event = _advance(battle, "removed")
    # the current actor stays current; if everyone else was passed over and the
    # turn came back to the removed one, the one after it in the order acts
    order = turns.remove(_order(battle), index)
    rest = tuple(
        replace(c, parry_against=None) if c.parry_against == removed.name else c
        for c in order.members
    )
    return replace(battle, combatants=rest, current=order.current), event


def end_battle(battle: Battle) -> Battle:
    """Mark the battle ended; every later action on it is refused."""
    _require_active(battle)
    return replace(battle, ended=True)


# ------------------------------------------------------ placing and moving on the field (PL-15)


def place(battle: Battle, name: str, cell: str | None) -> Battle:
    """The GM puts a combatant on a cell (no BP), or takes it off the board with None."""
    index = battle.index_of(name)
    if cell is None:
        return _replace_combatant(battle, index, position=None)
    col, row = parse_cell(cell, battle.width, battle.height)
    wanted = cell_name(col, row)
    occupant = battle.occupant(wanted)
    if occupant is not None and occupant.name != battle.combatants[index].name:
        raise RuleError("plurk.cell_occupied", cell=wanted, occupant=occupant.name)
    return _replace_combatant(battle, index, position=wanted)


@dataclass(frozen=True, slots=True)
class MoveEvent:
    """A move on the field: cells, Chebyshev distance and the BP it cost."""

    actor: str
    from_cell: str
    to_cell: str
    distance: int
    cost: int
    bp_before: int
    bp_after: int
    turn: TurnEvent | None = None


def move(battle: Battle, to: str, *, actor: str | None = None) -> tuple[Battle, MoveEvent]:
    """PL-15: the current actor moves; cost = Chebyshev distance × move cost per cell."""
    index = _actor_index(battle, actor)
    mover = battle.combatants[index]
    if mover.position is None:
        raise RuleError("plurk.not_placed", name=mover.name)
    col, row = parse_cell(to, battle.width, battle.height)
    target = cell_name(col, row)
    if target == mover.position:
        raise RuleError("plurk.same_cell", cell=target)
    occupant = battle.occupant(target)
    if occupant is not None:
        raise RuleError("plurk.cell_occupied", cell=target, occupant=occupant.name)
    steps = distance(mover.position, target)
    key, unit = battle.bp_cost("move")
    cost = steps * unit
    if cost > mover.bp:
        raise RuleError(
            "plurk.bp_insufficient", actor=mover.name, action=key, cost=cost, bp=mover.bp
        )
    moved = _replace_combatant(battle, index, position=target)
    moved, spent = _spend(moved, index, key, cost)
    return moved, MoveEvent(
        mover.name, mover.position, target, steps, cost, spent.bp_before, spent.bp_after, spent.turn
    )
