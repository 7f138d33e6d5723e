"""`jianshou` — 剑手, a wuxia card duel refereed in chat, seed 004.

Pure rules: the table is an immutable :class:`Game`; every operation takes it (and,
where chance enters, an injected :class:`~rules.dice.source.DiceSource`) and returns
a new one with a result dataclass carrying every number a GM would audit. No I/O,
no chat text; every refusal is ``RuleError("jianshou.<code>", **params)`` (the codes
are listed in ``docs/systems/jianshou.md``). Shuffles draw from the dice source too
(``setup.shuffle``): a seeded source deals the same cards.

- ``cards``  JS-1 the deck format (JSON) and its validation; the card catalog
- ``state``  the table: players in seat order, hands, decks, zones, the turn, the duel
- ``setup``  JS-1 lobby, seats, shuffles, the deal, mulligans, the first player
- ``turns``  JS-2 turns and phases, JS-3 actions, JS-5 defeat and victory
- ``duel``   JS-4 the duel

Rule ids implemented (``../shared/RULES.md``, section ``jianshou``):

- JS-1 ``parse_deck`` (≥ 60 cards, ≤ 4 of a name), ``join`` / ``start`` (HP = 12 −
       players, at most 10; 內力 2, at most 10; seats with no teammates side by side;
       six dealt), ``mulligan`` (at most two, each one card less on the first turn)
       / ``keep``, then a die picks the first player; play passes along the seats.
- JS-2 ``start_turn`` (內力 + highest 吐納, draw 2), ``practise`` / ``item`` /
       ``event``-or-other-action once each in any order, ``end_turn`` (hand ≤ 7,
       ``discard``); the first player attacks nobody on their first turn, the others
       only players who have had a turn.
- JS-3 ``attack`` (the duel), ``event``, ``meditate`` (highest 打坐, 1 without an
       internal art), ``transfer`` (X ≤ highest internal-art level); skipping is ending
       the turn without an action.
- JS-4 ``attack`` → ``defend`` → ``assist`` (+2 內力) → ``evade`` → resolution:
       attack − defense, then 1d6 + precision > evade (capped at 4); ``force_pass``.
- JS-5 defeat at HP ≤ 0 or a draw from an empty deck; the last side standing wins;
       ``reset`` starts over with the same players.

Decisions where RULES.md and the seed are silent (the seed lost its back page):

1.  Every player plays a shuffled copy of the table's deck (the seed has each player
    bring their own; a GM loads one deck for the table).
2.  An art's level is the number of its cards practised; a card of an art already in
    play raises it one level, up to the card's last level. A level is optional when
    used (the practised level).
3.  Items are used at once (``use``: heal, 內力, draw, damage) or worn (``equip``:
    attack, defense, evade, precision bonuses, one of a name); events are played as the
    turn's action with the same effects. Heal, 內力 and draw are the player's own;
    damage hits a target chosen as for an attack. Cards played in another player's
    turn (the seed's 神速, 突發) and hidden practise (閉關) are not modelled.
4.  An attack fully cancelled by the defense ends the duel without an evade or a
    hit check (see ``duel``).
5.  The first turn gains 吐納 like any other (nobody has an internal art in play yet).
6.  2 … 8 players; teams are optional (no team: a side of one). Seats keep the join
    order when no teammates sit together, else the first arrangement in join order
    that parts them. HP and 內力 gains stop at 10; 內力 transferred past 10 is lost.
7.  A player may resign (in the mulligan phase they simply leave); a resigned player is
    defeated.
8.  Shuffles come from the dice source (``rules.dice.source.shuffle``): the CSPRNG in
    production; a script names one with a single value (a seed of 1 … 2**64).
"""

from rules.dice.source import SHUFFLE_FACES
from rules.kits.game_system import GameSystem
from rules.systems.jianshou.cards import (
    ART_KINDS,
    EVENT,
    INTERNAL,
    ITEM,
    KINDS,
    LIGHTFOOT,
    MARTIAL,
    MAX_COPIES,
    MIN_CARDS,
    Card,
    Deck,
    Level,
    card_json,
    deck_json,
    parse_deck,
    parse_deck_text,
)
from rules.systems.jianshou.duel import (
    Declared,
    DuelStep,
    Resolution,
    assist,
    attack,
    defend,
    evade,
    force_pass,
)
from rules.systems.jianshou.setup import (
    Begun,
    Joined,
    Kept,
    Mulliganed,
    Started,
    join,
    keep,
    leave,
    mulligan,
    reset,
    seat,
    shuffle,
    start,
)
from rules.systems.jianshou.state import (
    EVADE_CAP,
    HAND_LIMIT,
    MAX_HP,
    MAX_NEILI,
    PLAYING,
    Art,
    Duel,
    Game,
    Player,
    Turn,
)
from rules.systems.jianshou.turns import (
    Discarded,
    Effects,
    Meditated,
    Played,
    Practised,
    Resigned,
    Transferred,
    TurnEnd,
    TurnStart,
    bonus,
    discard,
    end_turn,
    event,
    highest,
    highest_internal_level,
    item,
    meditate,
    practise,
    resign,
    transfer,
)

SYSTEM = GameSystem("jianshou", ("劍手", "剑手", "Swordsman duel"), stats=(), default_die="d6")

__all__ = [
    "ART_KINDS",
    "EVADE_CAP",
    "EVENT",
    "HAND_LIMIT",
    "INTERNAL",
    "ITEM",
    "KINDS",
    "LIGHTFOOT",
    "MARTIAL",
    "MAX_COPIES",
    "MAX_HP",
    "MAX_NEILI",
    "MIN_CARDS",
    "PLAYING",
    "SHUFFLE_FACES",
    "SYSTEM",
    "Art",
    "Begun",
    "Card",
    "Deck",
    "Declared",
    "Discarded",
    "Duel",
    "DuelStep",
    "Effects",
    "Game",
    "Joined",
    "Kept",
    "Level",
    "Meditated",
    "Mulliganed",
    "Played",
    "Player",
    "Practised",
    "Resigned",
    "Resolution",
    "Started",
    "Transferred",
    "Turn",
    "TurnEnd",
    "TurnStart",
    "assist",
    "attack",
    "bonus",
    "card_json",
    "deck_json",
    "defend",
    "discard",
    "end_turn",
    "evade",
    "event",
    "force_pass",
    "highest",
    "highest_internal_level",
    "item",
    "join",
    "keep",
    "leave",
    "meditate",
    "mulligan",
    "parse_deck",
    "parse_deck_text",
    "practise",
    "reset",
    "resign",
    "seat",
    "shuffle",
    "start",
    "transfer",
]
