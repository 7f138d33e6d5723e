"""The state documents of the `ap20` system (``bot.documents``): the fight."""

from __future__ import annotations

from bot.documents import Document


class CombatDoc(Document):
    """The running fight (``rules.systems.ap20.Combat.to_dict()``; ``{}`` when none):
    fighters in initiative order, their action points (AP-1), the GM-run fighters'
    numbers, states and resistances, the round and whose turn it is."""

    key = "ap20.combat"


DOCUMENTS = (CombatDoc,)
