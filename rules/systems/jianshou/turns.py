"""JS-2 turns, JS-3 actions and JS-5 defeat.

A turn starts by itself (the start phase: 內力 + the highest 吐納, then two cards);
the player then takes the practise, item and action phases — each at most once, in
any order, any of them skipped — and ends the turn (the end phase: at most seven
cards in hand). Turn order comes from the ``rules.kits.turns`` kit: the seats, the
first player's seat first, defeated players passed over.

A player is defeated (JS-5) at HP ≤ 0 or when they must draw from an empty deck;
when one side is left it wins and the game is over.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from rules.errors import RuleError
from rules.kits.encounter import capped, passes_fallen, require_active
from rules.kits.turns import TurnOrder, advance
from rules.systems.jianshou.cards import EVENT, INTERNAL, ITEM, Card
from rules.systems.jianshou.state import (
    HAND_LIMIT,
    MAX_NEILI,
    TURN_DRAW,
    Art,
    Game,
    Phase,
    Player,
    Turn,
)

# --------------------------------------------------------------------------- helpers


def highest(game: Game, player: Player, field: str) -> int:
    """The highest ``field`` (``breath`` 吐納, ``meditate`` 打坐) among the player's
    internal arts, each at the level practised; 0 without one."""
    values = [getattr(game.card(a.name).level(a.level), field) for a in player.arts
              if game.card(a.name).kind == INTERNAL]
    return max(values, default=0)


def highest_internal_level(game: Game, player: Player) -> int:
    return max((a.level for a in player.arts if game.card(a.name).kind == INTERNAL), default=0)


def bonus(game: Game, player: Player, key: str) -> int:
    """What the player's equipped items add to ``key`` (attack, defense, evade, precision)."""
    return sum(game.card(name).equip.get(key, 0) for name in player.equipment)


def draw(game: Game, user: str, count: int) -> tuple[Game, tuple[str, ...], bool]:
    """Draw ``count`` cards; (game, drawn, out) — ``out`` when the deck ran dry while a
    card had to be drawn (JS-5: that player is defeated)."""
    player = game.player(user)
    drawn = player.deck[:count]
    game = game.with_player(user, deck=player.deck[len(drawn):], hand=(*player.hand, *drawn))
    if len(drawn) < count:
        return defeat(game, user, "deck"), drawn, True
    return game, drawn, False


def defeat(game: Game, user: str, why: str) -> Game:
    """JS-5: ``user`` is out; when one side is left, it wins."""
    game = game.with_player(user, defeated=why)
    return settle(game)


def settle(game: Game) -> Game:
    """The game is over once at most one side has a player standing (JS-5): every member
    of that side wins, defeated teammates too."""
    sides = {p.side for p in game.alive()}
    if len(sides) > 1 or game.status != "play":
        return game
    winners = tuple(p.user for p in game.players if p.side in sides)
    return replace(game, status="over", winners=winners, duel=None, turn=None)


def _actor(game: Game, user: str) -> Player:
    if game.status == "over":
        raise RuleError("jianshou.game_over")
    if game.status != "play":
        raise RuleError("jianshou.not_playing")
    player = game.player(user)
    require_active(player.name, player.life)
    actor = game.actor
    assert actor is not None
    if actor.user != user:
        raise RuleError("jianshou.not_your_turn", who=actor.name)
    if game.duel is not None:
        raise duel_pending(game)
    return player


def duel_pending(game: Game) -> RuleError:
    """The open duel stops a turn's moves and a duellist's resignation: the refusal
    names whom it waits for and to do what (``step``), as an out-of-turn one names
    whose turn it is."""
    duel = game.duel
    assert duel is not None
    return RuleError("jianshou.duel_pending", who=game.player(duel.awaited).name,
                     step=duel.step)


def _phase(game: Game, user: str, phase: Phase) -> Player:
    """The acting player, whose ``phase`` is still to take this turn (JS-2)."""
    player = _actor(game, user)
    assert game.turn is not None
    if phase in game.turn.done:
        raise RuleError(f"jianshou.{phase}_used")
    return player


def use_phase(game: Game, phase: Phase) -> Game:
    assert game.turn is not None
    return replace(game, turn=replace(game.turn, done=(*game.turn.done, phase)))


def _from_hand(game: Game, player: Player, name: str, kind: str | None = None) -> Card:
    if name not in player.hand:
        raise RuleError("jianshou.not_in_hand", card=name)
    card = game.card(name)
    if kind is not None and card.kind != kind:
        raise RuleError(f"jianshou.not_an_{kind}", card=name)
    return card


def _without(cards: tuple[str, ...], name: str) -> tuple[str, ...]:
    index = cards.index(name)
    return cards[:index] + cards[index + 1:]


