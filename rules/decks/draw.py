"""Drawing from a deck with the injected dice source.

SealDice's semantics (``executeDeck`` in ``dice/ext_deck.go`` and its manual):

- a weighted pick rolls one die with as many faces as the candidates weigh together
  and takes the entry under that face (an entry of weight 3 covers three faces);
- "without putting back" lasts one command: `.draw X 3` and every ``{X}`` inside it
  share one pool per list, an entry drawn is gone from it; weights then only order
  the draws (``::9::a`` and ``b`` drawn twice give both). A pool drawn empty is full
  again (SealDice refills it the same way);
- ``{%X}`` picks from the whole list every time.

A list with one entry that can come up is taken without a die (no die decides
nothing). :func:`draw` checks the limits first (:func:`rules.decks.bounds.check`):
a refused draw has rolled nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.decks.bounds import DEFAULT_LIMITS, DeckLimits, check
from rules.decks.deck import DICE_LIMITS, PLAYER, Deck, Entry, Ref, Roll
from rules.dice import evaluate
from rules.dice.source import DiceSource
from rules.errors import RuleError


@dataclass(frozen=True)
class Draw:
    """``count`` draws from the list ``name``: each draw's text, and the dice rolled."""

    name: str
    texts: tuple[str, ...]
    rolls: tuple[tuple[int, int], ...]
    """Each die as (faces, value), in order: what a GM audits."""


def draw(deck: Deck, name: str, count: int, source: DiceSource, player: str = "",
         separator: str = "", limits: DeckLimits = DEFAULT_LIMITS) -> Draw:
    """``count`` draws from ``name``, one of the names `.draw` may draw of ``deck``;
    ``player`` is the drawer's name, ``separator`` what joins the draws (counted in the
    length limit)."""
    if name not in deck.keys:
        raise RuleError("decks.unknown", name=name)
    check(deck, name, count, len(player), len(separator), limits)
    drawing = _Drawing(deck, source, player)
    texts = tuple(drawing.expand(name, replace=False) for _ in range(count))
    return Draw(name, texts, tuple(drawing.rolls))


class _Drawing:
    """One command's draws: the pools of the lists drawn without putting back."""

    def __init__(self, deck: Deck, source: DiceSource, player: str) -> None:
        self.deck = deck
        self.source = _Recorded(source)
        self.player = player
        self.pools: dict[str, list[int]] = {}

    @property
    def rolls(self) -> list[tuple[int, int]]:
        return self.source.rolls

    def expand(self, name: str, replace: bool) -> str:
        entry = self.pick(name, replace)
        out: list[str] = []
        for part in entry.parts:
            if isinstance(part, Ref):
                out.append(self.expand(part.name, part.replace))
            elif isinstance(part, Roll):
                out.append(str(evaluate(part.parsed, self.source, DICE_LIMITS).total))
            else:
                out.append(self.player if part is PLAYER else str(part))
        return "".join(out)

    def pick(self, name: str, replace: bool) -> Entry:
        entries = self.deck.lists[name]
        everything = list(range(len(entries)))
        pool = everything if replace else self.pools.setdefault(name, everything)
        if not any(entries[i].weight for i in pool):  # drawn empty: full again
            pool[:] = everything
        chosen = self.weighted(pool, entries)
        if not replace:
            pool.remove(chosen)
        return entries[chosen]

    def weighted(self, pool: list[int], entries: tuple[Entry, ...]) -> int:
        candidates = [i for i in pool if entries[i].weight]
        if len(candidates) == 1:
            return candidates[0]
        total = sum(entries[i].weight for i in candidates)
        face = self.source.roll(total)
        for i in candidates:
            face -= entries[i].weight
            if face <= 0:
                return i
        raise AssertionError("a face beyond the candidates' weight")  # pragma: no cover


class _Recorded:
    """The dice source, each die it gives noted as (faces, value)."""

    def __init__(self, source: DiceSource) -> None:
        self.source = source
        self.rolls: list[tuple[int, int]] = []

    def roll(self, faces: int) -> int:
        value = self.source.roll(faces)
        self.rolls.append((faces, value))
        return value
