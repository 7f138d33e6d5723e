"""The state documents of the `v6` layer (``bot.documents``): the field."""

from __future__ import annotations

from bot.documents import Doc
from rules.systems.v6 import Field

FIELD = Doc("v6.field", Field, Field)
"""The field's size and every combatant's cell, facing, posture, base size, sense,
fatigue and (GM-run) movement numbers."""

DOCUMENTS = (FIELD,)