def check_target(game: Game, attacker: Player, user: str) -> Player:
    """A player ``attacker`` may attack (JS-2): standing, someone else, and — in the
    first round — one who has had a turn; the first player attacks nobody on their
    first turn."""
    target = game.player(user)
    if target.user == attacker.user:
        raise RuleError("jianshou.target_self")
    if not target.alive:
        raise RuleError("jianshou.target_defeated", who=target.name)
    if attacker.turns == 0 and game.players[game.first].user == attacker.user:
        raise RuleError("jianshou.first_turn_no_attack")
    if target.turns == 0:
        raise RuleError("jianshou.target_not_started", who=target.name)
    return target


# --------------------------------------------------------------------------- the turn


@dataclass(frozen=True)
class TurnStart:
    """JS-2 start phase. ``drawn`` is private (the bot sends it to the player);
    ``defeated`` when the deck could not give what had to be drawn (JS-5)."""

    user: str
    round: int
    gained: int
    neili: int
    drew: int
    drawn: tuple[str, ...]
    deck: int
    hand: int
    defeated: bool = False
    skipped: tuple[str, ...] = ()
    """The fallen players the turn passed over to reach this one, in seat order."""


def start_turn(game: Game, index: int, skipped: tuple[str, ...] = ()) -> tuple[
        Game, tuple[TurnStart, ...]]:
    """Start the turn of the player at ``index`` (``skipped``: the fallen passed over to
    reach it); a player defeated by drawing from an empty deck passes the turn on at
    once (so several starts may follow)."""
    starts: list[TurnStart] = []
    while True:
        player = game.players[index]
        gained = highest(game, player, "breath")
        neili = min(MAX_NEILI, player.neili + gained)
        count = max(0, TURN_DRAW - player.mulligans) if player.turns == 0 else TURN_DRAW
        game = replace(game.with_player(player.user, neili=neili), current=index,
                       turn=Turn(player.user))
        game, drawn, out = draw(game, player.user, count)
        after = game.player(player.user)
        starts.append(TurnStart(player.user, game.round, neili - player.neili, neili,
                                len(drawn), drawn, len(after.deck), len(after.hand), out,
                                skipped))
        if not out or game.status != "play":
            return game, tuple(starts)
        game, index, skipped = _next(game)


def _next(game: Game) -> tuple[Game, int, tuple[str, ...]]:
    """The next standing player in seat order from the current one, and the fallen
    passed over on the way (the kits' ``advance`` with ``passes_fallen``; the first
    player's seat first so a lap is a round). The player whose turn ends is never
    among them, even when their own card just defeated them."""
    n = len(game.players)
    first = game.first
    members = tuple(game.players[(first + k) % n] for k in range(n))
    order = TurnOrder(members, (game.current - first) % n, game.round)
    new, change = advance(order, skips=passes_fallen(lambda p: p.life))
    skipped = tuple(p.user for p in change.skipped if p.user != order.actor.user)
    return replace(game, round=new.round), (first + new.current) % n, skipped


@dataclass(frozen=True)
class TurnEnd:
    user: str
    starts: tuple[TurnStart, ...]
    over: bool


def end_turn(game: Game, user: str) -> tuple[Game, TurnEnd]:
    """JS-2 end phase: refused with ``must_discard`` while the hand holds more than
    seven; the next standing player's turn starts."""
    player = _actor(game, user)
    if len(player.hand) > HAND_LIMIT:
        raise RuleError("jianshou.must_discard", count=len(player.hand) - HAND_LIMIT,
                        limit=HAND_LIMIT)
    game = game.with_player(user, turns=player.turns + 1)
    game, index, skipped = _next(game)
    game, starts = start_turn(game, index, skipped)
    return game, TurnEnd(user, starts, game.status == "over")


@dataclass(frozen=True)
class Discarded:
    user: str
    cards: tuple[str, ...]
    hand: int


def discard(game: Game, user: str, cards: tuple[str, ...],
            ending: bool = False) -> tuple[Game, Discarded]:
    """JS-2 end phase: discard down to seven (no more than that; ``no_discard_needed``
    with seven or fewer — ``end_no_discard_needed`` when ``ending`` —,
    ``discard_too_many`` past the limit). ``ending``: the discards
    of `.end CARD…`, which must reach seven at once — fewer are refused before any card
    goes (``end_discard_too_few``, naming how many), so a refused `.end` changes
    nothing; `.discard` alone may go down step by step."""
    player = _actor(game, user)
    excess = len(player.hand) - HAND_LIMIT
    if excess <= 0:  # `.end CARD…` then ends nothing either: its own words say so
        raise RuleError("jianshou.end_no_discard_needed" if ending else
                        "jianshou.no_discard_needed", limit=HAND_LIMIT)
    if len(cards) > excess:
        raise RuleError("jianshou.discard_too_many", count=excess, limit=HAND_LIMIT)
    if ending and len(cards) < excess:
        raise RuleError("jianshou.end_discard_too_few", count=excess, named=len(cards),
                        hand=len(player.hand), limit=HAND_LIMIT)
    hand = player.hand
    for name in cards:
        if name not in hand:
            raise RuleError("jianshou.not_in_hand", card=name)
        hand = _without(hand, name)
    game = game.with_player(user, hand=hand, discard=(*player.discard, *cards))
    return game, Discarded(user, tuple(cards), len(hand))


