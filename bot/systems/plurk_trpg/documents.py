"""The state documents of the `plurk` system (``bot.documents``): one table's last
checks (PL-4, PL-10), the GM's consent to take 10 / take 20 / push (PL-10), AP pool
(PL-11), pending fatal events (PL-12), and battle (PL-13 …) with its setup."""

from __future__ import annotations

from bot.documents import Document


class LastChecks(Document):
    """``{"last": {owner: record}}``: each player's last check (push, fate)."""

    key = "plurk.checks"


class Consent(Document):
    """``{"allow": {"take10": bool, "take20": bool, "push": bool}, "requests": {owner:
    {...}}}``: what players may do without asking (PL-10 「若局方允許」; all False by
    default) and the take-10 / take-20 checks waiting for the GM's `.ra allow`."""

    key = "plurk.consent"


class ActionPoints(Document):
    """The party's AP pool and its log."""

    key = "plurk.ap"


class FatalEvents(Document):
    """``{"events": [...], "next": n, "cost": …}``: fatal events waiting to be settled."""

    key = "plurk.fatal"


class BattleDoc(Document):
    """The running battle (``rules.systems.plurk_trpg.Battle.to_dict()``)."""

    key = "plurk.battle"


class BattleSetup(Document):
    """Who joined before `.battle start`, enemies, field size, surprise settings."""

    key = "plurk.battle.setup"


DOCUMENTS = (LastChecks, Consent, ActionPoints, FatalEvents, BattleDoc, BattleSetup)
