"""The state documents of the `v6` layer (``bot.documents``): the field."""

from __future__ import annotations

from bot.documents import Document


class FieldDoc(Document):
    """``rules.systems.v6.Field.to_dict()``: the field's size and every combatant's
    cell, facing, posture, base size, sense, fatigue and (GM-run) movement numbers."""

    key = "v6.field"


DOCUMENTS = (FieldDoc,)
