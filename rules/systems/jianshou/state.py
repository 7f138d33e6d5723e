"""The state of one 剑手 table: players (seat order), their zones, the turn and the duel.

Everything is immutable; the operations in ``setup``, ``turns`` and ``duel`` return a
new :class:`Game` and an event. The bot stores a game as it is (a typed document read
and written from these dataclasses: hands and decks included, the store is not a
channel message).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, Literal

from rules.errors import RuleError
from rules.kits.encounter import Life
from rules.systems.jianshou.cards import Card

Status = Literal["lobby", "mulligan", "play", "over"]
Phase = Literal["practise", "item", "action"]
PHASES: tuple[Phase, ...] = ("practise", "item", "action")
Step = Literal["defend", "assist", "evade"]

HAND_LIMIT = 7
"""JS-2: a hand holds at most seven cards at the end of a turn."""
START_HAND = 6
"""JS-1: each player draws six."""
MAX_MULLIGANS = 2
"""JS-1: at most two mulligans."""
PLAYING = ("mulligan", "play")
"""The statuses of a game being played (not its lobby, not over)."""
TURN_DRAW = 2
"""JS-2: two cards at the start of a turn (the first turn: less one per mulligan)."""
START_NEILI = 2
MAX_NEILI = 10
MAX_HP = 10
BASE_HP = 12
"""JS-1: HP = 12 − players, at most 10."""
MIN_PLAYERS, MAX_PLAYERS = 2, 8
"""Decision: 2 … 8 players (with 8, HP starts at 4)."""
ASSIST_SURCHARGE = 2
"""JS-4: an assisting defender pays the art's cost + 2."""
EVADE_CAP = 4
"""JS-4: the evade value of a hit check is at most 4."""


@dataclass(frozen=True)
class Art:
    """An art in a player's art zone and the level they have practised it to."""

    name: str
    level: int = 1


@dataclass(frozen=True)
class Player:
    user: str
    name: str
    team: str = ""
    hp: int = 0
    neili: int = START_NEILI
    deck: tuple[str, ...] = ()
    hand: tuple[str, ...] = ()
    arts: tuple[Art, ...] = ()
    equipment: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    mulligans: int = 0
    kept: bool = False
    turns: int = 0
    """Turns this player has completed (JS-2: only they may be attacked)."""
    defeated: str = ""
    """Why the player is out: ``hp``, ``deck`` (JS-5) or ``resigned``; "" while in."""

    @property
    def side(self) -> str:
        """The side a player fights for: their team, or themselves (JS-5)."""
        return f"team:{self.team}" if self.team else f"user:{self.user}"

    @property
    def alive(self) -> bool:
        return not self.defeated

    @property
    def life(self) -> Life:
        """The player as the encounter kit sees them (issue 24): ``dead`` once defeated
        at HP ≤ 0 or by an empty deck (JS-5: out of the game for good, still seated),
        ``removed`` once they resigned or were kicked; ``active`` while in. Jianshou
        knows no ``down``: there is no state between standing and defeated."""
        if not self.defeated:
            return Life.ACTIVE
        return Life.REMOVED if self.defeated == "resigned" else Life.DEAD

    def art(self, name: str) -> Art | None:
        return next((a for a in self.arts if a.name == name), None)


@dataclass(frozen=True)
class Duel:
    """A duel in progress (JS-4): the attack as declared and what answered it so far.
    ``step`` is whose answer the table waits for: the target's defense, the asked
    helper's assist, or the target's evade."""

    attacker: str
    target: str
    art: str
    level: int
    attack: int
    precision: int
    cost: int
    step: Step = "defend"
    helper: str = ""
    defender: str = ""
    defense_art: str = ""
    defense_level: int = 0
    defense: int = 0
    defense_cost: int = 0

    @property
    def awaited(self) -> str:
        """The user whose answer the duel waits for."""
        return self.helper if self.step == "assist" else self.target


@dataclass(frozen=True)
class Turn:
    player: str
    done: tuple[Phase, ...] = ()


@dataclass(frozen=True)
class Game:
    status: Status = "lobby"
    players: tuple[Player, ...] = ()
    """Join order in the lobby; seat order (= turn order, JS-1) once started."""
    cards: tuple[Card, ...] = ()
    """The catalog of the deck this game was dealt from (a later `.deck load` leaves a
    running game alone)."""
    deck_name: str = ""
    current: int = 0
    round: int = 0
    first: int = -1
    turn: Turn | None = None
    duel: Duel | None = None
    winners: tuple[str, ...] = ()
    hp_max: int = MAX_HP
    """JS-1: everyone's HP at the deal (12 − players, at most 10) — the most a heal
    gives back (a game stored before it existed: 10)."""

    @cached_property
    def catalog(self) -> dict[str, Card]:
        return {c.name: c for c in self.cards}

    def card(self, name: str) -> Card:
        return self.catalog[name]

    def index(self, user: str) -> int:
        for i, p in enumerate(self.players):
            if p.user == user:
                return i
        raise RuleError("jianshou.not_a_player", who=user)

    def player(self, user: str) -> Player:
        return self.players[self.index(user)]

    def find(self, user: str) -> Player | None:
        return next((p for p in self.players if p.user == user), None)

    @property
    def actor(self) -> Player | None:
        if self.status != "play" or not self.players:
            return None
        return self.players[self.current]

    def alive(self) -> tuple[Player, ...]:
        return tuple(p for p in self.players if p.alive)

    def with_player(self, user: str, **changes: Any) -> Game:
        i = self.index(user)
        players = list(self.players)
        players[i] = replace(players[i], **changes)
        return replace(self, players=tuple(players))
