"""The state documents of the `ap20` system (``bot.documents``): the fight."""

from __future__ import annotations

from bot.documents import Doc
from rules.systems.ap20 import Combat

COMBAT = Doc("ap20.combat", Combat, Combat)
"""The running fight: fighters in initiative order, their action points (AP-1), the
GM-run fighters' numbers, states and resistances, the round and whose turn it is. A
fight without fighters is no fight (what a table that never fought reads)."""

DOCUMENTS = (COMBAT,)
