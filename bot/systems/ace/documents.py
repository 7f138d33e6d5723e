"""The state documents of the `ace` system (:class:`bot.documents.Doc`): the table's
options (AE-2 attribute substitution, AE-12 supernatural attributes), its named
extended actions (AE-4), its enemies, the fight (initiative, postures, holds,
hiding) and each character's nightmare mark (AE-14, moves with the sheet).

The fight and the mark are the rules' own dataclasses; the records below are the
bot's (who started an action, an enemy's numbers), in the shape the documents have
always been stored in, so every stored table still reads (schema 1, no migration).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from bot.documents import Doc
from rules.systems.ace.extended import Extended
from rules.systems.ace.fight import Fight
from rules.systems.ace.mark import Mark


@dataclass(frozen=True)
class Options:
    """Attribute substitution allowed (on unless the GM refuses it, AE-2) and
    supernatural attributes (off unless the GM turns them on, AE-12)."""

    attr: bool = True
    super: bool = False


@dataclass(frozen=True, slots=True)
class Started(Extended):
    """An extended action as the table keeps it: the rules' totals and who started it
    (None for one stored before starters were kept)."""

    by: str | None = None

    def rules(self) -> Extended:
        """The rules' action alone (what a reply shows), without who started it."""
        return Extended(**{f.name: getattr(self, f.name) for f in fields(Extended)})


@dataclass
class ExtendedActions:
    """The table's extended actions by name (AE-4)."""

    actions: dict[str, Started] = field(default_factory=dict)


@dataclass
class Enemy:
    """A GM's enemy: its sheet numbers (by sheet name), current HP, and whether the
    GM has shown its numbers to the table (`.enemy reveal`, issue 24)."""

    stats: dict[str, int]
    hp: int
    revealed: bool = False


@dataclass
class Enemies:
    enemies: dict[str, Enemy] = field(default_factory=dict)


OPTIONS = Doc("ace.options", Options, Options)
EXTENDED = Doc("ace.extended", ExtendedActions, ExtendedActions)
ENEMIES = Doc("ace.enemies", Enemies, Enemies)
FIGHT = Doc("ace.fight", Fight, Fight)
MARK = Doc("ace.mark", Mark, Mark, per_character=True)

DOCUMENTS = (OPTIONS, EXTENDED, ENEMIES, FIGHT, MARK)