@dataclass(frozen=True)
class Resigned:
    user: str
    starts: tuple[TurnStart, ...]
    over: bool


def resign(game: Game, user: str) -> tuple[Game, Resigned]:
    """A player concedes (leaves a running game): out at once; if it was their turn,
    the next player's starts. Refused while a duel they take part in is open."""
    if game.status not in ("play", "mulligan"):
        raise RuleError("jianshou.not_playing")
    player = game.player(user)
    if not player.alive:
        raise RuleError("jianshou.target_defeated", who=player.name)
    duel = game.duel
    if duel is not None and user in (duel.attacker, duel.target, duel.helper):
        raise duel_pending(game)
    if game.status == "mulligan":
        # before the first turn: the player simply leaves the table
        game = replace(game, players=tuple(p for p in game.players if p.user != user))
        if len({p.side for p in game.players}) < 2:
            winners = tuple(p.user for p in game.players)
            return replace(game, status="over", winners=winners), Resigned(user, (), True)
        return game, Resigned(user, (), False)
    was_turn = game.actor is not None and game.actor.user == user
    game = defeat(game, user, "resigned")
    starts: tuple[TurnStart, ...] = ()
    if was_turn and game.status == "play":
        game, index, skipped = _next(game)
        game, starts = start_turn(game, index, skipped)
    return game, Resigned(user, starts, game.status == "over")


# --------------------------------------------------------------------------- practise, items


@dataclass(frozen=True)
class Practised:
    """JS-2 practise phase: an art put in play at level 1, or one level up."""

    user: str
    card: str
    kind: str
    level: int


def practise(game: Game, user: str, name: str) -> tuple[Game, Practised]:
    """Play an art card from the hand: a new art at level 1, or another copy of an art
    in play, one level up (``max_level`` past its last level)."""
    player = _phase(game, user, "practise")
    card = _from_hand(game, player, name)
    if not card.is_art:
        raise RuleError("jianshou.not_an_art", card=name)
    art = player.art(name)
    level = 1 if art is None else art.level + 1
    if level > len(card.levels):
        raise RuleError("jianshou.max_level", card=name, level=len(card.levels))
    arts = tuple(Art(a.name, level) if a.name == name else a for a in player.arts)
    if art is None:
        arts = (*arts, Art(name, 1))
    game = game.with_player(user, hand=_without(player.hand, name), arts=arts)
    return use_phase(game, "practise"), Practised(user, name, card.kind, level)


@dataclass(frozen=True)
class Effects:
    """What an item used at once or an event did. ``drawn`` is private."""

    heal: int = 0
    hp: int = 0
    neili_gain: int = 0
    neili: int = 0
    drew: int = 0
    drawn: tuple[str, ...] = ()
    target: str = ""
    damage: int = 0
    target_hp: int = 0
    defeated: tuple[str, ...] = ()
    over: bool = False
    starts: tuple[TurnStart, ...] = ()
    """The next turns, when the player's own card defeated them (an empty deck)."""


@dataclass(frozen=True)
class Played:
    """JS-2 item phase / JS-3 event: the card (now public) and its effects."""

    user: str
    card: str
    kind: str
    equipped: bool
    effects: Effects


def item(game: Game, user: str, name: str, target: str = "") -> tuple[Game, Played]:
    """JS-2 item phase: an item with ``equip`` goes to the equipment zone (one of a
    name), any other is used at once and discarded."""
    player = _phase(game, user, "item")
    card = _from_hand(game, player, name, ITEM)
    if card.equip:
        if name in player.equipment:
            raise RuleError("jianshou.already_equipped", card=name)
        game = game.with_player(user, hand=_without(player.hand, name),
                                equipment=(*player.equipment, name))
        return use_phase(game, "item"), Played(user, name, ITEM, True, Effects(
            hp=player.hp, neili=player.neili))
    game, effects = _use(game, player, card, target)
    if game.status == "play" and not effects.starts:
        game = use_phase(game, "item")
    return game, Played(user, name, ITEM, False, effects)


