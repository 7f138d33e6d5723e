"""JS-4 the duel: attack declaration → defend → assist defense → evade → resolution.

Each step is one operation, answered by the player the duel waits for (play-by-post:
no timeouts; a GM answers "no" for an absent player with :func:`force_pass`). 內力 is
paid at each declaration and a declaration the player cannot pay is refused
(``not_enough_neili``). The resolution: remaining attack = attack − defense; if it is
above 0, the hit check 1d6 + precision > evade (evade capped at 4) deals the remaining
attack. Precision and evade count for that one check only.

Decisions where the seed is silent:

- A level is optional when declaring: the level the art is practised to.
- An attack fully cancelled by the defense ends the duel at once: there is nothing to
  evade, no hit check is rolled.
- Equipped items add their ``attack`` and ``precision`` to their wearer's attacks and
  their ``defense`` and ``evade`` to their wearer when attacked (whether or not the
  wearer defends or evades); the evade cap of 4 applies to the sum.
- The assist is asked by the target naming a helper when declining to defend; the
  helper may accept (``assist``) or decline. The attacker and the target cannot assist.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.dice.source import DiceSource
from rules.errors import RuleError
from rules.systems.jianshou.cards import LIGHTFOOT, MARTIAL, Level
from rules.systems.jianshou.state import ASSIST_SURCHARGE, EVADE_CAP, Duel, Game, Player
from rules.systems.jianshou.turns import _actor, bonus, check_target, defeat, use_phase

HIT_DIE = 6


@dataclass(frozen=True)
class Declared:
    """One declaration of the duel (attack, defend, assist or evade) and what it cost;
    ``art`` is "" for a player who declined (``pass``)."""

    step: str
    user: str
    art: str = ""
    level: int = 0
    value: int = 0
    cost: int = 0
    neili: int = 0


@dataclass(frozen=True)
class Resolution:
    """JS-4 resolution: every number a GM audits. ``roll`` is None when the defense
    cancelled the whole attack (no hit check)."""

    attacker: str
    target: str
    attack: int
    defense: int
    remaining: int
    roll: int | None
    precision: int
    evade: int
    evade_raw: int
    total: int
    hit: bool
    damage: int
    hp_before: int
    hp: int
    defeated: bool
    over: bool
    winners: tuple[str, ...] = ()
    precision_items: int = 0
    """Of ``precision``, what the attacker's worn items add (the rest is the art's)."""
    evade_items: int = 0
    """Of ``evade_raw``, what the target's worn items add (the rest is the art's)."""
    attack_art: str = ""
    evade_art: str = ""
    """The arts behind precision and evade ("" for an evade declined)."""


@dataclass(frozen=True)
class DuelStep:
    """What one duel command did: its declaration, then either the next step the duel
    waits for (and who answers it) or the resolution."""

    declared: Declared
    waiting: str = ""
    awaited: str = ""
    resolution: Resolution | None = None


def _level(game: Game, player: Player, name: str, level: int | None, kind: str) -> tuple[
        int, Level]:
    art = player.art(name)
    if art is None:
        raise RuleError("jianshou.art_not_in_play", card=name)
    card = game.card(name)
    if card.kind != kind:
        raise RuleError(f"jianshou.not_{kind}", card=name)
    chosen = art.level if level is None else level
    if not 1 <= chosen <= art.level:
        raise RuleError("jianshou.level_too_high", card=name, level=chosen, have=art.level)
    return chosen, card.level(chosen)


def _pay(game: Game, player: Player, cost: int) -> Game:
    if cost > player.neili:
        raise RuleError("jianshou.not_enough_neili", need=cost, have=player.neili)
    return game.with_player(player.user, neili=player.neili - cost)


def _open_duel(game: Game) -> Duel:
    if game.status != "play" or game.duel is None:
        raise RuleError("jianshou.no_duel")
    return game.duel


def _awaiting(game: Game, user: str, step: str) -> tuple[Duel, Player]:
    duel = _open_duel(game)
    if duel.step != step and user == duel.awaited:  # spoken to the one awaited: "you"
        raise RuleError("jianshou.your_step", step=duel.step)
    if duel.step != step:
        raise RuleError("jianshou.wrong_step", step=duel.step,
                        who=game.player(duel.awaited).name)
    if user != duel.awaited:
        raise RuleError("jianshou.not_awaited", who=game.player(duel.awaited).name)
    return duel, game.player(user)


# --------------------------------------------------------------------------- the steps


def attack(game: Game, user: str, target: str, art: str,
           level: int | None = None) -> tuple[Game, DuelStep]:
    """JS-4 attack declaration (the turn's action, JS-3): a martial art in play at a
    level up to its practised one, its cost paid at once; the target answers next."""
    player = _actor(game, user)
    assert game.turn is not None
    if "action" in game.turn.done:
        raise RuleError("jianshou.action_used")
    victim = check_target(game, player, target)
    chosen, values = _level(game, player, art, level, MARTIAL)
    if values.attack <= 0:
        raise RuleError("jianshou.no_attack", card=art, level=chosen)
    game = _pay(game, player, values.cost)
    duel = Duel(user, victim.user, art, chosen,
                values.attack + bonus(game, player, "attack"),
                values.precision + bonus(game, player, "precision"), values.cost)
    game = use_phase(replace(game, duel=duel), "action")
    return game, DuelStep(Declared("attack", user, art, chosen, duel.attack, values.cost,
                                   game.player(user).neili), "defend", victim.user)


def defend(game: Game, user: str, art: str = "", level: int | None = None,
           helper: str = "") -> tuple[Game, DuelStep]:
    """JS-4 defend: the target names a martial art and level (pays its cost), or
    declines (``art`` "") — and may then ask ``helper`` for an assist."""
    duel, player = _awaiting(game, user, "defend")
    if not art:
        if helper:
            aid = game.player(helper)
            if aid.user in (duel.attacker, duel.target):
                raise RuleError("jianshou.bad_helper", who=aid.name)
            if not aid.alive:  # the refusal is about the helper, not the one who asks
                raise RuleError(f"jianshou.helper_{aid.life.value}", who=aid.name)
            game = replace(game, duel=replace(duel, step="assist", helper=aid.user))
            return game, DuelStep(Declared("defend", user), "assist", aid.user)
        return _to_evade(game, Declared("defend", user))
    chosen, values = _level(game, player, art, level, MARTIAL)
    if values.defense <= 0:
        raise RuleError("jianshou.no_defense", card=art, level=chosen)
    game = _pay(game, player, values.cost)
    game = replace(game, duel=replace(duel, defender=user, defense_art=art,
                                      defense_level=chosen, defense=values.defense,
                                      defense_cost=values.cost))
    return _to_evade(game, Declared("defend", user, art, chosen, values.defense, values.cost,
                                    game.player(user).neili))


def assist(game: Game, user: str, art: str = "", level: int | None = None) -> tuple[
        Game, DuelStep]:
    """JS-4 assist defense: the asked helper defends for the target with a martial art,
    paying its cost + 2 — or declines (``art`` "")."""
    duel, player = _awaiting(game, user, "assist")
    if not art:
        return _to_evade(game, Declared("assist", user))
    chosen, values = _level(game, player, art, level, MARTIAL)
    if values.defense <= 0:
        raise RuleError("jianshou.no_defense", card=art, level=chosen)
    cost = values.cost + ASSIST_SURCHARGE
    game = _pay(game, player, cost)
    game = replace(game, duel=replace(duel, defender=user, defense_art=art,
                                      defense_level=chosen, defense=values.defense,
                                      defense_cost=cost))
    return _to_evade(game, Declared("assist", user, art, chosen, values.defense, cost,
                                    game.player(user).neili))


def _to_evade(game: Game, declared: Declared) -> tuple[Game, DuelStep]:
    """After the defense: the target may evade — unless nothing is left to hit."""
    duel = game.duel
    assert duel is not None
    if _remaining(game, duel) <= 0:
        game, resolution = _resolve(game, None, 0)
        return game, DuelStep(declared, resolution=resolution)
    game = replace(game, duel=replace(duel, step="evade"))
    return game, DuelStep(declared, "evade", duel.target)


def evade(game: Game, user: str, source: DiceSource, art: str = "",
          level: int | None = None) -> tuple[Game, DuelStep]:
    """JS-4 evade: the target names a light-foot art and level (pays its cost) or
    declines (``art`` ""); then the duel is resolved."""
    _, player = _awaiting(game, user, "evade")
    if not art:
        game, resolution = _resolve(game, source, 0)
        return game, DuelStep(Declared("evade", user), resolution=resolution)
    chosen, values = _level(game, player, art, level, LIGHTFOOT)
    game = _pay(game, player, values.cost)
    declared = Declared("evade", user, art, chosen, values.evade, values.cost,
                        game.player(user).neili)
    game, resolution = _resolve(game, source, values.evade, art)
    return game, DuelStep(declared, resolution=resolution)


def force_pass(game: Game, source: DiceSource) -> tuple[Game, DuelStep]:
    """A GM answers "no" for the player the duel waits for (an absent player)."""
    duel = _open_duel(game)
    who = duel.awaited
    if duel.step == "defend":
        return defend(game, who)
    if duel.step == "assist":
        return assist(game, who)
    return evade(game, who, source)


def _defense(game: Game, duel: Duel) -> int:
    """The declared (or assisting) defense plus the target's equipped armour."""
    return duel.defense + bonus(game, game.player(duel.target), "defense")


def _remaining(game: Game, duel: Duel) -> int:
    return max(0, duel.attack - _defense(game, duel))


def _resolve(game: Game, source: DiceSource | None,
             evade_value: int, evade_art: str = "") -> tuple[Game, Resolution]:
    """JS-4 resolution and the hit check; JS-5 when the target falls."""
    duel = game.duel
    assert duel is not None
    target = game.player(duel.target)
    remaining = _remaining(game, duel)
    defense = _defense(game, duel)
    evade_items = bonus(game, target, "evade")
    evade_raw = evade_value + evade_items
    capped = min(EVADE_CAP, evade_raw)
    roll: int | None = None
    total = 0
    hit = False
    if remaining > 0:
        assert source is not None
        roll = source.roll(HIT_DIE)
        total = roll + duel.precision
        hit = total > capped
    damage = remaining if hit else 0
    hp = target.hp - damage
    game = replace(game.with_player(target.user, hp=hp), duel=None)
    defeated = hp <= 0
    if defeated:
        game = defeat(game, target.user, "hp")
    return game, Resolution(duel.attacker, duel.target, duel.attack, defense, remaining,
                            roll, duel.precision, capped, evade_raw, total, hit, damage,
                            target.hp, hp, defeated, game.status == "over", game.winners,
                            bonus(game, game.player(duel.attacker), "precision"), evade_items,
                            duel.art, evade_art)
