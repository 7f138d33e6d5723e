"""The v6 state of a fight: every combatant's cell, facing, posture, base size, sense,
fatigue and (for GM-run ones) movement numbers — and the operations on it (place, face,
pose, move, forced move) and its verdict on an attack (``tactics``).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from rules.errors import RuleError
from rules.kits import grid
from rules.kits.advantage import AttackKind, AttackTactics
from rules.kits.grid import Coord
from rules.systems.v6.geometry import SENSES, SIZES, bearing, centre_distance, gap, sector, steps
from rules.systems.v6.movement import MoveCost, move_cost
from rules.systems.v6.posture import (
    CRAWL_LOST_DEFENSE,
    ROLL_COST,
    PostureChange,
    attack_layers,
    change,
)

DEFAULT_SIZE = 12
"""Decision 7: a new field is 12 × 12 steps (6 m square); the GM resizes it (≤ 26 × 99)."""
MAX_ROWS = 99
DEFAULT_STRIDE = 3
"""Decision 8: the stride when neither a sheet (步幅) nor the GM names one (the seed's own
example stride)."""


@dataclass(frozen=True)
class Unit:
    """One combatant on the field. ``stats``: ``stride`` / ``agility`` / ``might`` of a
    GM-run combatant (a player's come from the sheet: 步幅, 靈巧, 強壯)."""

    name: str
    cell: Coord | None = None
    facing: int = 0
    posture: str = "stand"
    size: str = "medium"
    sense: str = "normal"
    fatigue: int = 0
    stats: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Field:
    """The board, its combatants, and what the combatant whose turn it is has done in
    it (``turn``: the base's round and actor, ``moved`` / ``acted`` — decision 12)."""

    width: int = DEFAULT_SIZE
    height: int = DEFAULT_SIZE
    units: tuple[Unit, ...] = ()
    turn: str = ""
    moved: bool = False
    acted: bool = False

    def find(self, name: str) -> Unit | None:
        folded = name.strip().casefold()
        return next((u for u in self.units if u.name.casefold() == folded), None)

    def unit(self, name: str) -> Unit:
        """The combatant's unit (a fresh, unplaced one the first time it is named)."""
        return self.find(name) or Unit(name.strip())

    def put(self, unit: Unit) -> Field:
        others = tuple(u for u in self.units if u.name.casefold() != unit.name.casefold())
        return replace(self, units=(*others, unit))

    def drop(self, name: str) -> Field:
        return replace(self, units=tuple(u for u in self.units
                                         if u.name.casefold() != name.strip().casefold()))

    def keep(self, names: Iterable[str]) -> Field:
        """Only the combatants still in the fight (issue 24: one who left frees its
        cell at once)."""
        kept = {n.casefold() for n in names}
        return replace(self, units=tuple(u for u in self.units if u.name.casefold() in kept))

    def on_turn(self, turn: str) -> Field:
        """The field as of the turn ``turn`` (the base's round and actor): what was done
        in an earlier turn is forgotten."""
        return self if turn == self.turn else replace(self, turn=turn, moved=False,
                                                      acted=False)


def move_action(f: Field) -> tuple[str, int] | None:
    """Decision 12 (V6-3, the seed's 转向和移动): the first move of a turn, before its
    tactical action, goes with that action and costs only fatigue (None); a move after
    the turn's attack, or a second one, is a standalone move — a tactical action of its
    own (``("tactical", 1)``)."""
    return ("tactical", 1) if f.moved or f.acted else None


def resize(f: Field, width: int, height: int) -> Field:
    """Decision 7: at most 26 columns (A–Z) and 99 rows; no one may fall off."""
    if not (1 <= width <= grid.MAX_COLUMNS and 1 <= height <= MAX_ROWS):
        raise RuleError("v6.bad_size", width=width, height=height,
                        max_width=grid.MAX_COLUMNS, max_height=MAX_ROWS)
    for u in f.units:
        if u.cell is not None and not grid.contains(u.cell, width, height):
            raise RuleError("v6.resize_cuts", name=u.name, cell=grid.cell_name(*u.cell))
    return replace(f, width=width, height=height)


def _on_board(f: Field, cell: Coord) -> None:
    if not grid.contains(cell, f.width, f.height):
        raise RuleError("v6.off_board", cell=grid.cell_name(*cell),
                        last=grid.cell_name(f.width - 1, f.height - 1))


def blocker(f: Field, name: str, cell: Coord, size: str) -> Unit | None:
    """V6-4: the first other combatant whose base a base of ``size`` at ``cell`` overlaps."""
    for other in f.units:
        if other.cell is None or other.name.casefold() == name.strip().casefold():
            continue
        if gap(cell, size, other.cell, other.size).overlap:
            return other
    return None


def _free(f: Field, name: str, cell: Coord, size: str) -> None:
    _on_board(f, cell)
    other = blocker(f, name, cell, size)
    if other is not None:
        raise RuleError("v6.overlap", name=name, other=other.name, cell=grid.cell_name(*cell))


def place(f: Field, name: str, cell: Coord, *, facing: int | None = None,
          size: str | None = None, sense: str | None = None,
          stats: Mapping[str, int] | None = None) -> tuple[Field, Unit]:
    """Put a combatant on a cell (the GM's setup; no cost): on the board, its base
    overlapping no other (V6-4)."""
    unit = f.unit(name)
    if size is not None and size not in SIZES:
        raise RuleError("v6.unknown_size", size=size)
    if sense is not None and sense not in SENSES:
        raise RuleError("v6.unknown_sense", sense=sense)
    unit = replace(unit, cell=cell, facing=unit.facing if facing is None else facing % 360,
                   size=size or unit.size, sense=sense or unit.sense,
                   stats={**unit.stats, **(stats or {})})
    _free(f, unit.name, cell, unit.size)
    return f.put(unit), unit


@dataclass(frozen=True, slots=True)
class Turned:
    name: str
    before: int
    after: int


def face(f: Field, name: str, facing: int) -> tuple[Field, Turned]:
    """V6-1: a new facing (the bot checks that it is the combatant's own turn)."""
    unit = f.unit(name)
    after = facing % 360
    return f.put(replace(unit, facing=after)), Turned(unit.name, unit.facing, after)


def facing_toward(f: Field, name: str, other: str) -> int:
    """The bearing (whole degrees) from one placed combatant to another."""
    a, b = _placed(f, name), _placed(f, other)
    assert a.cell is not None and b.cell is not None
    if a.cell == b.cell:
        raise RuleError("v6.same_cell", name=a.name, other=b.name)
    return round(bearing(a.cell, b.cell)) % 360


def pose(f: Field, name: str, after: str) -> tuple[Field, PostureChange]:
    """V6-2: change posture; the change says what it costs (the base charges it)."""
    unit = f.unit(name)
    changed = change(unit.name, unit.posture, after)
    return f.put(replace(unit, posture=after)), changed


def _placed(f: Field, name: str) -> Unit:
    unit = f.find(name)
    if unit is None or unit.cell is None:
        raise RuleError("v6.not_placed", name=name.strip())
    return unit


@dataclass(frozen=True, slots=True)
class Move:
    """A move: from, through, to; its exact length and whole steps; its fatigue (an active
    move), or a roll (lying: 1 step for a tactical action), or a forced move (no
    fatigue; ``stopped_by`` the base it stopped before)."""

    name: str
    start: str
    path: tuple[str, ...]
    end: str
    length: float
    walked: int
    cost: MoveCost | None
    fatigue_before: int
    fatigue_after: int
    roll: bool = False
    forced: bool = False
    stopped_by: str | None = None
    action_kind: str | None = None
    action_count: int = 0


def move(f: Field, name: str, path: Sequence[Coord], *, base_stride: int = DEFAULT_STRIDE,
         agility: int | None = None, might: int | None = None, mode: str = "walk",
         vaults: Sequence[int] = (), leaps: Sequence[int] = (), climb: int = 0,
         partner_stride: int | None = None) -> tuple[Field, Move]:
    """V6-3: an active move along straight legs through ``path`` (the last cell is the
    destination; decision 6: the bot measures straight lines and checks only where the
    move ends — route round a base with waypoints). Lying, a move is a 1-step roll."""
    unit = _placed(f, name)
    if not path:
        raise RuleError("v6.no_path")
    if len(path) == 1 and path[0] == unit.cell and not climb:
        raise RuleError("v6.no_move", name=unit.name, cell=grid.cell_name(*path[0]))
    for cell in path:
        _on_board(f, cell)
    _free(f, unit.name, path[-1], unit.size)
    assert unit.cell is not None
    points = (unit.cell, *path)
    length = sum(centre_distance(a, b) for a, b in itertools.pairwise(points))
    walked = steps(length)
    start, end = grid.cell_name(*unit.cell), grid.cell_name(*path[-1])
    names = tuple(grid.cell_name(*c) for c in path)
    if unit.posture == "lie":
        if len(path) != 1 or walked > 1 or vaults or leaps or climb or mode != "walk":
            raise RuleError("v6.lie_roll_only", name=unit.name)
        moved = replace(unit, cell=path[-1])
        kind, count = ROLL_COST
        return f.put(moved), Move(unit.name, start, names, end, length, walked, None,
                                  unit.fatigue, unit.fatigue, roll=True, action_kind=kind,
                                  action_count=count)
    cost = move_cost(walked=walked, base_stride=base_stride, posture=unit.posture, mode=mode,
                     vaults=vaults, leaps=leaps, climb=climb, agility=agility, might=might,
                     partner_stride=partner_stride)
    moved = replace(unit, cell=path[-1], fatigue=unit.fatigue + cost.fatigue)
    return f.put(moved), Move(unit.name, start, names, end, length, walked, cost, unit.fatigue,
                              moved.fatigue)


def forced_move(f: Field, name: str, to: Coord) -> tuple[Field, Move]:
    """V6-3: a knock-back, pull or flight the GM makes — no fatigue, along the straight
    line, stopping before the first base in the way (and at the board's edge)."""
    unit = _placed(f, name)
    assert unit.cell is not None
    x0, y0 = unit.cell
    n = max(abs(to[0] - x0), abs(to[1] - y0))
    last, stopped = unit.cell, None
    for i in range(1, n + 1):
        cell = (math.floor(x0 + (to[0] - x0) * i / n + 0.5),
                math.floor(y0 + (to[1] - y0) * i / n + 0.5))
        if not grid.contains(cell, f.width, f.height):
            break
        other = blocker(f, unit.name, cell, unit.size)
        if other is not None:
            stopped = other.name
            break
        last = cell
    length = centre_distance(unit.cell, last)
    return f.put(replace(unit, cell=last)), Move(
        unit.name, grid.cell_name(*unit.cell), (grid.cell_name(*to),), grid.cell_name(*last),
        length, steps(length), None, unit.fatigue, unit.fatigue, forced=True,
        stopped_by=stopped)


def rest(f: Field, name: str, fatigue: int) -> Field:
    """Set a combatant's fatigue (the GM: a rest, an effect)."""
    if fatigue < 0:
        raise RuleError("v6.negative")
    unit = f.unit(name)
    return f.put(replace(unit, fatigue=fatigue))


def tactics(f: Field, attacker: str, target: str, kind: AttackKind,
            allies: Iterable[str] = ()) -> AttackTactics:
    """V6-1/V6-2 on one attack, for the base's attack check (ap20 AP-6/AP-7):

    - posture layers of both (V6-2), a crawling attacker's melee or throw refused;
      a crawling target cannot parry (decision 3);
    - from the target's back (V6-1) it cannot be defended (``undefendable``); and
      with an ally (``allies``: the attacker's side, able to fight) adjacent to the
      target (V6-4) it is a flank from a blind spot: a sneak attack (AP-7).
    Without both on the field only postures count."""
    a, t = f.unit(attacker), f.unit(target)
    layers = attack_layers(a.posture, t.posture, kind)
    lost = CRAWL_LOST_DEFENSE if t.posture == "crawl" else frozenset()
    facts: list[tuple[str, object]] = []
    undefendable = sneak = False
    if a.cell is not None and t.cell is not None:
        side = sector(t.facing, bearing(t.cell, a.cell), t.sense)
        facts += [("sector", side), ("distance", gap(a.cell, a.size, t.cell, t.size).steps)]
        if side == "back":
            undefendable = True
            for ally in allies:
                u = f.find(ally)
                if u is None or u.cell is None or u.name.casefold() in (
                        a.name.casefold(), t.name.casefold()):
                    continue
                if gap(u.cell, u.size, t.cell, t.size).adjacent:
                    sneak = True
                    facts.append(("flank", u.name))
                    break
    return AttackTactics(layers, lost, undefendable, sneak, tuple(facts))
