"""JS-1 setup: the lobby, seats, shuffles, the deal, mulligans and the first player.

Shuffles draw from the injected :class:`~rules.dice.source.DiceSource` only
(:func:`rules.dice.source.shuffle`): in production every swap comes from the
operating system's CSPRNG, so players who know their six cards cannot work back to
the rest of their deck; a script (tests, the console's ``--dice``) names a shuffle
with one number.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, replace

from rules.dice.source import DiceSource
from rules.dice.source import shuffle as shuffle_in_place
from rules.errors import RuleError
from rules.systems.jianshou.cards import Deck
from rules.systems.jianshou.state import (
    BASE_HP,
    MAX_HP,
    MAX_MULLIGANS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PLAYING,
    START_HAND,
    START_NEILI,
    TURN_DRAW,
    Game,
    Player,
)
from rules.systems.jianshou.turns import TurnStart, start_turn

MAX_TEAM = 12


def shuffle(cards: Sequence[str], source: DiceSource) -> tuple[str, ...]:
    """``cards`` in a random order, shuffled by the source."""
    order = list(cards)
    shuffle_in_place(order, source)
    return tuple(order)


# --------------------------------------------------------------------------- the lobby


@dataclass(frozen=True)
class Joined:
    user: str
    name: str
    team: str
    players: int
    rejoined: bool = False


def join(game: Game, user: str, name: str, team: str = "") -> tuple[Game, Joined]:
    """A player sits down at the table (before the game starts); joining again changes
    the name or team. Refusals: ``game_running``, ``table_full``, ``bad_team``."""
    if game.status in PLAYING:
        raise RuleError("jianshou.game_running")
    if game.status == "over":
        game = reset(game)
    team = team.strip()
    if len(team) > MAX_TEAM or any(ch.isspace() for ch in team):
        raise RuleError("jianshou.bad_team", limit=MAX_TEAM)
    found = game.find(user)
    if found is not None:
        game = game.with_player(user, name=name, team=team)
        return game, Joined(user, name, team, len(game.players), rejoined=True)
    if len(game.players) >= MAX_PLAYERS:
        raise RuleError("jianshou.table_full", limit=MAX_PLAYERS)
    game = replace(game, players=(*game.players, Player(user, name, team)))
    return game, Joined(user, name, team, len(game.players))


def leave(game: Game, user: str) -> Game:
    """A player leaves the lobby (in a running game they resign: ``turns.resign``)."""
    if game.status in PLAYING:
        raise RuleError("jianshou.game_running")
    game.index(user)
    return replace(game, players=tuple(p for p in game.players if p.user != user))


def reset(game: Game) -> Game:
    """Back to the lobby with the same players, teams and names (JS-5: a new game)."""
    return Game(players=tuple(Player(p.user, p.name, p.team) for p in game.players))


def seat(players: Sequence[Player]) -> tuple[Player, ...]:
    """JS-1: seats round the table so that no two teammates sit side by side; the join
    order when it already does, else the first arrangement (in join order) that does.
    Refused with ``seating_impossible``."""
    n = len(players)
    for order in itertools.permutations(range(n)):
        if order[0] != 0:
            break  # a circle: fixing the first seat loses no arrangement
        if all(not _teammates(players[order[i]], players[order[(i + 1) % n]])
               for i in range(n)):
            return tuple(players[i] for i in order)
    raise RuleError("jianshou.seating_impossible")


def _teammates(a: Player, b: Player) -> bool:
    return bool(a.team) and a.team == b.team and a.user != b.user


# --------------------------------------------------------------------------- the deal


@dataclass(frozen=True)
class Started:
    """JS-1: seats, HP, 內力, each player's deck shuffled and six cards dealt. ``hands``
    is private (the bot sends each hand to its player only)."""

    order: tuple[str, ...]
    hp: int
    neili: int
    deck_size: int
    hands: dict[str, tuple[str, ...]]


def start(game: Game, deck: Deck, source: DiceSource) -> tuple[Game, Started]:
    """Seat the players, give each a shuffled copy of ``deck`` and deal six (JS-1).
    Refusals: ``game_running``, ``too_few_players``, ``one_side``, ``seating_impossible``."""
    if game.status in PLAYING:
        raise RuleError("jianshou.game_running")
    if len(game.players) < MIN_PLAYERS:
        raise RuleError("jianshou.too_few_players", minimum=MIN_PLAYERS,
                        count=len(game.players))
    if len({p.side for p in game.players}) < 2:
        raise RuleError("jianshou.one_side")
    seated = seat(game.players)
    hp = min(MAX_HP, BASE_HP - len(seated))
    cards = deck.card_list()
    players = []
    for p in seated:
        order = shuffle(cards, source)
        # a new player from the seat's user, name and team: nothing of a game over is kept
        players.append(Player(p.user, p.name, p.team, hp=hp, deck=order[START_HAND:],
                              hand=order[:START_HAND]))
    game = Game(status="mulligan", players=tuple(players), cards=deck.cards,
                deck_name=deck.name, hp_max=hp)
    return game, Started(tuple(p.user for p in players), hp, START_NEILI, len(cards),
                         {p.user: p.hand for p in players})


# --------------------------------------------------------------------------- mulligans


@dataclass(frozen=True)
class Begun:
    """Every hand is kept: the die chose the first player, whose first turn starts."""

    roll: int
    first: str
    starts: tuple[TurnStart, ...]


@dataclass(frozen=True)
class Mulliganed:
    """JS-1: the hand went back, the deck was shuffled and six were drawn (``hand`` is
    private). ``first_draw`` is what the first turn will draw."""

    user: str
    count: int
    hand: tuple[str, ...]
    first_draw: int
    left: int
    begun: Begun | None = None


@dataclass(frozen=True)
class Kept:
    user: str
    mulligans: int
    first_draw: int
    waiting: tuple[str, ...]
    begun: Begun | None = None


def _mulligan_player(game: Game, user: str) -> Player:
    if game.status != "mulligan":
        raise RuleError("jianshou.not_mulligan_phase")
    player = game.player(user)
    if player.kept and player.mulligans >= MAX_MULLIGANS:
        # kept by itself after the last mulligan: say so, not "you kept your hand"
        raise RuleError("jianshou.mulligan_limit", limit=MAX_MULLIGANS)
    if player.kept:
        raise RuleError("jianshou.already_kept")
    return player


def first_draw(player: Player) -> int:
    """JS-1: the first turn draws two, less one per mulligan."""
    return max(0, TURN_DRAW - player.mulligans)


def mulligan(game: Game, user: str, source: DiceSource) -> tuple[Game, Mulliganed]:
    """JS-1: shuffle the hand back and draw six again — at most twice, each costing one
    card of the first turn's draw. After the second the hand is kept by itself; a
    third is refused with the limit, also once the game has begun."""
    found = game.find(user)
    if game.status == "play" and found is not None and found.mulligans >= MAX_MULLIGANS:
        raise RuleError("jianshou.mulligan_limit", limit=MAX_MULLIGANS)
    player = _mulligan_player(game, user)  # the last mulligan kept the hand by itself
    order = shuffle((*player.deck, *player.hand), source)
    count = player.mulligans + 1
    player = replace(player, deck=order[START_HAND:], hand=order[:START_HAND],
                     mulligans=count, kept=count >= MAX_MULLIGANS)
    game = game.with_player(user, **{k: getattr(player, k) for k in
                                     ("deck", "hand", "mulligans", "kept")})
    game, begun = _maybe_begin(game, source)
    return game, Mulliganed(user, count, player.hand, first_draw(player),
                            MAX_MULLIGANS - count, begun)


def keep(game: Game, user: str, source: DiceSource) -> tuple[Game, Kept]:
    """A player keeps their hand; once every player has, the game begins."""
    player = _mulligan_player(game, user)
    game = game.with_player(user, kept=True)
    waiting = tuple(p.user for p in game.players if not p.kept)
    game, begun = _maybe_begin(game, source)
    return game, Kept(user, player.mulligans, first_draw(player), waiting, begun)


def _maybe_begin(game: Game, source: DiceSource) -> tuple[Game, Begun | None]:
    """JS-1: when no player wants another mulligan, a die chooses the first player."""
    if not all(p.kept for p in game.players):
        return game, None
    roll = source.roll(len(game.players))
    first = roll - 1
    game = replace(game, status="play", first=first, current=first, round=1)
    game, starts = start_turn(game, first)
    return game, Begun(roll, game.players[first].user, starts)
