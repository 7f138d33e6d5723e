"""`v6` — 站位与姿势 (positioning and posture), seed 002: a tactical layer for a d20 game
with advantage layers. The bot plays it only on top of `ap20` (`.system ap20+v6`).

Pure rules: state in, frozen results out; no I/O, no chat text; refusals are
``RuleError("v6.<code>", **params)`` (codes in ``docs/systems/v6.md``). v6 never
imports ap20: what the two share — advantage layers, attack kinds, an attack's
tactical verdict — is the ``rules.kits.advantage`` kit.

- ``geometry``  V6-1 facing and sectors; V6-4 base sizes, distance, adjacency
- ``posture``   V6-2 postures: layers, stride, change costs
- ``movement``  V6-3 fatigue for walking, climbing, vaulting, leaping, drag / support
- ``field``     the state (cells on ``rules.kits.grid``) and its operations, ``tactics``

Rule ids implemented (``../shared/RULES.md``):

- V6-1 ``sector`` (front 120°, sides 60°, back 120°; herbivores front 240°; tremor
       sense all front); a back attack cannot be defended (``tactics(...).undefendable``);
       facing changes on one's own turn (the bot checks the turn).
- V6-2 ``attack_layers``, ``stride``, ``change`` (the seed's costs in instant /
       tactical actions), a lying combatant only rolls 1 step.
- V6-3 ``move_cost`` / ``move`` / ``forced_move``: each fatigue buys up to a stride of
       steps; climb 灵巧 ÷ 2 per fatigue; vault below 灵巧 ÷ 2 (height up and down);
       leap ≤ 强壮 ÷ 2; drag / support at half stride; forced moves cost nothing and
       stop at bases.
- V6-4 ``gap``: medium 1 step, large 0.7 m, huge 1.2 m; bases never overlap; adjacent
       within 1 step.

Decisions where RULES.md and the seed are silent:

1.  The seed's instant action (ia) and tactical action (ta) are priced by the base
    system: in ap20 an instant action is 1 action point (瞬發, like a reaction) and a
    tactical action 3 (a standard action). Moving costs fatigue, no action points.
2.  A line exactly on a sector border belongs to the sector nearer the front
    (60° off the facing is front, 120° is side).
3.  "Crawling: parry with 2 disadvantage" has no roll in ap20 (a defence is a level):
    a crawling target's parry (招架) counts 0.
4.  Drag / support at stride ÷ 2 (fractions dropped) is at least 1 step per fatigue.
5.  "Obstacles count double" (drag / support) reads as the seed's own numbers: a
    1-step obstacle takes 2 steps (as any vault: up and down) and, supporting, a
    1-step gap takes 2 steps (its width again). Dragging leaps no gap.
6.  Positions are cells of 1 step (the grid kit: A1 top left); distances are straight
    lines between base centres, fractions dropped; the space between two bases decides
    adjacency and overlap. The bot knows no walls or obstacles on the field: heights
    and gaps are given with the move, and a route round a base is given as waypoints.
7.  A new field is 12 × 12 steps.
8.  A stride neither the sheet (步幅) nor the GM names is 3.
9.  A flank (AP-7's "besieging with an ally from a blind spot") is an attack from the
    target's back while another combatant of the attacker's side who can fight is
    adjacent to the target; tremor sense and herbivores have no back, so no flank.
10. Facing and position matter only when both fighters are placed.
11. A move onto one's own cell is no move (``v6.no_move``).
12. Turning is free on one's own turn (the seed: during a move, during the tactical
    action or when it is done). The first move of a turn, before its tactical action
    (an attack), costs only fatigue; a move after the attack, or a second move, is a
    standalone move: fatigue and a tactical action of its own (``move_action``).
13. A fallen combatant (down or dead) keeps its cell: a body blocks a base (the seed
    drags the unconscious); one who left the fight frees its cell at once.
"""

from rules.kits.game_system import GameSystem, Stat
from rules.systems.v6.field import (
    DEFAULT_SIZE,
    DEFAULT_STRIDE,
    Field,
    Move,
    Turned,
    Unit,
    face,
    facing_toward,
    forced_move,
    move,
    move_action,
    place,
    pose,
    resize,
    rest,
    tactics,
)
from rules.systems.v6.geometry import (
    DIRECTIONS,
    SENSE_ALIASES,
    SENSES,
    SIZE_ALIASES,
    SIZES,
    Gap,
    bearing,
    direction,
    gap,
    sector,
    steps,
)
from rules.systems.v6.movement import MODE_ALIASES, MODES, MoveCost, move_cost
from rules.systems.v6.posture import (
    ALIASES as POSTURE_ALIASES,
)
from rules.systems.v6.posture import (
    CHANGE_COSTS,
    POSTURES,
    PostureChange,
    attack_layers,
    change,
    posture,
    stride,
)

SYSTEM = GameSystem(
    id="v6",
    names=("站位與姿勢", "站位与姿势", "v6 positioning"),
    stats=(
        Stat("步幅", "attribute", ("Stride",)),
        Stat("靈巧", "attribute", ("灵巧", "Agility")),
        Stat("強壯", "attribute", ("强壮", "Might")),
    ),
    default_die="d20",
)

__all__ = [
    "CHANGE_COSTS", "DEFAULT_SIZE", "DEFAULT_STRIDE", "DIRECTIONS", "MODES", "MODE_ALIASES",
    "POSTURES", "POSTURE_ALIASES", "SENSES", "SENSE_ALIASES", "SIZES", "SIZE_ALIASES", "SYSTEM",
    "Field", "Gap", "Move", "MoveCost", "PostureChange", "Turned", "Unit", "attack_layers",
    "bearing", "change", "direction", "face", "facing_toward", "forced_move", "gap", "move",
    "move_action",
    "move_cost", "place", "pose", "posture", "resize", "rest", "sector", "steps", "stride",
    "tactics",
]
