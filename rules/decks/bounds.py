"""What a draw can cost at most, known before any die is rolled.

A list's worst case is read from the deck alone: the most random picks, the longest
text and the deepest nesting any draw from it can reach (every entry's references
counted, whichever entry comes up). A reference cycle (``A`` → ``{B}`` → ``{A}``)
is refused outright, even one that would end by luck: SealDice stops such a draw
after 20,000 steps and posts an error in its place; here nothing is drawn at all.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.decks.deck import DICE_LIMITS, PLAYER, Deck, Ref, Roll
from rules.errors import RuleError


@dataclass(frozen=True)
class DeckLimits:
    """What one `.draw` may ask for: ``picks`` random picks (every reference and every
    draw counted), ``length`` characters of the whole result (one chat message),
    ``depth`` lists nested inside each other, ``count`` draws (SealDice's old cap)."""

    picks: int = 500
    length: int = 1500
    depth: int = 12
    count: int = 5


DEFAULT_LIMITS = DeckLimits()


@dataclass(frozen=True)
class Cost:
    picks: int
    length: int
    depth: int


def cost_of(deck: Deck, name: str, player: int, limits: DeckLimits = DEFAULT_LIMITS) -> Cost:
    """The worst case of one draw from the list ``name`` (``player``: the length of
    the drawer's name). Refuses a cycle and a nesting deeper than the limit."""
    return _Costing(deck, player, limits).of(name, ())


class _Costing:
    def __init__(self, deck: Deck, player: int, limits: DeckLimits) -> None:
        self.deck = deck
        self.player = player
        self.limits = limits
        self.known: dict[str, Cost] = {}

    def of(self, name: str, path: tuple[str, ...]) -> Cost:
        if name in path:
            loop = " → ".join((*path[path.index(name):], name))
            raise RuleError("decks.cycle", file=self.deck.source, path=loop)
        if len(path) >= self.limits.depth:
            raise RuleError("decks.too_deep", file=self.deck.source, name=path[0],
                            limit=self.limits.depth)
        cost = self.known.get(name)
        if cost is not None:
            if len(path) + cost.depth > self.limits.depth:  # reached deeper than before
                raise RuleError("decks.too_deep", file=self.deck.source, name=path[0],
                                limit=self.limits.depth)
            return cost
        inner = (*path, name)
        picks = length = depth = 0
        for entry in self.deck.lists[name]:
            entry_picks = entry_length = entry_depth = 0
            for part in entry.parts:
                if isinstance(part, Ref):
                    child = self.of(part.name, inner)
                    entry_picks += child.picks
                    entry_length += child.length
                    entry_depth = max(entry_depth, child.depth)
                elif isinstance(part, Roll):  # its dice; no total is longer than its text
                    entry_picks += DICE_LIMITS.max_rolls
                    entry_length += len(part.expression) + 1
                else:
                    entry_length += self.player if part is PLAYER else len(str(part))
            picks = max(picks, entry_picks)
            length = max(length, entry_length)
            depth = max(depth, entry_depth)
        cost = Cost(picks + 1, length, depth + 1)
        self.known[name] = cost
        return cost


def check(deck: Deck, name: str, count: int, player: int, separator: int,
          limits: DeckLimits = DEFAULT_LIMITS) -> Cost:
    """Refuse ``count`` draws from ``name`` unless their worst case fits the limits
    (``separator``: the characters between two draws). The worst case of them all."""
    if not 1 <= count <= limits.count:
        raise RuleError("decks.count", count=count, limit=limits.count)
    one = cost_of(deck, name, player, limits)
    total = Cost(one.picks * count, one.length * count + separator * (count - 1), one.depth)
    if total.picks > limits.picks:
        raise RuleError("decks.too_many_picks", name=name, picks=total.picks,
                        limit=limits.picks)
    if total.length > limits.length:
        raise RuleError("decks.too_long", name=name, length=total.length,
                        limit=limits.length)
    return total
