"""The fight: fighters in initiative order on the ``rules.kits.turns`` kit, their action
points (AP-1, refilled by the kit's ``on_turn_start`` hook), the numbers of the
GM-run fighters, and the attack applied to them.

Player characters keep their numbers on their sheets (the bot reads them for every
command); a GM-run fighter keeps them here in ``stats`` under the rules' keys
(``armor``, ``dodge``, ``hit``, ``hp`` …, ``rules.systems.ap20.vocabulary.KEYS``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from rules.dice.source import DiceSource
from rules.errors import RuleError
from rules.kits import turns
from rules.kits.encounter import Life, capped, passes_fallen
from rules.kits.turns import TurnOrder
from rules.systems.ap20.actions import OWN_TURN_ONLY, Spend, action_key, spend
from rules.systems.ap20.checks import Check, check
from rules.systems.ap20.vocabulary import DEFAULT_AP

FLAGS = ("dead", "incapacitated", "hidden", "invisible", "blindsight", "truesight")
"""States a fighter may be in: 死亡 (decision 14: the GM's word), 失能 (AP-2: armor
only; down), 隱匿 / 隱形 (AP-7: its attacks are sneak attacks), 盲視 / 真實視覺 (AP-7:
sneak attacks against it fail)."""

GRANTING = frozenset({"hidden", "invisible", "truesight", "blindsight"})
"""Decision 15: states that grant a benefit in a fight come from the GM (or end by the
rule's own action: 隱匿 ends with the attack it gave its sneak attack to)."""

SIDES = ("party", "foe")


@dataclass(frozen=True)
class Fighter:
    """One combatant: who runs it, its initiative, its action points, and — for a
    GM-run fighter — its numbers (``stats``), states (``flags``) and resistances."""

    name: str
    side: str = "party"
    owner: str | None = None
    character_id: int | None = None
    initiative: int = 0
    init_rolls: tuple[int, ...] = ()
    tiebreak: int = 0
    ap: int = DEFAULT_AP
    ap_max: int = DEFAULT_AP
    tier: int = 1
    stats: dict[str, int] = field(default_factory=dict)
    flags: tuple[str, ...] = ()
    resist: dict[str, int] = field(default_factory=dict)
    hp_max: int | None = None
    revealed: bool = False

    def has(self, flag: str) -> bool:
        return flag in self.flags

    @property
    def hp(self) -> int | None:
        return self.stats.get("hp")


@dataclass(frozen=True)
class Combat:
    """Fighters in initiative order, the index of the one whose turn it is and the round
    (the ``rules.kits.turns`` kit's ``TurnOrder``, kept flat: these fields are what the
    bot stores); ``started`` once the first turn began (round 1)."""

    fighters: tuple[Fighter, ...] = ()
    current: int = 0
    round: int = 0
    started: bool = False

    @property
    def order(self) -> TurnOrder[Fighter]:
        return TurnOrder(self.fighters, self.current, self.round)

    @property
    def actor(self) -> Fighter | None:
        return self.order.actor if self.started else None

    def find(self, name: str) -> Fighter | None:
        folded = name.strip().casefold()
        return next((f for f in self.fighters if f.name.casefold() == folded), None)

    def get(self, name: str) -> Fighter:
        found = self.find(name)
        if found is None:
            raise RuleError("ap20.unknown_combatant", name=name.strip(),
                            known=", ".join(f.name for f in self.fighters))
        return found

    def index(self, name: str) -> int:
        target = self.get(name)
        return next(i for i, f in enumerate(self.fighters) if f is target)


def life(fighter: Fighter, hp: int | None) -> Life:
    """Issue 24 on ap20's words (decisions 12, 14): 死亡 is dead; 失能 or 0 HP is down
    (AP-2: armor only); else active. ``hp`` is the fighter's current HP (a player's is
    on the sheet), None when it has none."""
    if fighter.has("dead"):
        return Life.DEAD
    if fighter.has("incapacitated") or (hp is not None and hp <= 0):
        return Life.DOWN
    return Life.ACTIVE


def _ordered(combat: Combat, order: TurnOrder[Fighter]) -> Combat:
    """The fight with the turn kit's new order."""
    return replace(combat, fighters=order.members, current=order.current, round=order.round)


def initiative(source: DiceSource, *, modifier: int = 0, mods: int = 0, tier: int = 1) -> Check:
    """Decision 2: initiative is a 敏捷 check — d20 + 敏捷 modifier + tier bonus (AP-8)
    + mods; higher acts first."""
    return check(source, modifier=modifier, mods=mods, tier=tier)


def join(combat: Combat | None, fighter: Fighter) -> Combat:
    """Add a fighter in initiative order (ties: the higher ``tiebreak`` — the 敏捷
    modifier — first, then whoever joined first). A fighter joining a started fight
    before the current actor first acts next round (the kit's ``insert``)."""
    if fighter.tier < 1:
        raise RuleError("ap20.bad_tier", tier=fighter.tier)
    if combat is None:
        return Combat((fighter,))
    if combat.find(fighter.name) is not None:
        raise RuleError("ap20.duplicate_name", name=fighter.name)
    key = (fighter.initiative, fighter.tiebreak)
    at = next((i for i, f in enumerate(combat.fighters) if (f.initiative, f.tiebreak) < key),
              len(combat.fighters))
    if not combat.started:
        members = (*combat.fighters[:at], fighter, *combat.fighters[at:])
        return replace(combat, fighters=members)
    return _ordered(combat, turns.insert(combat.order, at, fighter))


def remove(combat: Combat, name: str) -> Combat | None:
    """Take a fighter out (None when it was the last); the current actor stays current
    (removing the actor itself hands the turn to the next in order, without a refill)."""
    at = combat.index(name)
    if len(combat.fighters) == 1:
        return None
    return _ordered(combat, turns.remove(combat.order, at))


def refill(fighter: Fighter) -> Fighter:
    """AP-1: action points back to the fighter's max at the start of its turn."""
    return replace(fighter, ap=fighter.ap_max)


@dataclass(frozen=True, slots=True)
class Turn:
    """A turn change: who ended, who acts now with its refill, the round, and the
    fallen the turn passed over (in order)."""

    previous: str | None
    current: str
    round: int
    new_round: bool
    ap_before: int
    ap_after: int
    skipped: tuple[str, ...] = ()


def next_turn(combat: Combat, lives: Mapping[str, Life] | None = None) -> tuple[Combat, Turn]:
    """Start the fight (round 1) or end the current turn. The turn passes over every
    fighter that is not active (``lives``: name → life, active when left out; issue
    24); the incoming actor's action points refill through the turn kit's
    ``on_turn_start`` (AP-1) — a fallen fighter gets no refill."""
    lives = lives or {}

    def life_of(fighter: Fighter) -> Life:
        return lives.get(fighter.name, Life.ACTIVE)

    def start(fighter: Fighter) -> Fighter:
        return refill(fighter) if life_of(fighter) is Life.ACTIVE else fighter

    order = (combat.order if combat.started
             else TurnOrder(combat.fighters, len(combat.fighters) - 1, 0))
    order, change = turns.advance(order, on_turn_start=start, skips=passes_fallen(life_of))
    before = combat.get(change.current.name).ap
    previous = change.previous.name if combat.started else None
    return replace(_ordered(combat, order), started=True), Turn(
        previous, change.current.name, change.round, change.new_round, before,
        change.current.ap, tuple(f.name for f in change.skipped))


def leave(combat: Combat, name: str, lives: Mapping[str, Life] | None = None
          ) -> tuple[Combat | None, Turn | None]:
    """A fighter leaves the fight (issue 24). When it is the actor of a started fight its
    turn ends as with :func:`next_turn` — the fallen passed over, the next actor's action
    points refilled — before it goes; the Turn is that change (None otherwise)."""
    actor = combat.actor
    if not combat.started or actor is None or actor.name != combat.get(name).name \
            or len(combat.fighters) == 1:
        return remove(combat, name), None
    combat, turn = next_turn(combat, {**(lives or {}), actor.name: Life.REMOVED})
    after = remove(combat, actor.name)
    assert after is not None  # more than one fighter: someone stays
    turn = replace(turn, skipped=tuple(n for n in turn.skipped if n != actor.name))
    if turn.current == actor.name:
        # Everyone else has fallen: the turn came round to the leaver; it stays with
        # the fighter after it in the order (fallen: no refill), not with one gone.
        held = after.order.actor
        turn = replace(turn, current=held.name, ap_before=held.ap, ap_after=held.ap)
    return after, turn


def update(combat: Combat, name: str, **changes: Any) -> Combat:
    """The fight with one fighter's fields replaced (AP, stats, flags, …)."""
    at = combat.index(name)
    fighter = replace(combat.fighters[at], **changes)
    if fighter.ap < 0 or fighter.ap_max < 0:
        raise RuleError("ap20.negative", name="ap", value=min(fighter.ap, fighter.ap_max))
    if fighter.tier < 1:
        raise RuleError("ap20.bad_tier", tier=fighter.tier)
    return _ordered(combat, turns.update(combat.order, at, fighter))


def with_flags(fighter: Fighter, add: Iterable[str] = (), drop: Iterable[str] = ()) -> tuple[
        str, ...]:
    """A fighter's flags with some added and some dropped, in ``FLAGS`` order."""
    kept = (set(fighter.flags) | set(add)) - set(drop)
    return tuple(f for f in FLAGS if f in kept)


def spend_action(combat: Combat, name: str, action: str, *, mp: int | None = None,
                 stamina: int | None = None, stamina_base: int = 0) -> tuple[Combat, Spend]:
    """AP-1 in a fight: ``name`` pays for ``action``. Decision 3: a maneuver, a standard
    action and a standard cast only on one's own turn once the fight has started."""
    fighter = combat.get(name)
    key = action_key(action)
    actor = combat.actor
    if key in OWN_TURN_ONLY and actor is not None and actor.name != fighter.name:
        raise RuleError("ap20.not_your_turn", name=fighter.name, actor=actor.name, action=key)
    paid = spend(key, fighter.ap, mp=mp, stamina=stamina, stamina_base=stamina_base)
    return update(combat, fighter.name, ap=paid.ap_after), paid


def check_turn(combat: Combat, name: str, action: str) -> None:
    """Refuse an own-turn action (decision 3) by someone whose turn it is not."""
    actor = combat.actor
    if action in OWN_TURN_ONLY and actor is not None and actor.name.casefold() != \
            name.strip().casefold():
        raise RuleError("ap20.not_your_turn", name=name, actor=actor.name, action=action)


def hp_within(value: int, maximum: int | None) -> int:
    """Decision 16 (issue 24 bounds): HP set or healed stays within 0 … the fighter's
    maximum (only the floor when no maximum is known)."""
    return capped(value, value if maximum is None else maximum)


def after_attack(fighter: Fighter) -> Fighter:
    """Decision 15: attacking gives a hidden (隱匿) attacker away — the state ends with
    the attack it made a sneak attack; 隱形 (invisible) lasts until the GM ends it."""
    return replace(fighter, flags=with_flags(fighter, drop=("hidden",)))


def hurt(combat: Combat, name: str, amount: int) -> tuple[Combat, int | None, int | None]:
    """Take ``amount`` HP off a GM-run fighter that has HP (never below 0): the fight and
    the HP before and after (None, None for a fighter whose HP is on a sheet)."""
    fighter = combat.get(name)
    if fighter.hp is None:
        return combat, None, None
    after = max(0, fighter.hp - amount)
    return update(combat, fighter.name, stats={**fighter.stats, "hp": after}), fighter.hp, after
