"""The state documents of the `ace` system (``bot.documents``): the table's options
(AE-2 attribute substitution, AE-12 supernatural attributes), its named extended
actions (AE-4), its enemies, the fight (initiative, postures, holds, hiding) and each
character's nightmare mark (AE-14, moves with the sheet)."""

from __future__ import annotations

from bot.documents import Document


class Options(Document):
    """``{"attr": bool, "super": bool}``: attribute substitution allowed (default on: the
    GM "may refuse", AE-2) and supernatural attributes (default off, AE-12)."""

    key = "ace.options"


class ExtendedActions(Document):
    """``{"actions": {name: Extended.to_dict() + {"by": who started it}}}`` (AE-4)."""

    key = "ace.extended"


class Enemies(Document):
    """``{"enemies": {name: {"stats": {sheet name: value}, "hp": int}}}``: the GM's
    enemies, their numbers and current HP."""

    key = "ace.enemies"


class FightDoc(Document):
    """``rules.systems.ace.fight.Fight.to_dict()``: initiative, round, postures, grapple
    holds and hidden fighters."""

    key = "ace.fight"


class MarkDoc(Document):
    """``rules.systems.ace.mark.Mark.to_dict()``: one character's nightmare mark."""

    key = "ace.mark"
    per_character = True


DOCUMENTS = (Options, ExtendedActions, Enemies, FightDoc, MarkDoc)