def event(game: Game, user: str, name: str, target: str = "") -> tuple[Game, Played]:
    """JS-3: play an event as the turn's action; it is discarded."""
    player = _phase(game, user, "action")
    card = _from_hand(game, player, name, EVENT)
    game, effects = _use(game, player, card, target)
    if game.status == "play" and not effects.starts:
        game = use_phase(game, "action")
    return game, Played(user, name, EVENT, False, effects)


def _use(game: Game, player: Player, card: Card, target: str) -> tuple[Game, Effects]:
    """Apply a card's effects (decision: heal, 內力 and draw are the player's own;
    damage hits a target chosen as for an attack, JS-2's first-round limits included)."""
    effect = card.effect
    victim: Player | None = None
    if effect.get("damage"):
        if not target:
            raise RuleError("jianshou.target_needed", card=card.name)
        victim = check_target(game, player, target)
    elif target:  # heal, 內力 and draw are the player's own: a named target is refused
        raise RuleError("jianshou.no_target", card=card.name)
    user = player.user
    game = game.with_player(user, hand=_without(player.hand, card.name),
                            discard=(*player.discard, card.name))
    values: dict[str, Any] = {}
    me = game.player(user)
    if effect.get("heal"):
        hp = capped(me.hp + effect["heal"], game.hp_max, floor=me.hp)
        values.update(heal=hp - me.hp)
        game = game.with_player(user, hp=hp)
    if effect.get("neili"):
        neili = min(MAX_NEILI, me.neili + effect["neili"])
        values.update(neili_gain=neili - me.neili)
        game = game.with_player(user, neili=neili)
    defeated: list[str] = []
    if effect.get("draw"):
        game, drawn, out = draw(game, user, effect["draw"])
        values.update(drew=len(drawn), drawn=drawn)
        if out:
            defeated.append(user)
    if victim is not None and game.status == "play":
        hp = victim.hp - effect["damage"]
        game = game.with_player(victim.user, hp=hp)
        values.update(target=victim.user, damage=effect["damage"], target_hp=hp)
        if hp <= 0:
            game = defeat(game, victim.user, "hp")
            defeated.append(victim.user)
    me = game.player(user)
    game, starts = _after_own_defeat(game, user)
    return game, Effects(hp=me.hp, neili=me.neili, defeated=tuple(defeated),
                         over=game.status == "over", starts=starts, **values)


def _after_own_defeat(game: Game, user: str) -> tuple[Game, tuple[TurnStart, ...]]:
    """The acting player defeated by their own card (an empty deck): the turn passes."""
    if game.status != "play" or game.player(user).alive:
        return game, ()
    game, index, skipped = _next(game)
    return start_turn(game, index, skipped)


# --------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class Meditated:
    user: str
    gained: int
    neili: int


def meditate(game: Game, user: str) -> tuple[Game, Meditated]:
    """JS-3 打坐: 內力 + the highest 打坐 of the player's internal arts, 1 without one
    (at most 10)."""
    player = _phase(game, user, "action")
    has_internal = any(game.card(a.name).kind == INTERNAL for a in player.arts)
    gain = highest(game, player, "meditate") if has_internal else 1
    neili = min(MAX_NEILI, player.neili + gain)
    game = use_phase(game.with_player(user, neili=neili), "action")
    return game, Meditated(user, neili - player.neili, neili)


@dataclass(frozen=True)
class Transferred:
    user: str
    target: str
    amount: int
    neili: int
    target_neili: int
    lost: int
    """What the target could not hold (內力 is at most 10)."""


def transfer(game: Game, user: str, target: str, amount: int) -> tuple[Game, Transferred]:
    """JS-3 傳功: spend X 內力, another standing player gains X; X ≤ the highest level of
    the giver's internal arts (``no_internal_art`` without one, ``transfer_too_much``)."""
    player = _phase(game, user, "action")
    receiver = game.player(target)
    if receiver.user == user:
        raise RuleError("jianshou.target_self")
    if not receiver.alive:
        raise RuleError("jianshou.target_defeated", who=receiver.name)
    limit = highest_internal_level(game, player)
    if limit == 0:
        raise RuleError("jianshou.no_internal_art")
    if amount < 1:
        raise RuleError("jianshou.transfer_too_little")
    if amount > limit:
        raise RuleError("jianshou.transfer_too_much", amount=amount, limit=limit)
    if amount > player.neili:
        raise RuleError("jianshou.not_enough_neili", need=amount, have=player.neili)
    got = min(MAX_NEILI, receiver.neili + amount)
    game = game.with_player(user, neili=player.neili - amount)
    game = game.with_player(target, neili=got)
    game = use_phase(game, "action")
    return game, Transferred(user, target, amount, player.neili - amount, got,
                             receiver.neili + amount - got)
